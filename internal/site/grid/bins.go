package grid

import (
	"math"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// Cut points of the colour scale: logit points for logprob runs (the
// charts' scale), percentage points of the share of yes answers for
// decision runs.
var (
	LogitCuts = chart.LogitCuts[:]
	ShareCuts = []float64{2, 10, 20, 30}
)

// bucket maps a deviation to one of nine colour classes, 0…8 with 4
// neutral, on the diverging scale defined in site.css.
func bucket(delta float64, decision bool) int {
	if decision {
		return chart.BucketCuts(delta, ShareCuts)
	}
	return chart.Bucket(delta)
}

// colourClass is the CSS class of a deviation's colour.
func ColourClass(delta float64, decision bool) string {
	return BinClass(bucket(delta, decision))
}

// binClass is the CSS class of colour bin n: chart.Bucket's and
// chart.BucketCuts' bins 0–8 from a table made once (a grid asks for one
// a cell), and "b-1", a class no colour is given to, for the −1 they
// return for a value that is not finite.
func BinClass(n int) string {
	if n >= 0 && n < len(binClasses) {
		return binClasses[n]
	}
	return "b" + strconv.Itoa(n)
}

var binClasses = [...]string{"b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"}

// legendEnds are the values at the two ends of the colour legend: the
// outermost cut points of the scale.
func LegendEnds(decision bool) (lo, hi string) {
	cuts, d := LogitCuts, 1
	if decision {
		cuts, d = ShareCuts, 0
	}
	end := cuts[len(cuts)-1]
	return signedLegend(-end, d), signedLegend(end, d)
}

// colourLegend is the legend of the colour scale (the "legend" template):
// its two ends and whether the baseline's mark is shown.
type ColourLegend struct {
	Lo, Hi string
	Base   bool
}

func NewLegend(decision, base bool) ColourLegend {
	lo, hi := LegendEnds(decision)
	return ColourLegend{lo, hi, base}
}

func signedLegend(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	if v > 0 {
		return "+" + s
	}
	return "−" + strings.TrimPrefix(s, "-")
}

// gridCell is one variant of the scenario grid, as numbers and flags: the
// grid is written in Go (gridRow.appendHTML), and nothing in it comes from
// input text — digits, our class names, a design anchor and a file name
// made of numbers.
type GridCell struct {
	Present bool
	P       float64 // P(yes), or the share of yes answers
	Delta   DeltaCell
	Base    bool // the baseline person
	// Transcript is the part (from 1) of the question's transcript pages
	// holding this variant, 0 when it has none; such a cell carries its
	// variant's anchor as its id, for the transcript's "numbers" link. Ids
	// on every cell would cost 4 KB a page: browse.js gives the others
	// theirs.
	Transcript int
	Q          int
	Cell       design.Cell
	Differs    bool    // the run's prompt differs from the prompt page's
	LowMass    float64 // answer mass to mark, under board.MinMass; 0 for none
	Unparsed   int     // sampled answers neither yes nor no
}

type GridRow struct {
	Age   int
	Cells []GridCell
	// Common is the colour class the row's cells leave out (9 bytes a
	// cell, gridCommon): the grid's most common, which the table carries
	// as "d<N>", or the row's own, carried as Class "r<N>" where it saves
	// more than that class costs.
	Common, Class string
}

// appendHTML writes the row, minified (the end tags of rows and cells
// left out, attribute values without quotes where they need none): its
// age, then each cell's difference colour class (" base" on the
// baseline), P(yes) and the difference on two lines (a newline, shown as
// a break by CSS: a byte where <br> takes four, in 135 cells of 70 pages a
// run), then a transcript link and notes where they apply.
func (r GridRow) AppendHTML(b []byte) []byte {
	b = append(b, "<tr"...)
	if r.Class != "" {
		b = append(b, " class="...)
		b = append(b, r.Class...)
	}
	b = append(b, "><th scope=row>"...)
	b = strconv.AppendInt(b, int64(r.Age), 10)
	for _, c := range r.Cells {
		cls := "missing"
		if c.Present {
			cls = c.Delta.Class()
		}
		if cls == r.Common {
			cls = ""
		}
		b = append(b, "<td"...)
		switch {
		case c.Base && cls != "":
			b = append(b, ` class="`...)
			b = append(b, cls...)
			b = append(b, ` base"`...)
		case c.Base:
			b = append(b, " class=base"...)
		case cls != "":
			b = append(b, " class="...)
			b = append(b, cls...)
		}
		if c.Transcript > 0 {
			b = append(b, " id="...)
			b = append(b, c.Cell.Anchor()...)
		}
		b = append(b, '>')
		if !c.Present {
			b = append(b, "—"...)
		} else {
			if c.Delta.Decision {
				// A share of answers, in the unit of its difference.
				b = numfmt.AppendFixed(b, 100*c.P, 0)
				b = append(b, '%')
			} else {
				b = numfmt.AppendFixed(b, c.P, 2)
			}
			b = append(b, '\n')
			b = c.Delta.AppendText(b)
		}
		if c.Transcript > 0 {
			// The transcript pages are in the scenario page's folder.
			b = append(b, "\n<a href="...)
			b = append(b, path.Base(paths.TranscriptPath("x", c.Q, c.Transcript))...)
			b = append(b, '#')
			b = append(b, c.Cell.Anchor()...)
			b = append(b, ">transcript</a>"...)
		}
		if c.Differs {
			b = append(b, "\n<small>prompt differs</small>"...)
		}
		if c.LowMass > 0 {
			b = append(b, "\n<small>mass "...)
			b = append(b, show.MassText(c.LowMass)...)
			b = append(b, "</small>"...)
		}
		if c.Unparsed > 0 {
			b = append(b, "\n<small>"...)
			b = strconv.AppendInt(b, int64(c.Unparsed), 10)
			b = append(b, " unparsed</small>"...)
		}
	}
	return b
}

type GridHead struct {
	Gender string
	Races  []string
}

// gridHeads are a grid's column headings: the genders, and the races
// under each; every grid's, made once (read only).
var GridHeads = sync.OnceValue(func() []GridHead {
	var heads []GridHead
	for _, g := range design.GendersInDatasetOrder {
		h := GridHead{Gender: g.String()}
		for _, r := range design.Races {
			h.Races = append(h.Races, r.String())
		}
		heads = append(heads, h)
	}
	return heads
})

type CoefCell struct {
	Name, Value, Class string
}

// coefClass is the colour class of a question's coefficient, in logit
// points; none for a missing one.
func CoefClass(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return ColourClass(v, false)
}
