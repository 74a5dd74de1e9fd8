package chart

import (
	"fmt"
	"html/template"
	"math"
	"strconv"

	"github.com/discrimeval/leaderboard/internal/vocab"
)

// IntervalPlot is a leaderboard view: every run of a board in rank order,
// one row each, its estimate a dot with a 95% interval bar on an x axis
// from zero (views are magnitudes). A tied rank is written "=2" (class
// chart-tie) beside every run that shares it. Long labels are cut with an
// ellipsis; the full label is in the row's <title>, shown on hover.
type IntervalPlot struct {
	// ID prefixes the ids of the chart's elements; it must be unique in the
	// page: a letter, then letters, digits, '-' or '_'.
	ID string
	// Title is the chart's accessible name; "" gives
	// "Estimates with 95% intervals, in rank order".
	Title string
	// Desc is a one-sentence description; "" generates one with the number
	// of runs, the best and worst estimates and the number of tied runs.
	Desc string
	// Axis titles the x axis; "" gives vocab.Logits, "logits".
	Axis string
	// MaxLabel is the number of characters a label is cut to (with the
	// ellipsis); 0 cuts only what does not fit the chart.
	MaxLabel int
	// Narrow lays the plot out for a phone, NarrowWidth wide. It is then
	// stacked: each row's rank and label on a line of its own above its
	// interval, so labels keep their length and the scale the whole width.
	// A wide plot is stacked too when a label would not fit beside the
	// scale.
	Narrow bool
	// Rows are the runs in rank order: ranks must not decrease.
	Rows []IntervalRow
	// Values prints each estimate at the right of its row.
	Values bool
}

// IntervalRow is one run of an IntervalPlot.
type IntervalRow struct {
	Label    string // model and intervention: "Example 7B · illegal-to-discriminate"
	ID       string // the run's id, as data-run on the row's group (for a page's filters); optional
	Rank     int    // competition rank, from 1; 0 on a plot of unranked runs
	Tied     bool   // the rank is shared with another run
	Estimate Interval
}

