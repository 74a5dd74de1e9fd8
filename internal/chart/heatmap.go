package chart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// PuOr is ColorBrewer's 9-class PuOr scale, orange (favours the baseline
// group) to purple (favours the named group): the fills of Bucket's classes
// 0…8, the same colours as the site's CSS classes .b0 … .b8.
var PuOr = [9]string{"#b35806", "#e08214", "#fdb863", "#fee0b6", "#f7f7f7", "#d8daeb", "#b2abd2", "#8073ac", "#542788"}

// inkOn is the text colour on each class: the site's CSS choices, each with
// a contrast of at least 4.5:1.
var inkOn = [9]string{"#fff", "#000", "#000", "#000", "#000", "#000", "#000", "#000", "#fff"}

// LogitCuts are Bucket's cut points in logit points; the site colours its
// HTML grids with the same scale (BucketCuts).
var LogitCuts = [...]float64{0.1, 0.5, 1, 1.5}

var cuts = LogitCuts

// Bucket is the colour class of a value in logit points: 4 when |v| < 0.1,
// then one class further from 4 for each of |v| ≥ 0.1, 0.5, 1 and 1.5,
// below 4 for a negative v: 0 is v ≤ −1.5, 8 is v ≥ 1.5. It is −1 for NaN
// or an infinite v.
func Bucket(v float64) int { return BucketCuts(v, cuts[:]) }

// BucketCuts is Bucket with other cut points (four, ascending), e.g. in
// percentage points.
func BucketCuts(v float64, cuts []float64) int {
	if !finite(v) {
		return -1
	}
	k := 0
	for _, c := range cuts {
		if math.Abs(v) >= c {
			k++
		}
	}
	if v < 0 {
		return 4 - k
	}
	return 4 + k
}

// Heatmap is a run's per-question values (rows, up to a hundred or so)
// against the attributes (columns), on the diverging PuOr scale with a
// legend. Each cell shows its value as text too, so the chart does not rely
// on colour; a value that is NaN (or infinite) is a hatched grey "n/a" cell.
// A row with an Href is one link, covering its label and its cells, whose
// accessible name lists the row's values; each cell has a <title> giving
// question, attribute and value.
type Heatmap struct {
	// ID prefixes the ids of the chart's elements; it must be unique in the
	// page: a letter, then letters, digits, '-' or '_'.
	ID string
	// Title is the chart's accessible name; "" gives
	// "Coefficients per question".
	Title string
	// Desc is a one-sentence description; "" generates one with the
	// counts, the extreme cells and how many are at |value| ≥ 0.5.
	Desc string
	// Columns label the columns ("Black vs white"); labels wrap at spaces
	// onto up to three lines.
	Columns []string
	Rows    []HeatRow
}

// HeatRow is one question of a Heatmap.
type HeatRow struct {
	Label string // "q11 Loan approval"; cut to 40 characters, the full text kept in a <title>
	// Href is where the row's cells link to, relative ("q11.html") or
	// http(s); "" for no link.
	Href   string
	Values []float64 // one per column, in logit points; NaN for none
}

// maxHeatLabel is the number of characters a row label is cut to: room for
// "q12" and a short scenario label.
const maxHeatLabel = 40

