package scenarios

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
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

type ScenarioData struct {
	RunID, Model, Intervention         string
	Variant                            run.Variant
	Decision                           bool
	Q                                  int
	Title                              string
	PromptHref, CompareHref, IndexHref string
	RunHref                            string
	// ScoredName is the run's per-prompt file, which has the numbers the
	// grid leaves out, and FilesHref the run page's list of its files:
	// where they are (copied or linked, which the pages that span runs
	// decide) and their SHA-256.
	ScoredName, FilesHref string
	// Unit is the unit of the grid's differences, UnitTerm its glossary
	// entry and UnitOf what it is of ("" or " of the share of yes
	// answers").
	Unit, UnitTerm, UnitOf string
	Heads                  []grid.GridHead
	RaceCols               int // columns per gender in the grid
	Grid                   []grid.GridRow
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
	Coefs             []grid.CoefCell
	Prev, Next        string
	Legend            grid.ColourLegend
	// The transcript of every cell (cellview.go): the cells' numbers, the
	// scripts with the question's prompts and the run's prompt template,
	// the page's own script after them (CellsJS: cells.js, with cue.js
	// and browse.js, in one file, paths.ScenarioJSPath), and the template
	// on the run's page.
	CellData                      grid.CellsData
	PromptData, CellsJS, Template string
	TemplateHref                  string
}

func ScenarioPage(texts *layout.DatasetTexts, infos layout.PromptInfos, e *board.Entry, q int, qs *score.QuestionCells, chunks map[design.Prompt]int, ids []int, pos int) *layout.Page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := ScenarioData{
		RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		Q: q, Title: texts.Title(m.Variant, q),
		PromptHref: paths.PromptPath(m.Variant, q), CompareHref: paths.ComparePath(m.Variant, q),
		IndexHref: paths.ScenariosPath(e.ID()), RunHref: paths.RunPath(e.ID()),
		ScoredName: path.Base(m.Scored.Path), FilesHref: paths.RunFilesPath(e.ID()),
		Unit: vocab.Logits, UnitTerm: "logit", RaceCols: int(design.NumRaces), MinMass: show.Decimal(board.MinMass),
	}
	if decision {
		d.Unit, d.UnitTerm, d.UnitOf = vocab.PP, "pp", " of the share of yes answers"
	}
	d.Legend = grid.NewLegend(decision, true)
	d.CellData, d.PromptData, d.CellsJS, d.Template = grid.NewCellsData(m, q, qs, infos), grid.PromptDataPath(m.Variant, q), paths.ScenarioJSPath, grid.RunTemplatePath(e.ID())
	if m.PromptTemplate != "" {
		d.TemplateHref = paths.RunPath(e.ID()) + "#prompt-template"
	}
	if pos > 0 {
		d.Prev = paths.ScenarioPath(e.ID(), ids[pos-1])
	}
	if pos+1 < len(ids) {
		d.Next = paths.ScenarioPath(e.ID(), ids[pos+1])
	}
	d.NoBaseline = !qs[design.Baseline.Index()].Present
	d.Heads = grid.GridHeads()
	// Answer mass under the paper's minimum (for a run's mean) is marked
	// in its cell, unless every variant is under it.
	if !decision {
		d.AllLow, d.LowRange = allLowMass(qs)
	}
	hashes := texts.HashGrid(m.Variant, q)
	for i, c := range design.Cells() {
		s := qs[i]
		// A grid row per age (cells come in age order).
		if len(d.Grid) == 0 || d.Grid[len(d.Grid)-1].Age != c.Age {
			if d.Grid == nil {
				d.Grid = make([]grid.GridRow, 0, len(design.Ages))
			}
			d.Grid = append(d.Grid, grid.GridRow{Age: c.Age, Cells: make([]grid.GridCell, 0, design.NumCells/len(design.Ages))})
		}
		row := &d.Grid[len(d.Grid)-1]
		gc := grid.GridCell{Present: s.Present, P: s.P, Delta: grid.NewDeltaCell(score.Delta{Value: s.Delta, Present: s.Present, HasBase: s.HasBase}, decision),
			Base: c == design.Baseline, Q: q, Cell: c}
		if s.Present {
			k := design.Prompt{Q: q, Cell: c}
			if n, ok := chunks[k]; ok {
				gc.Transcript = n
				d.Stored++
			}
			mine, _ := infos.Get(k)
			if hashes[i] != mine.Hash {
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
	d.Common = grid.GridCommon(d.Grid)
	d.Coefs = questionCoefs(e.Result, q)
	return &layout.Page{Path: paths.ScenarioPath(e.ID(), q), Title: scenarioTitle(m.Model.Name, m.Variant, q), Section: layout.SecNone, Body: d}
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
	r := show.MassText(lo)
	if show.MassText(hi) != r {
		r += " to " + show.MassText(hi)
	}
	return true, r
}

// questionCoefs are a run's coefficients on question q, as shown (a
// sampled-answer run has none per question): signed, not coloured (the
// scenarios page has them in colour; spans here were 140 bytes on each
// of 70 pages).
func questionCoefs(res *score.Result, q int) []grid.CoefCell {
	var out []grid.CoefCell
	for _, qq := range res.Questions {
		if qq.ID == q {
			for _, c := range design.Coefs {
				if v := qq.Coefs[c] * show.CoefScale(res, c); !math.IsNaN(v) {
					out = append(out, grid.CoefCell{Name: show.CoefDisplay(c), Value: show.Signed(v, 2)})
				}
			}
		}
	}
	return out
}
