package browse

// Compare pages: every run of a variant on the same 135 prompts of one
// decision question, sc.per runs to a page (100 unless Config.PageRows says) so that no page
// grows with the board. A run is a row of what it says about the question
// (its own views and coefficients, its largest difference from the
// baseline), and each prompt a row of the spread of the runs' differences:
// a run's 135 differences are its scenario page's grid, which its row
// links, and were 0.19 MB a run when the compare pages repeated them as
// columns.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

type CompareData struct {
	Variant    run.Variant
	Q          int
	Title      string
	Label      string
	PromptHref string
	Cells      int // prompts per scenario
	// Heads and RaceCols head the spread's grid, as on a scenario page.
	Heads    []grid.GridHead
	RaceCols int
	// Groups are the log-probability runs and the sampled-answer runs,
	// each in its own unit and table.
	Groups []compareGroup
	// Parts are the pages of runs, when there is more than one, and
	// Range says which of the runs this page shows ("runs 101–200"). No
	// page shows how many runs there are in all, so that adding a run
	// changes only the page it lands on.
	Parts   []comparePart
	Range   string
	PerPage int
}

// comparePart links one page of a question's compare pages.
type comparePart struct {
	Label, Href string
	Current     bool
}

// A compare page shows as many runs as a page of any listing (sc.per,
// pager.go): at 100, a compare page stays near 50 KB, since a run adds a
// row of about 300 bytes (its own views and coefficients on the question,
// its largest difference) and the page's per-prompt spread is 135 rows.

// compareGroup is the runs of one scoring method, with its own unit and
// legend: a row per run, and a row per prompt with the spread of the
// runs' differences from the baseline.
type compareGroup struct {
	ID, Title, Unit    string
	LegendLo, LegendHi string
	// ViewNames and Names head the columns of the question's own views
	// and coefficients (the run's scenarios page's), when a run of the
	// group has them.
	ViewNames, Names []string
	Runs             []CompareRun
	// Spread is a row of the prompts' grid an age, in the scenario
	// pages' shape (a gender and race a column): the first grid of a
	// page gets its cells' ids from browse.js, for links to a variant
	// (#age-60-male-white).
	Spread []spreadRow
}

// CompareRun is one run's row: its heading (the model's name and
// intervention are the manifest's text) and its numbers on the question.
type CompareRun struct {
	ID, Model, Intervention, Href string
	Ranked                        bool
	// Views and Coefs are the run's own views and coefficients on the
	// question, when its group shows them: "–" for a view it has none
	// of, a coefficient without a Value for one it has none of.
	Views []string
	Coefs []grid.CoefCell
	// Largest is its largest difference from the baseline, nil when it
	// has none; Prompts how many of the prompts it answered.
	Largest *largestCell
	Prompts int
}

// largestCell is a run's largest difference: its text, colour class and
// size to sort by, and the prompt it is on.
type largestCell struct {
	Text, Class, Sort, Prompt string
}

// spreadRow is an age's row of the spread: a cell a gender and race.
type spreadRow struct {
	Age   int
	Cells []spreadCell
}

// spreadCell is a prompt's cell of the spread: over the page's runs of
// the group, the lowest and highest difference from the baseline (High
// empty when they agree) and how many runs favour either side; None when
// no run answered. It reads "−0.65 … +1.11" over "4 : 3".
type spreadCell struct {
	Low, High        string
	Person, Baseline int
	None             bool
}

// compareColumn is a run with an answer on the question.
type compareColumn struct {
	entry    *board.Entry
	deltas   *grid.KeptQuestion
	decision bool
	date     string // the run's run_date
}

// comparePages are a question's compare pages: its runs in the order
// they were run (run date, then id), sc.per to a page, each
// page's log-probability runs before its sampled-answer runs. In that
// order a newly added run is usually the last, so adding it leaves every
// full page as it was (what the build cache keeps, emitMemo).
func ComparePages(texts *layout.DatasetTexts, rs *stage.Runs, per layout.Paging, variant run.Variant, q int, runs []*board.Entry) []*layout.Page {
	var cols []compareColumn
	for _, e := range runs {
		kept := rs.Kept[e.ID()]
		if qs := kept.Deltas[q]; qs != nil {
			cols = append(cols, compareColumn{e, qs, kept.Decision, e.Run.Manifest.RunDate})
		}
	}
	// runs are by id, so the stable sort ends in a unique tiebreak.
	slices.SortStableFunc(cols, func(a, b compareColumn) int { return strings.Compare(a.date, b.date) })
	n := per.Pages(len(cols))
	var parts []comparePart
	if n > 1 {
		for k := range n {
			parts = append(parts, comparePart{Label: strconv.Itoa(k + 1), Href: paths.ComparePartPath(variant, q, k+1)})
		}
	}
	var pages []*layout.Page
	for k := range n {
		lo, hi := per.Span(len(cols), k+1)
		p := comparePage(texts, variant, q, cols[lo:hi], paths.ComparePartPath(variant, q, k+1))
		d := p.Body.(CompareData)
		d.PerPage = int(per)
		if parts != nil {
			d.Parts = append([]comparePart(nil), parts...)
			d.Parts[k].Current = true
			d.Range = fmt.Sprintf("runs %d–%d", lo+1, hi)
			p.Title += fmt.Sprintf(" (%s)", d.Range)
		}
		p.Body = d
		pages = append(pages, p)
	}
	return pages
}

