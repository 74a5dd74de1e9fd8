// Package chart draws the site's charts as inline SVG, on the server: a dot
// plot of one run's signed coefficients (DotPlot), an interval plot of a
// leaderboard view (IntervalPlot) and a board's scores against its models'
// release dates (TimePlot). The pages need no JavaScript and no chart
// library. It also holds the diverging colour scale of the site's grids and
// tables (Bucket).
//
// Every chart is a pure function of its input: the same input gives the same
// bytes. Coordinates are written by one function with two decimals, and
// every piece of text (labels, titles, model names, links) is XML-escaped
// here, so untrusted names are safe to pass in.
//
// Each chart's root element is
//
//	<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-KIND"
//	     viewBox="0 0 W H" width="100%" role="img"
//	     aria-labelledby="ID-title ID-desc" …>
//
// with <title id="ID-title"> and <desc id="ID-desc"> as its first children.
// The viewBox width is fixed per kind (DotWidth, IntervalWidth) and font
// sizes are 12 or 13 user units,
// which are CSS pixels when the chart is shown at that width.
//
// Axes, grid lines and text use currentColor, so they follow the page's
// text colour in dark mode and in print. The signed colours are set with
// the color presentation attribute on groups whose marks draw in
// currentColor, so one CSS color rule restyles a group (CSS overrides
// presentation attributes). The class names:
//
//	chart                   every chart; with chart-dots, chart-intervals,
//	                        and chart-nodata for an empty one
//	chart-pos               a dot plot row favouring the group: filled dot,
//	                        color #0550ae (the site's light --pos)
//	chart-neg               favouring the baseline group: hollow dot,
//	                        color #953800 (the site's light --neg)
//	chart-neutral           an estimate that displays as 0.00: hollow dot
//	chart-est               an interval plot's dot
//	chart-second            the dot plot's second series (diamonds)
//	chart-axis, chart-grid, chart-zeroline   axis and ticks, grid lines, zero
//	chart-band              the shading of every other row
//	chart-muted             secondary text (axis title, hints, n/a)
//	chart-legend            a legend
//	chart-tie               a tied rank ("=2")
//	chart-time              a TimePlot (chart-time-narrow: its phone
//	                        layout); chart-open and chart-closed its
//	                        dots (open weights filled, closed hollow),
//	                        chart-frontier its line of the lowest so far
//	chart-halo              the narrow dot plot's labels and values, with
//	                        a halo (stroke #fff) that keeps them legible
//	                        across the grid lines
//
// Suggested CSS (the site's custom properties):
//
//	.chart { display: block; width: 100%; height: auto; }
//	/* never wider than the viewBox; at least 11/12 of it, so text ≥ 11px */
//	.chart-dots { max-width: 640px; min-width: 587px; }
//	.chart-intervals, .chart-time { max-width: 720px; min-width: 660px; }
//	.chart-time-narrow { max-width: 360px; }
//	.chart-dots-narrow { max-width: 300px; }   /* fits a 320 px phone */
//	.chart-halo { stroke: var(--bg); }
//	.chart-pos { color: var(--pos); }
//	.chart-neg { color: var(--neg); }
//	@media print { .chart-dots, .chart-intervals { break-inside: avoid; } }
//
// with each chart inside an element that scrolls sideways on a narrow
// screen (the site's .table-wrap).
//
// Charts with no rows are drawn as a small "No data" chart (class
// chart-nodata) rather than returned as an error, so a page can always show
// something; invalid input (a bad id, an interval whose ends are reversed)
// is an error.
package chart

