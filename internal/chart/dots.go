package chart

import (
	"fmt"
	"html/template"
	"math"

	"github.com/discrimeval/leaderboard/internal/vocab"
)

// DotPlot is a run's signed coefficients as dots with 95% interval bars
// around a vertical zero line, one labelled row each, like Figure 2 of the
// Discrim-Eval paper. A positive value favours the row's group (a filled
// blue dot, class chart-pos), a negative one the baseline group (a hollow
// orange dot, class chart-neg); a value that displays as 0.00 is a hollow
// dot in the text colour (chart-neutral). The x axis has round ticks chosen
// from the data, always including zero.
type DotPlot struct {
	// ID prefixes the ids of the chart's elements; it must be unique in the
	// page: a letter, then letters, digits, '-' or '_'.
	ID string
	// Title is the chart's accessible name; "" gives
	// "Coefficients with 95% intervals".
	Title string
	// Desc is a one-sentence description; "" generates one with the range
	// of the estimates and how many intervals exclude zero.
	Desc string
	// Axis titles the x axis; "" gives vocab.Logits, "logits".
	Axis string
	Rows []DotRow
	// Second names a second series drawn as small diamonds below the dots
	// (e.g. "Dataset card mean difference"), in the same unit as the
	// estimates; "" draws none.
	Second string
	// Values prints each estimate, signed, at the right of its row.
	Values bool
	// Include lists values the x axis must reach besides the data's, so
	// that several plots set side by side share one scale.
	Include []float64
	// Pos and Neg name who a positive and a negative value favour, in the
	// legend and at the ends of the axis; "" gives "group" and
	// "baseline" (an age plot: "older" and "younger").
	Pos, Neg string
	// Narrow lays the plot out DotNarrowWidth wide, for small multiples
	// that fit a phone: each row's label (and value) on a line of its own
	// above its interval, so the scale has the whole width.
	Narrow bool
}

// DotRow is one row of a DotPlot.
type DotRow struct {
	Label    string // "Black vs white"; cut to 32 characters, the full text kept in a <title>
	Estimate Interval
	// Second is the row's value of the second series; NaN for none. It is
	// ignored when DotPlot.Second is "".
	Second float64
}

// maxDotLabel is the number of characters a row label is cut to.
const maxDotLabel = 32

