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

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

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