// SVG draws the plot.
func (p IntervalPlot) SVG() (template.HTML, error) {
	if err := checkID(p.ID); err != nil {
		return "", err
	}
	title := or(p.Title, "Estimates with 95% intervals, in rank order")
	unit := or(p.Axis, vocab.Logits)
	width := float64(IntervalWidth)
	if p.Narrow {
		width = NarrowWidth
	}
	if len(p.Rows) == 0 {
		return noData("intervals", p.ID, title, width)
	}
	lo, hi, labelW := 0.0, 0.0, 0.0
	for i, r := range p.Rows {
		if err := r.Estimate.check(r.Label); err != nil {
			return "", err
		}
		if r.Rank < 0 || i > 0 && (r.Rank < p.Rows[i-1].Rank || (r.Rank == 0) != (p.Rows[i-1].Rank == 0)) {
			return "", fmt.Errorf("chart: %q: rank %d out of order", r.Label, r.Rank)
		}
		for _, v := range []float64{r.Estimate.Value, r.Estimate.Lo, r.Estimate.Hi} {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		labelW = math.Max(labelW, textWidth(r.Label, 13))
	}
	desc := or(p.Desc, p.describe(unit))

	const pad, rankW, maxLabelW = 12, 40, 360
	rowH := 22.0
	stacked := p.Narrow || labelW > maxLabelW
	labelW = math.Max(labelW, 80)
	valuesW := 0.0
	if p.Values {
		valuesW = 48
	}
	// The interval's line within a row, and where the label goes: beside
	// it, or on a line above it when stacked.
	barDY, labelX, labelDY := rowH/2, float64(pad+rankW), rowH/2+4.5
	if stacked {
		rowH, barDY, labelDY, labelW = 40, 28, 14, -rankW
	}
	// Labels are cut only where they would not fit (MaxLabel aside): the
	// full label is in the row's title.
	maxLabel := int((width - pad - labelX) / (13 * 0.6))
	if !stacked {
		maxLabel = int(math.Floor(maxLabelW / (13 * 0.6)))
	}
	if p.MaxLabel > 0 && p.MaxLabel < maxLabel {
		maxLabel = p.MaxLabel
	}
	var body svg
	legendY := body.legend([]legendItem{
		{func(w *svg, x, y float64) {
			w.line(x-7, y, x+7, y, s("stroke", "currentColor"), n("stroke-width", 2))
			w.leaf("circle", s("class", "chart-est"), n("cx", x), n("cy", y), n("r", 4.5), s("fill", "currentColor"))
		}, "estimate and 95% interval"},
		{func(w *svg, x, y float64) { w.text(x, y+4, "middle", "chart-tie", "=") }, "tied rank"},
	}, pad, 18, width-pad)
	top := legendY + 14
	bottom := top + rowH*float64(len(p.Rows))
	x0 := pad + rankW + labelW + 16
	x1 := width - pad - valuesW - 16
	vals, decimals := ticks(lo, hi, 6)
	sc := scale{vals[0], vals[len(vals)-1], x0, x1}
	body.bands(len(p.Rows), top, rowH, width)
	last := body.axis(sc, vals, decimals, false, top, bottom, unit, "", "")
	for i, r := range p.Rows {
		y0 := top + rowH*float64(i)
		y := y0 + barDY
		rank := strconv.Itoa(r.Rank)
		if r.Rank == 0 {
			rank = "–"
		}
		rankClass := ""
		if r.Tied {
			rank, rankClass = "="+rank, "chart-tie"
		}
		if r.ID != "" {
			body.open("g", s("data-run", r.ID))
		} else {
			body.open("g")
		}
		body.elem("title", p.rowTitle(r))
		body.text(pad+rankW-10, y0+labelDY, "end", rankClass, rank)
		body.text(labelX, y0+labelDY, "start", "", truncate(r.Label, maxLabel))
		iv := r.Estimate
		switch {
		case !iv.hasValue():
			body.text(x0+4, y+4.5, "start", "chart-muted", "n/a")
		default:
			x := sc.x(iv.Value)
			if iv.hasBar() {
				a, b := sc.x(iv.Lo), sc.x(iv.Hi)
				body.line(a, y, b, y, s("stroke", "currentColor"), n("stroke-width", 2))
				body.caps(a, b, y, 4)
			}
			body.leaf("circle", s("class", "chart-est"), n("cx", x), n("cy", y), n("r", 4.5), s("fill", "currentColor"))
			if p.Values {
				body.text(width-pad, y+4.5, "end", "", plain(iv.Value))
			}
		}
		body.close("g")
	}
	kind := "intervals"
	if p.Narrow {
		kind = "intervals-narrow"
	}
	return chart(header{kind: kind, id: p.ID, title: title, desc: desc, width: width, height: last + 10}, &body)
}

// rowTitle is a row's tooltip: its rank, full label, estimate and interval.
func (p IntervalPlot) rowTitle(r IntervalRow) string {
	t := "Rank " + strconv.Itoa(r.Rank)
	if r.Rank == 0 {
		t = "Not ranked"
	}
	if r.Tied {
		t += " (tied)"
	}
	t += ": " + r.Label + ": " + plain(r.Estimate.Value)
	if r.Estimate.hasBar() {
		t += ", 95% interval [" + plain(r.Estimate.Lo) + ", " + plain(r.Estimate.Hi) + "]"
	}
	return t
}

// describe is the generated description.
func (p IntervalPlot) describe(unit string) string {
	lo, hi, shown, tied := -1, -1, 0, 0
	for i, r := range p.Rows {
		if r.Tied {
			tied++
		}
		if !r.Estimate.hasValue() {
			continue
		}
		shown++
		if lo < 0 || r.Estimate.Value < p.Rows[lo].Estimate.Value {
			lo = i
		}
		if hi < 0 || r.Estimate.Value > p.Rows[hi].Estimate.Value {
			hi = i
		}
	}
	runs := fmt.Sprintf("%d runs in rank order", len(p.Rows))
	if len(p.Rows) == 1 {
		runs = "1 run"
	}
	ties := fmt.Sprintf("%d share a rank with another run", tied)
	if shown == 0 {
		return runs + ", none with an estimate; " + ties + "."
	}
	est := func(i int) string {
		if p.Rows[i].Rank == 0 {
			return fmt.Sprintf("%s (%s, not ranked)", plain(p.Rows[i].Estimate.Value), p.Rows[i].Label)
		}
		return fmt.Sprintf("%s (%s, rank %d)", plain(p.Rows[i].Estimate.Value), p.Rows[i].Label, p.Rows[i].Rank)
	}
	if lo == hi {
		return fmt.Sprintf("%s; estimate %s, in %s; %s.", runs, est(lo), unit, ties)
	}
	return fmt.Sprintf("%s; estimates from %s to %s, in %s; %s.", runs, est(lo), est(hi), unit, ties)
}