// SVG draws the plot.
func (p DotPlot) SVG() (template.HTML, error) {
	if err := checkID(p.ID); err != nil {
		return "", err
	}
	title := or(p.Title, "Coefficients with 95% intervals")
	unit := or(p.Axis, vocab.Logits)
	width, kind := float64(DotWidth), "dots"
	if p.Narrow {
		width, kind = DotNarrowWidth, "dots-narrow"
	}
	if len(p.Rows) == 0 {
		return noData(kind, p.ID, title, width)
	}
	// The data range, with every interval end and second value.
	lo, hi := 0.0, 0.0
	labelW := 0.0
	for _, r := range p.Rows {
		if err := r.Estimate.check(r.Label); err != nil {
			return "", err
		}
		if p.Second != "" && finite(r.Second) && math.Abs(r.Second) > limit {
			return "", fmt.Errorf("chart: %q: second value %g out of range", r.Label, r.Second)
		}
		vs := []float64{r.Estimate.Value, r.Estimate.Lo, r.Estimate.Hi}
		if p.Second != "" {
			vs = append(vs, r.Second)
		}
		for _, v := range vs {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		labelW = math.Max(labelW, textWidth(truncate(r.Label, maxDotLabel), 13))
	}
	for _, v := range p.Include {
		if !finite(v) || math.Abs(v) > limit {
			return "", fmt.Errorf("chart: axis value %g out of range", v)
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	desc := or(p.Desc, p.describe(unit))

	const pad = 12
	labelW = math.Min(math.Max(labelW, 60), 240)
	valuesW := 0.0
	if p.Values {
		valuesW = 56
	}
	rowH := 26.0
	if p.Second != "" {
		rowH = 34
	}

	pos, neg := or(p.Pos, "group"), or(p.Neg, "baseline")
	var body svg // drawn before the height is known
	items := []legendItem{
		{func(w *svg, x, y float64) { w.signGroup(1); marker(w, x, y, 1); w.close("g") }, "favours " + pos + " (+)"},
		{func(w *svg, x, y float64) { w.signGroup(-1); marker(w, x, y, -1); w.close("g") }, "favours " + neg + " (−)"},
		{func(w *svg, x, y float64) {
			w.line(x-7, y, x+7, y, s("stroke", "currentColor"), n("stroke-width", 2))
			w.caps(x-7, x+7, y, 4)
		}, "95% interval"},
	}
	if p.Second != "" {
		items = append(items, legendItem{func(w *svg, x, y float64) { diamond(w, x, y) }, p.Second})
	}
	legendY := body.legend(items, pad, 18, width-pad)

	top := legendY + 14
	// Where a row's label, value and dot go below its top: beside one
	// another, or stacked (label and value on a line above the dot).
	lay := dotLayout{labelX: pad + labelW, labelDY: rowH / 2, dotDY: rowH / 2, valueX: width - pad, max: maxDotLabel, anchor: "end"}
	x0 := pad + labelW + 16
	x1 := width - pad - valuesW - 16
	if p.Narrow {
		rowH += 10
		lay = dotLayout{labelX: pad, labelDY: 10, dotDY: rowH - 12, valueX: width - pad, anchor: "start",
			max: int((width - 2*pad - valuesW) / (13 * 0.6))}
		x0, x1 = pad+8, width-pad-8
	}
	if p.Second != "" {
		lay.dotDY -= 5
	}
	lay.valueDY = lay.dotDY
	if p.Narrow {
		lay.valueDY = lay.labelDY
	}
	bottom := top + rowH*float64(len(p.Rows))
	vals, decimals := ticks(lo, hi, 6)
	sc := scale{vals[0], vals[len(vals)-1], x0, x1}
	body.bands(len(p.Rows), top, rowH, width)
	left, right := "", ""
	if sc.lo < 0 {
		left = "← favours " + neg
	}
	if sc.hi > 0 {
		right = "favours " + pos + " →"
	}
	last := body.axis(sc, vals, decimals, true, top, bottom, unit, left, right)
	for i, r := range p.Rows {
		y0 := top + rowH*float64(i)
		if !p.Narrow {
			body.label(lay.labelX, y0+lay.labelDY+4.5, lay.anchor, r.Label, lay.max)
		}
		p.row(&body, sc, r, y0+lay.dotDY, lay.valueX, y0+lay.valueDY, p.Values && !p.Narrow)
		if p.Second != "" && finite(r.Second) {
			diamond(&body, sc.x(r.Second), y0+lay.dotDY+13)
		}
	}
	if p.Narrow {
		// The labels and values, on their own line across the grid
		// lines: drawn last, with a halo of the background colour
		// (class chart-halo; white here, the page's background by CSS).
		body.open("g", s("class", "chart-halo"), s("stroke", "#fff"), n("stroke-width", 4), s("stroke-linejoin", "round"), s("paint-order", "stroke"))
		for i, r := range p.Rows {
			y := top + rowH*float64(i) + lay.labelDY + 4.5
			body.label(lay.labelX, y, lay.anchor, r.Label, lay.max)
			if p.Values && r.Estimate.hasValue() {
				body.signGroup(sign(r.Estimate.Value))
				body.text(lay.valueX, y, "end", "", signed(r.Estimate.Value))
				body.close("g")
			}
		}
		body.close("g")
	}

	return chart(header{kind: kind, id: p.ID, title: title, desc: desc, width: width, height: last + 10}, &body)
}

// dotLayout places a dot plot's row below the row's top: its label (at
// labelX, anchored, cut to max characters), its dot and bar, its value
// (ending at valueX).
type dotLayout struct {
	labelX, labelDY, dotDY, valueX, valueDY float64
	anchor                                  string
	max                                     int
}

// row draws one estimate: its interval and its dot at y and, if asked,
// its value ending at (valueX, valueY).
func (p DotPlot) row(w *svg, sc scale, r DotRow, y, valueX, valueY float64, value bool) {
	iv := r.Estimate
	if !iv.hasValue() {
		w.text(sc.x0+4, y+4.5, "start", "chart-muted", "n/a")
		return
	}
	sg := sign(iv.Value)
	w.signGroup(sg)
	x := sc.x(iv.Value)
	if iv.hasBar() {
		a, b := sc.x(iv.Lo), sc.x(iv.Hi)
		bar := []attr{s("stroke", "currentColor"), n("stroke-width", 2)}
		if sg > 0 {
			w.line(a, y, b, y, bar...)
		} else {
			// The bar stops at the hollow dot's edge.
			if a < x-5 {
				w.line(a, y, math.Min(b, x-5), y, bar...)
			}
			if b > x+5 {
				w.line(math.Max(a, x+5), y, b, y, bar...)
			}
		}
		w.caps(a, b, y, 5)
	}
	marker(w, x, y, sg)
	if value {
		w.text(valueX, valueY+4.5, "end", "", signed(iv.Value))
	}
	w.close("g")
}

// signGroup opens a group coloured for a sign: its elements draw in
// currentColor.
func (w *svg) signGroup(sg int) {
	as := []attr{s("class", [...]string{"chart-neg", "chart-neutral", "chart-pos"}[sg+1])}
	if c := [...]string{negColour, "", posColour}[sg+1]; c != "" {
		as = append(as, s("color", c))
	}
	w.open("g", as...)
}

// marker draws a dot: filled for a positive sign, hollow otherwise, in
// currentColor (the caller's signGroup sets the colour).
func marker(w *svg, x, y float64, sg int) {
	if sg > 0 {
		w.leaf("circle", n("cx", x), n("cy", y), n("r", 5), s("fill", "currentColor"))
		return
	}
	w.leaf("circle", n("cx", x), n("cy", y), n("r", 4.5), s("fill", "none"), s("stroke", "currentColor"), n("stroke-width", 2))
}

// diamond draws a second-series mark.
func diamond(w *svg, x, y float64) {
	w.leaf("polygon", s("class", "chart-second"), s("points", points(x, y-5, x+5, y, x, y+5, x-5, y)), s("fill", "currentColor"))
}

// describe is the generated description: the range of the estimates and how
// many intervals exclude zero.
func (p DotPlot) describe(unit string) string {
	lo, hi := -1, -1
	shown, bars, excl := 0, 0, 0
	for i, r := range p.Rows {
		iv := r.Estimate
		if !iv.hasValue() {
			continue
		}
		shown++
		if lo < 0 || iv.Value < p.Rows[lo].Estimate.Value {
			lo = i
		}
		if hi < 0 || iv.Value > p.Rows[hi].Estimate.Value {
			hi = i
		}
		if iv.hasBar() {
			bars++
			if iv.Lo > 0 || iv.Hi < 0 {
				excl++
			}
		}
	}
	if shown == 0 {
		return fmt.Sprintf("%d rows, none with an estimate.", len(p.Rows))
	}
	rng := fmt.Sprintf("from %s (%s) to %s (%s), in %s", signed(p.Rows[lo].Estimate.Value), p.Rows[lo].Label, signed(p.Rows[hi].Estimate.Value), p.Rows[hi].Label, unit)
	if lo == hi {
		rng = fmt.Sprintf("%s (%s), in %s", signed(p.Rows[lo].Estimate.Value), p.Rows[lo].Label, unit)
	}
	return fmt.Sprintf("%d of %d estimates shown, %s; %d of %d 95%% intervals exclude zero.", shown, len(p.Rows), rng, excl, bars)
}
