package site

// Rows of numbers written in Go. A table of 135 variants × 50 runs has
// 6,750 cells; through the template each costs two escaper calls made by
// reflection (class and text), which was a fifth of a build's time. A
// deltaRow holds only numbers and flags, so the HTML made from it contains
// nothing but our own digits and class names: no input text can reach it,
// and html/template still escapes everything around it.

import (
	"html/template"
	"math"
	"strings"
)

// deltaCell is one difference from the baseline as a number: its text and
// colour class are made from the value when the row is written.
type deltaCell struct {
	Value    float64
	State    cellState
	Decision bool // a sampled-answer run's share (percentage points), not logit points
}

type cellState uint8

const (
	cellValue   cellState = iota
	cellMissing           // no answer for this variant
	cellNoBase            // an answer, but none for the baseline to compare with
)

// deltaRow is a table row's cells of differences.
type deltaRow []deltaCell

// HTML writes the cells, as the template
// {{range .}}<td class="{{.Class}}">{{.Text}}</td>{{end}} would (up to
// the entities it writes for "+", which the minifier undoes).
func (r deltaRow) HTML() template.HTML {
	var b strings.Builder
	b.Grow(len(r) * 24)
	for _, c := range r {
		switch c.State {
		case cellMissing:
			b.WriteString(`<td class="missing">—</td>`)
		case cellNoBase:
			b.WriteString(`<td class="nobase">n/a</td>`)
		case cellValue:
			// Scores are finite (log-probabilities are floored), but a
			// row must not be able to write a class the scale has not.
			switch {
			case math.IsNaN(c.Value):
				b.WriteString(`<td class="nobase">n/a</td>`)
			case math.IsInf(c.Value, 1):
				b.WriteString(`<td class="b8">+∞</td>`)
			case math.IsInf(c.Value, -1):
				b.WriteString(`<td class="b0">−∞</td>`)
			default:
				b.WriteString(`<td class="`)
				b.WriteString(colourClass(c.Value, c.Decision))
				b.WriteString(`">`)
				b.WriteString(signed(c.Value, deltaDecimals(c.Decision)))
				b.WriteString(`</td>`)
			}
		}
	}
	return template.HTML(b.String())
}