import (
	"encoding/xml"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The viewBox widths of the kinds of chart. Heights follow from the number
// of rows.
const (
	DotWidth = 640
	// DotNarrowWidth is DotPlot's narrow layout: small multiples that fit
	// a 320 px phone at full size.
	DotNarrowWidth = 300
	IntervalWidth  = 720
	NarrowWidth    = 360 // IntervalPlot's phone layout
)

// Interval is an estimate with its 95% interval. Value NaN (or infinite)
// means there is no estimate: the row is drawn as "n/a". Lo and Hi NaN (or
// infinite) mean the estimate has no interval: only the dot is drawn. Lo
// greater than Hi is an error. The estimate may lie outside its interval (a
// bootstrap percentile interval of a magnitude can exclude it).
type Interval struct {
	Value, Lo, Hi float64
}

// limit bounds the values a chart accepts: a larger one is a bug upstream,
// not a bias in logits.
const limit = 1e9

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// hasValue and hasBar say what of an interval is drawn.
func (iv Interval) hasValue() bool { return finite(iv.Value) }
func (iv Interval) hasBar() bool   { return iv.hasValue() && finite(iv.Lo) && finite(iv.Hi) }

func (iv Interval) check(label string) error {
	for _, v := range []float64{iv.Value, iv.Lo, iv.Hi} {
		if finite(v) && math.Abs(v) > limit {
			return fmt.Errorf("chart: %q: value %g out of range", label, v)
		}
	}
	if finite(iv.Lo) && finite(iv.Hi) && iv.Lo > iv.Hi {
		return fmt.Errorf("chart: %q: interval [%g, %g] has its ends reversed", label, iv.Lo, iv.Hi)
	}
	return nil
}

// coord formats every coordinate and length written into a chart: two
// decimals, and no negative zero.
func coord(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if s == "-0.00" {
		return "0.00"
	}
	return s
}

// signed formats a value for people, with two decimals, an explicit sign and
// a typographic minus ("+0.42", "−0.30", "0.00"), as the site's tables do.
func signed(v float64) string {
	s := plain(v)
	if s == "0.00" || s == "n/a" || strings.HasPrefix(s, "−") {
		return s
	}
	return "+" + s
}

// plain formats a value for people with two decimals and no plus sign.
func plain(v float64) string {
	if !finite(v) {
		return "n/a"
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if s == "-0.00" {
		return "0.00"
	}
	if s[0] == '-' {
		return "−" + s[1:]
	}
	return s
}

// sign is the sign of v as displayed with two decimals: -1, 0 or 1.
func sign(v float64) int {
	switch s := plain(v); {
	case s == "0.00":
		return 0
	case strings.HasPrefix(s, "−"):
		return -1
	}
	return 1
}

// esc XML-escapes text for element content and attribute values alike.
// Characters XML cannot hold (controls, invalid UTF-8) become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

// truncate shortens s to at most n characters, ending it with an ellipsis
// when it was cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// textWidth estimates the width of s in user units: SVG cannot measure
// text, so layouts leave room for an average character of 0.6 em.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * 0.6
}

// checkID accepts an id prefix: a letter, then letters, digits, '-' or '_'.
func checkID(id string) error {
	if id == "" {
		return fmt.Errorf("chart: empty id prefix")
	}
	for i, c := range id {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '_')) {
			return fmt.Errorf("chart: id prefix %q: want a letter, then letters, digits, '-' or '_'", id)
		}
	}
	return nil
}

// attr is one attribute: a number written with coord, or text escaped.
type attr struct {
	name, text string
	num        float64
	isNum      bool
}

func n(name string, v float64) attr { return attr{name: name, num: v, isNum: true} }
func s(name, v string) attr         { return attr{name: name, text: v} }

// svg writes a chart. The first non-finite coordinate is kept as an error:
// input checks should make that impossible.
type svg struct {
	b   strings.Builder
	err error
}

func (w *svg) attrs(as []attr) {
	for _, a := range as {
		w.b.WriteString(" " + a.name + `="`)
		if a.isNum {
			if !finite(a.num) && w.err == nil {
				w.err = fmt.Errorf("chart: internal error: non-finite %s", a.name)
			}
			w.b.WriteString(coord(a.num))
		} else {
			w.b.WriteString(esc(a.text))
		}
		w.b.WriteByte('"')
	}
}

// open starts an element, leaf writes an empty one, close ends one.
func (w *svg) open(tag string, as ...attr) {
	w.b.WriteString("<" + tag)
	w.attrs(as)
	w.b.WriteString(">")
}

func (w *svg) leaf(tag string, as ...attr) {
	w.b.WriteString("<" + tag)
	w.attrs(as)
	w.b.WriteString("/>")
}