// comparePage is one page of a question's runs (cols), at path.
func comparePage(texts *layout.DatasetTexts, variant run.Variant, q int, cols []compareColumn, path string) *layout.Page {
	d := CompareData{Variant: variant, Q: q, Title: texts.Title(variant, q), PromptHref: paths.PromptPath(variant, q), Cells: design.NumCells}
	if !texts.Placeholder(variant, q) {
		d.Label = layout.ScenarioLabel(d.Title) // a placeholder's title says it all
	}
	d.Heads, d.RaceCols = grid.GridHeads(), int(design.NumRaces)
	for _, isDec := range []bool{false, true} {
		g := compareGroup{ID: "logprob", Title: "Log-probability runs", Unit: vocab.Logits}
		if isDec {
			g = compareGroup{ID: "sampled", Title: "Sampled-answer runs", Unit: "pp of yes answers"}
		}
		g.LegendLo, g.LegendHi = grid.LegendEnds(isDec)
		var group []compareColumn
		for _, c := range cols {
			if c.decision == isDec {
				group = append(group, c)
			}
		}
		if len(group) == 0 {
			continue
		}
		own := false
		for _, c := range group {
			if _, ok := ownQuestion(c.entry.Result, q); ok {
				own = true
			}
		}
		if own {
			for _, v := range score.Views {
				g.ViewNames = append(g.ViewNames, v.Title())
			}
			for _, c := range design.Coefs {
				g.Names = append(g.Names, show.CoefDisplay(c))
			}
		}
		for _, c := range group {
			m := c.entry.Run.Manifest
			r := CompareRun{ID: c.entry.ID(), Model: m.Model.Name, Intervention: m.Intervention, Href: paths.ScenarioPath(c.entry.ID(), q), Ranked: layout.IsRanked(c.entry)}
			r.numbers(c, q, own)
			g.Runs = append(g.Runs, r)
		}
		g.Spread = compareSpread(group)
		d.Groups = append(d.Groups, g)
	}
	return &layout.Page{Path: path, Title: fmt.Sprintf("Question %d · all %s runs", q, variant), Section: layout.SecNone, Body: d}
}

// ownQuestion is a run's result on question q, when it has its own views
// and coefficients there (as on its scenarios page).
func ownQuestion(res *score.Result, q int) (*score.Question, bool) {
	if res == nil || !res.Scored {
		return nil, false
	}
	for i := range res.Questions {
		if res.Questions[i].ID == q {
			return &res.Questions[i], true
		}
	}
	return nil, false
}

// numbers sets the run's numbers on question q: its own views and
// coefficients (when own), its largest difference from the baseline with
// the prompt it is on, and how many of the prompts it answered.
func (r *CompareRun) numbers(c compareColumn, q int, own bool) {
	if own {
		qq, ok := ownQuestion(c.entry.Result, q)
		var views []grid.QviewCell
		if ok {
			views = grid.QuestionViewCells(qq)
		}
		for i := range score.Views {
			v := "–"
			if i < len(views) {
				v = views[i].Value
			}
			r.Views = append(r.Views, v)
		}
		for _, k := range design.Coefs {
			v := math.NaN()
			if ok {
				v = qq.Coefs[k] * show.CoefScale(c.entry.Result, k)
			}
			cell := grid.CoefCell{}
			if !math.IsNaN(v) {
				cell = grid.CoefCell{Value: show.Signed(v, 2), Class: grid.CoefClass(v)}
			}
			r.Coefs = append(r.Coefs, cell)
		}
	}
	// The largest difference by size, the first in design order of equals.
	at := -1
	for i, code := range c.deltas.Codes {
		if code <= 8 && (at < 0 || abs32(c.deltas.Digits(i)) > abs32(c.deltas.Digits(at))) {
			at = i
		}
	}
	if at >= 0 {
		cell := c.deltas.Cell(at, c.decision)
		mag := cell
		mag.Digits = abs32(cell.Digits)
		r.Largest = &largestCell{Text: cell.Text(), Class: cell.Class(), Sort: strings.TrimPrefix(mag.DigitText(), "+"), Prompt: design.Cells()[at].Label()}
	}
	r.Prompts = c.deltas.Present()
}

func abs32(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}

// compareSpread is a group's row per age of the prompts: over its runs,
// each prompt's lowest and highest difference from the baseline and how
// many runs favour the person described (a shown difference above zero)
// or the baseline.
func compareSpread(group []compareColumn) []spreadRow {
	var rows []spreadRow
	for i, cell := range design.Cells() {
		low, high := grid.DeltaCell{Code: grid.CellMissing}, grid.DeltaCell{Code: grid.CellMissing}
		var sc spreadCell
		for _, c := range group {
			dc := c.deltas.Cell(i, c.decision)
			if dc.Code > 8 {
				continue
			}
			if low.Code > 8 || dc.Digits < low.Digits {
				low = dc
			}
			if high.Code > 8 || dc.Digits > high.Digits {
				high = dc
			}
			switch {
			case dc.Digits > 0:
				sc.Person++
			case dc.Digits < 0:
				sc.Baseline++
			}
		}
		switch {
		case low.Code > 8:
			sc.None = true
		case low.Digits == high.Digits:
			sc.Low = low.Text()
		default:
			sc.Low, sc.High = low.Text(), high.Text()
		}
		if len(rows) == 0 || rows[len(rows)-1].Age != cell.Age {
			rows = append(rows, spreadRow{Age: cell.Age})
		}
		r := &rows[len(rows)-1]
		r.Cells = append(r.Cells, sc)
	}
	return rows
}
