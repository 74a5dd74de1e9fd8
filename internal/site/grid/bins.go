package grid

import (
	"fmt"
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

// GridCell is one variant of the scenario grid, as numbers and flags;
// the template "grid-cell" (templates/scenario.html) shows its View, and
// the scenario pages' stencils write the same from the numbers
// (AppendValue): nothing in it comes from input text — digits, our class
// names, a design anchor and a file name made of numbers.
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

// CellView is a grid cell as the template "grid-cell" shows it, in text:
// each field a value, "" where the cell shows none. P(yes) and the
// difference go on two lines (a newline, shown as a break by CSS: a byte
// where <br> takes four, in 135 cells of 70 pages a run), then the
// transcript's link and the notes that apply.
type CellView struct {
	Class      string // the colour class, "" where it is the row's common
	ID         string // the variant's anchor, on a cell with a transcript
	P, Delta   string // P(yes), or the share of yes answers, and the difference
	Transcript string // the transcript's link, in the scenario page's folder
	Mass       string // the answer mass, when under board.MinMass
	Unparsed   string // how many sampled answers were neither yes nor no
	Present    bool   // else the cell shows "—"
	Base       bool   // the baseline person
	Differs    bool   // the run's prompt differs from the prompt page's
}

// Views are the row's cells as "grid-cell" shows them.
func (r GridRow) Views() []CellView {
	out := make([]CellView, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = c.View(r.Common)
	}
	return out
}

// The values of a cell's view, by their number in a stencil of
// "grid-cell" (the row's are RowClass and RowAge).
const (
	CellClass = 10 + iota
	CellID
	CellP
	CellDelta
	CellTranscript
	CellMass
	CellUnparsed
	RowClass
	RowAge
)

// View is the cell as "grid-cell" shows it in a row whose common class
// is common: its values in the text AppendValue writes. (What it shows is
// decided here on its own, not from Shape, so that TestGridStencils
// holds the stencils' shapes to it.)
func (c GridCell) View(common string) CellView {
	v := CellView{Class: c.class(common), Present: c.Present, Base: c.Base, Differs: c.Differs}
	value := func(n int) string { return string(c.AppendValue(nil, n, common)) }
	if c.Present {
		v.P, v.Delta = value(CellP), value(CellDelta)
	}
	if c.Transcript > 0 {
		v.ID, v.Transcript = c.Cell.Anchor(), value(CellTranscript)
	}
	if c.LowMass > 0 {
		v.Mass = show.MassText(c.LowMass)
	}
	if c.Unparsed > 0 {
		v.Unparsed = strconv.Itoa(c.Unparsed)
	}
	return v
}

// CellShape is which values a cell shows, a bit for each (1<<(n-CellClass)
// for value n), and its flags: what decides every branch of "grid-cell".
type CellShape uint16

const (
	shapePresent CellShape = 1 << (10 + iota)
	shapeBase
	shapeDiffers
)

// Shape is the cell's shape in a row whose common class is common.
func (c GridCell) Shape(common string) CellShape {
	var s CellShape
	set := func(n int, ok bool) {
		if ok {
			s |= 1 << (n - CellClass)
		}
	}
	set(CellClass, c.class(common) != "")
	set(CellID, c.Transcript > 0)
	set(CellP, c.Present)
	set(CellDelta, c.Present)
	set(CellTranscript, c.Transcript > 0)
	set(CellMass, c.LowMass > 0)
	set(CellUnparsed, c.Unparsed > 0)
	for _, f := range []struct {
		bit CellShape
		ok  bool
	}{{shapePresent, c.Present}, {shapeBase, c.Base}, {shapeDiffers, c.Differs}} {
		if f.ok {
			s |= f.bit
		}
	}
	return s
}

// Marks are what a stencil's probe holds for its value n, as text or as
// a number (render.Marks).
type Marks interface {
	Text(n int) string
	Int(n int) int
}

// Probe is the view of a cell of shape s with a mark for each value n
// it shows: what a stencil of "grid-cell" is made from.
func (s CellShape) Probe(m Marks) CellView {
	v := CellView{Present: s&shapePresent != 0, Base: s&shapeBase != 0, Differs: s&shapeDiffers != 0}
	for n, f := range []*string{&v.Class, &v.ID, &v.P, &v.Delta, &v.Transcript, &v.Mass, &v.Unparsed} {
		if s&(1<<n) != 0 {
			*f = m.Text(CellClass + n)
		}
	}
	return v
}

// class is the cell's colour class as its row shows it: none where it is
// the row's common class.
func (c GridCell) class(common string) string {
	cls := "missing"
	if c.Present {
		cls = c.Delta.Class()
	}
	if cls == common {
		return ""
	}
	return cls
}

// AppendValue appends the cell's value n (CellClass…CellUnparsed) in a
// row whose common class is common.
func (c GridCell) AppendValue(b []byte, n int, common string) []byte {
	switch n {
	case CellClass:
		return append(b, c.class(common)...)
	case CellID:
		return append(b, c.Cell.Anchor()...)
	case CellP:
		if c.Delta.Decision {
			// A share of answers, in the unit of its difference.
			return append(numfmt.AppendFixed(b, 100*c.P, 0), '%')
		}
		return numfmt.AppendFixed(b, c.P, 2)
	case CellDelta:
		return c.Delta.AppendText(b)
	case CellTranscript:
		// The transcript pages are in the scenario page's folder.
		b = append(b, path.Base(paths.TranscriptPath("x", c.Q, c.Transcript))...)
		return append(append(b, '#'), c.Cell.Anchor()...)
	case CellMass:
		return append(b, show.MassText(c.LowMass)...)
	case CellUnparsed:
		return strconv.AppendInt(b, int64(c.Unparsed), 10)
	}
	panic(fmt.Sprintf("grid cell: no value %d", n))
}

// RowShape says whether a row carries a class of its own ("grid-row").
func (r GridRow) RowShape() bool { return r.Class != "" }

// RowProbe is a row with a mark for each of its values (a class when
// class), and one cell: what a stencil of "grid-row" is made from.
func RowProbe(class bool, m Marks) GridRow {
	r := GridRow{Age: m.Int(RowAge), Cells: make([]GridCell, 1)}
	if class {
		r.Class = m.Text(RowClass)
	}
	return r
}

// AppendValue appends the row's value n (RowClass or RowAge).
func (r GridRow) AppendValue(b []byte, n int) []byte {
	switch n {
	case RowClass:
		return append(b, r.Class...)
	case RowAge:
		return strconv.AppendInt(b, int64(r.Age), 10)
	}
	panic(fmt.Sprintf("grid row: no value %d", n))
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