func (w *svg) close(tag string) { w.b.WriteString("</" + tag + ">\n") }

// elem writes an element holding only text.
func (w *svg) elem(tag, text string, as ...attr) {
	w.open(tag, as...)
	w.b.WriteString(esc(text))
	w.b.WriteString("</" + tag + ">")
}

// text writes a <text> at (x, y) with the given anchor and class ("" for
// none).
func (w *svg) text(x, y float64, anchor, class, t string) {
	as := []attr{n("x", x), n("y", y)}
	if anchor != "start" {
		as = append(as, s("text-anchor", anchor))
	}
	if class != "" {
		as = append(as, s("class", class))
	}
	if strings.Contains(class, "chart-muted") {
		as = append(as, muted...)
	}
	w.elem("text", t, as...)
}

// label writes a text cut to at most max characters; a cut text carries
// the full one in a <title>.
func (w *svg) label(x, y float64, anchor, full string, max int) {
	cut := truncate(full, max)
	if cut == full {
		w.text(x, y, anchor, "", full)
		return
	}
	w.open("g")
	w.elem("title", full)
	w.text(x, y, anchor, "", cut)
	w.close("g")
}

func (w *svg) line(x1, y1, x2, y2 float64, as ...attr) {
	w.leaf("line", append([]attr{n("x1", x1), n("y1", y1), n("x2", x2), n("y2", y2)}, as...)...)
}

// points formats a polygon's points with coord.
func points(xy ...float64) string {
	parts := make([]string, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		parts = append(parts, coord(xy[i])+","+coord(xy[i+1]))
	}
	return strings.Join(parts, " ")
}

// header holds what every chart's root needs.
type header struct {
	kind, id, title, desc string
	height                float64
	width                 float64
}

// start writes the root element with its title and description.
func (w *svg) start(h header) {
	w.open("svg", s("xmlns", "http://www.w3.org/2000/svg"), s("class", "chart chart-"+h.kind),
		s("viewBox", coord(0)+" "+coord(0)+" "+coord(h.width)+" "+coord(h.height)), s("width", "100%"),
		s("role", "img"), s("aria-labelledby", h.id+"-title "+h.id+"-desc"),
		s("font-family", "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"),
		n("font-size", 13), s("fill", "currentColor"))
	w.b.WriteString("\n")
	w.elem("title", h.title, s("id", h.id+"-title"))
	w.b.WriteString("\n")
	w.elem("desc", h.desc, s("id", h.id+"-desc"))
	w.b.WriteString("\n")
}

// chart writes the root element and the body drawn before the height was
// known, and returns the chart.
func chart(h header, body *svg) (template.HTML, error) {
	if body.err != nil {
		return "", body.err
	}
	var w svg
	w.start(h)
	w.b.WriteString(body.b.String())
	return w.finish()
}

