package site

// A scenario page: one run on one decision question — the 135-cell grid of
// P(yes) and differences from the baseline person. A run has 70 of them,
// so a cell holds only what a reader needs of its variant; a link to its
// transcript and a note (a prompt that differs, low answer mass, unparsed
// answers) appear only in the few cells they apply to. The raw numbers
// are in the run's per-prompt file, which the page links.

import (
	"math"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// Cut points of the colour scale: logit points for logprob runs (the
// charts' scale), percentage points of the share of yes answers for
// decision runs.
var (
	logitCuts = chart.LogitCuts[:]
	shareCuts = []float64{2, 10, 20, 30}
)

// bucket maps a deviation to one of nine colour classes, 0…8 with 4
// neutral, on the diverging scale defined in site.css.
func bucket(delta float64, decision bool) int {
	if decision {
		return chart.BucketCuts(delta, shareCuts)
	}
	return chart.Bucket(delta)
}

// colourClass is the CSS class of a deviation's colour.
func colourClass(delta float64, decision bool) string {
	return binClass(bucket(delta, decision))
}

// binClass is the CSS class of colour bin n: chart.Bucket's and
// chart.BucketCuts' bins 0–8 from a table made once (a grid asks for one
// a cell), and "b-1", a class no colour is given to, for the −1 they
// return for a value that is not finite.
func binClass(n int) string {
	if n >= 0 && n < len(binClasses) {
		return binClasses[n]
	}
	return "b" + strconv.Itoa(n)
}

var binClasses = [...]string{"b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"}

// legendEnds are the values at the two ends of the colour legend: the
// outermost cut points of the scale.
func legendEnds(decision bool) (lo, hi string) {
	cuts, d := logitCuts, 1
	if decision {
		cuts, d = shareCuts, 0
	}
	end := cuts[len(cuts)-1]
	return signedLegend(-end, d), signedLegend(end, d)
}

// colourLegend is the legend of the colour scale (the "legend" template):
// its two ends and whether the baseline's mark is shown.
type colourLegend struct {
	Lo, Hi string
	Base   bool
}

func newLegend(decision, base bool) colourLegend {
	lo, hi := legendEnds(decision)
	return colourLegend{lo, hi, base}
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
type gridCell struct {
	Present bool
	P       float64 // P(yes), or the share of yes answers
	Delta   deltaCell
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

type gridRow struct {
	Age   int
	Cells []gridCell
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
func (r gridRow) appendHTML(b []byte) []byte {
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
			cls = c.Delta.class()
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
			b = c.Delta.appendText(b)
		}
		if c.Transcript > 0 {
			// The transcript pages are in the scenario page's folder.
			b = append(b, "\n<a href="...)
			b = append(b, path.Base(transcriptPath("x", c.Q, c.Transcript))...)
			b = append(b, '#')
			b = append(b, c.Cell.Anchor()...)
			b = append(b, ">transcript</a>"...)
		}
		if c.Differs {
			b = append(b, "\n<small>prompt differs</small>"...)
		}
		if c.LowMass > 0 {
			b = append(b, "\n<small>mass "...)
			b = append(b, massText(c.LowMass)...)
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

type gridHead struct {
	Gender string
	Races  []string
}

// gridHeads are a grid's column headings: the genders, and the races
// under each; every grid's, made once (read only).
var gridHeads = sync.OnceValue(func() []gridHead {
	var heads []gridHead
	for _, g := range design.GendersInDatasetOrder {
		h := gridHead{Gender: g.String()}
		for _, r := range design.Races {
			h.Races = append(h.Races, r.String())
		}
		heads = append(heads, h)
	}
	return heads
})

type scenarioData struct {
	RunID, Model, Intervention         string
	Variant                            run.Variant
	Decision                           bool
	Q                                  int
	Title                              string
	PromptHref, CompareHref, IndexHref string
	RunHref                            string
	// ScoredHref and ScoredName are the run's per-prompt file, which has
	// the numbers the grid leaves out: a copy in the site or a link at
	// site.yaml's runs_url.
	ScoredHref, ScoredName string
	Unit                   string
	Heads                  []gridHead
	RaceCols               int // columns per gender in the grid
	Grid                   []gridRow
	Common                 string // the grid's most common colour class
	Stored                 int    // variants with a transcript
	// MinMass is the answer mass under which a cell is marked; AllLow says
	// every variant is under it (then one sentence says so, with LowRange,
	// and no cell is marked).
	MinMass, LowRange string
	AllLow            bool
	LowMarked         int // cells marked for low answer mass
	Unparsed          int // variants with sampled answers neither yes nor no
	Differs           int // variants whose prompt differs from the prompt page's
	NoBaseline        bool
	Coefs             []coefCell
	Prev, Next        string
	Legend            colourLegend
	// The transcript of every cell (cellview.go): the cells' numbers, the
	// scripts with the question's prompts and the run's prompt template,
	// and the template on the run's page.
	CellData                      cellsData
	PromptData, CellsJS, Template string
	TemplateHref                  string
}

type coefCell struct {
	Name, Value, Class string
}

func scenarioPage(texts *datasetTexts, infos promptInfos, e *board.Entry, q int, qs *score.QuestionCells, chunks map[design.Prompt]int, ids []int, pos int, runsURL string) *page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := scenarioData{
		RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		Q: q, Title: texts.title(m.Variant, q),
		PromptHref: promptPath(m.Variant, q), CompareHref: comparePath(m.Variant, q),
		IndexHref: scenariosPath(e.ID()), RunHref: runPath(e.ID()),
		ScoredHref: fileDownload(runsURL, e.Run.ScoredFS()), ScoredName: path.Base(m.Scored.Path),
		Unit: "logit points", RaceCols: int(design.NumRaces), MinMass: decimal(board.MinMass),
	}
	if decision {
		d.Unit = "percentage points of the share of yes answers"
	}
	d.Legend = newLegend(decision, true)
	d.CellData, d.PromptData, d.CellsJS, d.Template = newCellsData(m, q, qs, infos), promptDataPath(m.Variant, q), cellsJSPath, runTemplatePath(e.ID())
	if m.PromptTemplate != "" {
		d.TemplateHref = runPath(e.ID()) + "#prompt-template"
	}
	if pos > 0 {
		d.Prev = scenarioPath(e.ID(), ids[pos-1])
	}
	if pos+1 < len(ids) {
		d.Next = scenarioPath(e.ID(), ids[pos+1])
	}
	d.NoBaseline = !qs[design.Baseline.Index()].Present
	d.Heads = gridHeads()
	// Answer mass under the paper's minimum (for a run's mean) is marked
	// in its cell, unless every variant is under it.
	if !decision {
		d.AllLow, d.LowRange = allLowMass(qs)
	}
	hashes := texts.hashGrid(m.Variant, q)
	for i, c := range design.Cells() {
		s := qs[i]
		// A grid row per age (cells come in age order).
		if len(d.Grid) == 0 || d.Grid[len(d.Grid)-1].Age != c.Age {
			if d.Grid == nil {
				d.Grid = make([]gridRow, 0, len(design.Ages))
			}
			d.Grid = append(d.Grid, gridRow{Age: c.Age, Cells: make([]gridCell, 0, design.NumCells/len(design.Ages))})
		}
		row := &d.Grid[len(d.Grid)-1]
		gc := gridCell{Present: s.Present, P: s.P, Delta: newDeltaCell(score.Delta{Value: s.Delta, Present: s.Present, HasBase: s.HasBase}, decision),
			Base: c == design.Baseline, Q: q, Cell: c}
		if s.Present {
			k := design.Prompt{Q: q, Cell: c}
			if n, ok := chunks[k]; ok {
				gc.Transcript = n
				d.Stored++
			}
			mine, _ := infos.get(k)
			if hashes[i] != mine.hash {
				gc.Differs = true
				d.Differs++
			}
			if !decision && !d.AllLow && s.Cell.Mass < board.MinMass {
				gc.LowMass = s.Cell.Mass
				d.LowMarked++
			}
			if s.Cell.Other > 0 {
				gc.Unparsed = s.Cell.Other
				d.Unparsed++
			}
		}
		row.Cells = append(row.Cells, gc)
	}
	d.Common = gridCommon(d.Grid)
	d.Coefs = questionCoefs(e.Result, q)
	return &page{Path: scenarioPath(e.ID(), q), Title: scenarioTitle(m.Model.Name, m.Variant, q), Section: secNone, Body: d}
}

// allLowMass reports whether every present variant of a question has an
// answer mass under the paper's minimum, and their range in words.
func allLowMass(qs *score.QuestionCells) (bool, string) {
	low, present := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range qs {
		if s := qs[i]; s.Present {
			present++
			if s.Cell.Mass < board.MinMass {
				low++
				lo, hi = math.Min(lo, s.Cell.Mass), math.Max(hi, s.Cell.Mass)
			}
		}
	}
	if low == 0 || low != present {
		return false, ""
	}
	r := massText(lo)
	if massText(hi) != r {
		r += " to " + massText(hi)
	}
	return true, r
}

// questionCoefs are a run's coefficients on question q, as shown (a
// sampled-answer run has none per question): signed, not coloured (the
// scenarios page has them in colour; spans here were 140 bytes on each
// of 70 pages).
func questionCoefs(res *score.Result, q int) []coefCell {
	var out []coefCell
	for _, qq := range res.Questions {
		if qq.ID == q {
			for _, c := range design.Coefs {
				if v := qq.Coefs[c] * coefScale(res, c); !math.IsNaN(v) {
					out = append(out, coefCell{Name: coefDisplay(c), Value: signed(v, 2)})
				}
			}
		}
	}
	return out
}

// massText writes an answer mass cut (not rounded) to three decimals, so
// that a mass under 0.99 never reads as 0.990.
func massText(mass float64) string {
	return fixed(math.Floor(mass*1000)/1000, 3)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// deltaDecimals is the precision of a difference from the baseline: two
// decimals of logit points, one of percentage points.
func deltaDecimals(decision bool) int {
	if decision {
		return 1
	}
	return 2
}