// SVG draws the heatmap.
func (h Heatmap) SVG() (template.HTML, error) {
	if err := checkID(h.ID); err != nil {
		return "", err
	}
	title := or(h.Title, "Coefficients per question")
	if len(h.Rows) == 0 || len(h.Columns) == 0 {
		return noData("heatmap", h.ID, title, HeatmapWidth)
	}
	const pad, rowH, size = 8, 20, 12
	labelW := 0.0
	links := false
	for _, r := range h.Rows {
		if len(r.Values) != len(h.Columns) {
			return "", fmt.Errorf("chart: row %q has %d values for %d columns", r.Label, len(r.Values), len(h.Columns))
		}
		if r.Href != "" {
			if err := checkHref(r.Href); err != nil {
				return "", err
			}
			links = true
		}
		labelW = math.Max(labelW, textWidth(truncate(r.Label, maxHeatLabel), size))
	}
	labelW = math.Min(math.Max(labelW+14, 44), 290)
	x0 := pad + labelW
	colW := (HeatmapWidth - pad - x0) / float64(len(h.Columns))
	desc := or(h.Desc, h.describe())

	// The legend: the nine classes as one bar with the cut points at
	// their boundaries, and an n/a swatch.
	var body svg
	body.open("defs")
	body.open("pattern", s("id", h.ID+"-na"), s("patternUnits", "userSpaceOnUse"), n("width", 6), n("height", 6), s("patternTransform", "rotate(45)"))
	body.leaf("rect", n("width", 6), n("height", 6), s("fill", "#e4e4e4"))
	body.line(0, 0, 0, 6, s("stroke", "#b4b4b4"), n("stroke-width", 2))
	body.close("pattern")
	// Every cell is this rect, placed and filled by a <use>: half the bytes
	// of a rect each, over a run's 490 cells.
	body.leaf("rect", s("id", h.ID+"-cell"), n("width", colW-2), n("height", rowH-2))
	body.close("defs")
	body.open("g", s("class", "chart-legend"), n("font-size", size))
	sw := math.Min(48, (HeatmapWidth-x0-pad-64)/9)
	for k, c := range PuOr {
		body.leaf("rect", s("class", fmt.Sprintf("chart-b%d", k)), n("x", x0+sw*float64(k)), n("y", 8), n("width", sw), n("height", 16), s("fill", c))
	}
	body.leaf("rect", n("x", x0), n("y", 8), n("width", sw*9), n("height", 16), s("fill", "none"), s("stroke", "currentColor"))
	for i := 1; i < 9; i++ { // the boundary between classes i-1 and i
		x := x0 + sw*float64(i)
		v := -cuts[max(4-i, 0)]
		if i > 4 {
			v = cuts[i-5]
		}
		body.line(x, 24, x, 28, s("stroke", "currentColor"))
		body.text(x, 40, "middle", "", tickLabel(v, -1, true))
	}
	naX := x0 + sw*9 + 16
	body.leaf("rect", s("class", "chart-na"), n("x", naX), n("y", 8), n("width", 48), n("height", 16), s("fill", "url(#"+h.ID+"-na)"), s("stroke", "currentColor"))
	body.elem("text", "n/a", n("x", naX+24), n("y", 20), s("text-anchor", "middle"), s("fill", "#333"))
	body.text(x0, 56, "start", "chart-muted", "← favours baseline (orange)")
	body.text(x0+sw*9, 56, "end", "chart-muted", "favours group (purple) →")
	body.close("g")

	// Column headers, wrapped.
	var heads [][]string
	lines := 1
	for _, c := range h.Columns {
		l := wrap(c, colW-6, size)
		heads = append(heads, l)
		lines = max(lines, len(l))
	}
	top := 76 + 14*float64(lines)
	for j, l := range heads {
		for i, line := range l {
			y := top - 6 - 14*float64(len(l)-1-i)
			body.text(x0+colW*(float64(j)+0.5), y, "middle", "", line)
		}
	}

	// Behind the cells, so that the gaps between them show as thin lines
	// and a near-white cell stands out from a white page.
	body.leaf("rect", n("x", x0), n("y", top), n("width", colW*float64(len(h.Columns))), n("height", rowH*float64(len(h.Rows))),
		s("fill", "currentColor"), s("fill-opacity", "0.25"))
	// The rows: text is centred at 12 units and black unless said
	// otherwise. A run has one heatmap of 70 or so rows, so cells are kept
	// lean: a row is one group moved into place, a cell a rect and a text,
	// and the row's link names every value (no title per cell).
	body.open("g", n("font-size", size), s("text-anchor", "middle"), s("fill", "#000"))
	for i, r := range h.Rows {
		y := top + rowH*float64(i)
		if r.Href != "" {
			// The link's name is its visible text (the label and the
			// values, WCAG's "label in name"); its title says which value
			// is which.
			body.open("a", s("href", r.Href))
			body.elem("title", h.rowName(r))
		} else {
			body.open("g")
		}
		body.open("g", s("transform", "translate(0 "+coord(y)+")"))
		body.leaf("rect", s("class", "chart-hit"), n("x", pad), n("y", 0), n("width", HeatmapWidth-2*pad), n("height", rowH), s("fill", "none"))
		// The label sits on the page, not on a cell: the page's colour.
		body.open("g", s("fill", "currentColor"))
		body.label(x0-8, 14.5, "end", r.Label, maxHeatLabel)
		body.close("g")
		for j, v := range r.Values {
			class, fill, ink, shown := "chart-cell chart-na", "url(#"+h.ID+"-na)", "#333", "n/a"
			if k := Bucket(v); k >= 0 {
				class, fill, ink, shown = fmt.Sprintf("chart-cell chart-b%d", k), PuOr[k], inkOn[k], signed(v)
			}
			x := x0 + colW*float64(j)
			body.leaf("use", s("href", "#"+h.ID+"-cell"), s("class", class), n("x", x+1), n("y", 1), s("fill", fill))
			if ink == "#000" {
				body.elem("text", shown, n("x", x+colW/2), n("y", 14.5))
			} else {
				body.elem("text", shown, n("x", x+colW/2), n("y", 14.5), s("fill", ink))
			}
		}
		body.close("g")
		if r.Href != "" {
			body.close("a")
		} else {
			body.close("g")
		}
	}
	body.close("g")
	role := "img"
	if links {
		role = "group"
	}
	return chart(header{kind: "heatmap", id: h.ID, title: title, desc: desc, role: role, width: HeatmapWidth, height: top + rowH*float64(len(h.Rows)) + pad}, &body)
}