// finish closes the root and returns the chart.
func (w *svg) finish() (template.HTML, error) {
	w.close("svg")
	if w.err != nil {
		return "", w.err
	}
	return template.HTML(w.b.String()), nil // every text was escaped by esc
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// bands shades every other of rows rows of height rowH from top.
func (w *svg) bands(rows int, top, rowH, width float64) {
	for i := 1; i < rows; i += 2 {
		w.leaf("rect", s("class", "chart-band"), n("x", 12), n("y", top+rowH*float64(i)), n("width", width-24), n("height", rowH),
			s("fill", "currentColor"), s("fill-opacity", "0.05"))
	}
}

// caps draws the end marks of an interval bar from a to b at y.
func (w *svg) caps(a, b, y, half float64) {
	w.line(a, y-half, a, y+half, s("stroke", "currentColor"), n("stroke-width", 1.5))
	w.line(b, y-half, b, y+half, s("stroke", "currentColor"), n("stroke-width", 1.5))
}

// noData draws a chart that says there is nothing to draw.
func noData(kind, id, title string, width float64) (template.HTML, error) {
	var w svg
	w.start(header{kind: kind + " chart-nodata", id: id, title: title, desc: "No data to chart.", width: width, height: 40})
	w.text(width/2, 25, "middle", "chart-muted", "No data")
	return w.finish()
}

// Common styles, as presentation attributes that CSS can override.
var (
	// The site's --pos and --neg colours (light theme).
	posColour = "#0550ae"
	negColour = "#953800"
	muted     = []attr{s("fill-opacity", "0.8")}
)

// scale maps values in [lo, hi] to x in [x0, x1].
type scale struct{ lo, hi, x0, x1 float64 }

func (sc scale) x(v float64) float64 { return sc.x0 + (v-sc.lo)/(sc.hi-sc.lo)*(sc.x1-sc.x0) }

// ticks chooses round tick values (1, 2 or 5 times a power of ten apart)
// spanning lo and hi and zero, about target of them. The first tick is at or
// below min(lo, 0), the last at or above max(hi, 0), and zero is a tick.
func ticks(lo, hi float64, target int) (vals []float64, decimals int) {
	lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	if hi == lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(target)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	i0, i1 := math.Floor(lo/step), math.Ceil(hi/step)
	// Rounding can leave an end a hair inside the data: widen by a step.
	if i0*step > lo {
		i0--
	}
	if i1*step < hi {
		i1++
	}
	for i := i0; i <= i1; i++ {
		vals = append(vals, i*step)
	}
	decimals = max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
	return vals, decimals
}

// tickLabel formats a tick value; zero is "0".
func tickLabel(v float64, decimals int, withSign bool) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		return "0"
	}
	switch {
	case s[0] == '-':
		return "−" + s[1:]
	case withSign:
		return "+" + s
	}
	return s
}

// axis draws grid lines from top to bottom at every tick, the zero line,
// and the x axis with its labels below bottom; then, if given, the
// direction hints at the ends of the axis, and the axis title. It returns the y
// of the lowest text drawn.
func (w *svg) axis(sc scale, vals []float64, decimals int, withSign bool, top, bottom float64, title, left, right string) float64 {
	for _, v := range vals {
		x := sc.x(v)
		if v == 0 {
			continue
		}
		w.line(x, top, x, bottom, s("class", "chart-grid"), s("stroke", "currentColor"), s("stroke-opacity", "0.18"))
	}
	w.line(sc.x0, bottom, sc.x1, bottom, s("class", "chart-axis"), s("stroke", "currentColor"))
	for _, v := range vals {
		x := sc.x(v)
		w.line(x, bottom, x, bottom+5, s("class", "chart-axis"), s("stroke", "currentColor"))
		w.text(x, bottom+18, "middle", "", tickLabel(v, decimals, withSign))
	}
	x0 := sc.x(0)
	w.line(x0, top-4, x0, bottom, s("class", "chart-zeroline"), s("stroke", "currentColor"), n("stroke-width", 1.5))
	y := bottom + 36
	if left != "" || right != "" {
		// At the ends of the axis, where they cannot collide; on two
		// lines if they would not both fit on one.
		if left != "" {
			w.text(sc.x0, y, "start", "chart-muted", left)
			if right != "" && textWidth(left, 13)+textWidth(right, 13)+12 > sc.x1-sc.x0 {
				y += 18
			}
		}
		if right != "" {
			w.text(sc.x1, y, "end", "chart-muted", right)
		}
		y += 18
	}
	w.text((sc.x0+sc.x1)/2, y, "middle", "chart-muted", title)
	return y
}

// legendItem is one entry of a legend: a swatch drawn centred at (x, y)
// and a text.
type legendItem struct {
	swatch func(w *svg, x, y float64)
	text   string
}

// legend lays out items left to right from (x, y), wrapping before maxX,
// and returns the y of the last line.
func (w *svg) legend(items []legendItem, x, y, maxX float64) float64 {
	const size = 12
	w.open("g", s("class", "chart-legend"), n("font-size", size))
	cx := x
	for _, it := range items {
		wd := 20 + textWidth(it.text, size) + 12
		if cx > x && cx+wd > maxX {
			cx, y = x, y+18
		}
		it.swatch(w, cx+7, y-4)
		w.text(cx+18, y, "start", "", it.text)
		cx += wd
	}
	w.close("g")
	return y
}