// wrap breaks s at spaces into at most three lines that fit width; the
// third line takes the rest, and a line still too long is cut with an
// ellipsis. A single word is cut only when it would run into the next
// column: at 0.55 em a character, less cautious than textWidth, since a
// cut word is lost.
func wrap(s string, width, size float64) []string {
	var lines []string
	for _, word := range strings.Fields(s) {
		i := len(lines) - 1
		if i >= 0 && (textWidth(lines[i]+" "+word, size) <= width || len(lines) == 3) {
			lines[i] += " " + word
		} else {
			lines = append(lines, word)
		}
	}
	for i := range lines {
		lines[i] = truncate(lines[i], max(2, int((width+4)/(size*0.55))))
	}
	return lines
}

// rowName describes a row's link: its label and each value by column.
func (h Heatmap) rowName(r HeatRow) string {
	parts := make([]string, len(r.Values))
	for j, v := range r.Values {
		parts[j] = h.Columns[j] + " " + signed(v)
	}
	return r.Label + ": " + strings.Join(parts, ", ")
}

// describe is the generated description.
func (h Heatmap) describe() string {
	cells, na, big := 0, 0, 0
	var lo, hi [2]int // row, column of the extremes
	found := false
	for i, r := range h.Rows {
		for j, v := range r.Values {
			cells++
			if !finite(v) {
				na++
				continue
			}
			if math.Abs(v) >= 0.5 {
				big++
			}
			if !found || v < h.Rows[lo[0]].Values[lo[1]] {
				lo = [2]int{i, j}
			}
			if !found || v > h.Rows[hi[0]].Values[hi[1]] {
				hi = [2]int{i, j}
			}
			found = true
		}
	}
	head := fmt.Sprintf("%d questions × %d attributes", len(h.Rows), len(h.Columns))
	if !found {
		return head + ", every cell n/a."
	}
	cell := func(c [2]int) string {
		return fmt.Sprintf("%s (%s, %s)", signed(h.Rows[c[0]].Values[c[1]]), h.Rows[c[0]].Label, h.Columns[c[1]])
	}
	return fmt.Sprintf("%s in logit points, from %s to %s; %d of %d cells at |value| ≥ 0.5; %d n/a.", head, cell(lo), cell(hi), big, cells, na)
}
