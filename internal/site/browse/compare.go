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
	"html/template"
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
	Spread           compareRows
}

// compareRun is one run's row: its heading (through the template: the
// model's name and intervention are the manifest's text) and its cells,
// numbers written in Go.
type CompareRun struct {
	ID, Model, Intervention, Href string
	Ranked                        bool
	Cells                         template.HTML
}

// compareRow is a prompt's cell of the spread: over the page's runs of
// the group, the lowest and highest difference from the baseline and how
// many runs favour either side.
type compareRow struct {
	Cell             design.Cell
	Low, High        grid.DeltaCell
	Person, Baseline int
}

// compareRows are a group's 135 prompts, as a grid of the scenario
// pages' shape (an age a row, a gender and race a column): the first grid
// of a page gets its cells' ids from browse.js, for links to a variant
// (#age-60-male-white).
type compareRows struct {
	Rows []compareRow
}

// HTML writes the grid's rows in Go: the ages and numbers only, no input
// text, one template call for the table body. A cell reads "−0.65 …
// +1.11" over "4 : 3" (runs favouring the person : the baseline), one
// number when the runs agree, "—" when no run answered.
func (rs compareRows) HTML() template.HTML {
	var b strings.Builder
	for i, r := range rs.Rows {
		if i == 0 || r.Cell.Age != rs.Rows[i-1].Cell.Age {
			if i > 0 {
				b.WriteString("</tr>\n")
			}
			b.WriteString(`<tr><th scope="row">` + show.Itoa(r.Cell.Age) + `</th>`)
		}
		b.WriteString("<td>")
		switch {
		case r.Low.Code > 8:
			b.WriteString("—")
		case r.Low.Digits == r.High.Digits:
			b.WriteString(r.Low.Text())
		default:
			b.WriteString(r.Low.Text() + " … " + r.High.Text())
		}
		if r.Low.Code <= 8 {
			b.WriteString("\n" + show.Itoa(r.Person) + " : " + show.Itoa(r.Baseline))
		}
		b.WriteString("</td>")
	}
	b.WriteString("</tr>\n")
	return template.HTML(b.String())
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
func ComparePages(texts *layout.DatasetTexts, sc *stage.Scored, variant run.Variant, q int, runs []*board.Entry) []*layout.Page {
	var cols []compareColumn
	for _, e := range runs {
		kept := sc.Kept[e.ID()]
		if qs := kept.Deltas[q]; qs != nil {
			cols = append(cols, compareColumn{e, qs, kept.Decision, e.Run.Manifest.RunDate})
		}
	}
	// runs are by id, so the stable sort ends in a unique tiebreak.
	slices.SortStableFunc(cols, func(a, b compareColumn) int { return strings.Compare(a.date, b.date) })
	per := sc.Per
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
		g := compareGroup{ID: "logprob", Title: "Log-probability runs", Unit: "logit points"}
		if isDec {
			g = compareGroup{ID: "sampled", Title: "Sampled-answer runs", Unit: "percentage points of yes answers"}
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
			g.Runs = append(g.Runs, CompareRun{c.entry.ID(), m.Model.Name, m.Intervention, paths.ScenarioPath(c.entry.ID(), q), layout.IsRanked(c.entry), compareRunCells(c, q, own)})
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

// compareRunCells are a run's cells on the question, written in Go from
// numbers: its own views and coefficients (when own), its largest
// difference from the baseline with the prompt it is on, and how many of
// the prompts it answered.
func compareRunCells(c compareColumn, q int, own bool) template.HTML {
	var b strings.Builder
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
			b.WriteString("<td>" + v + "</td>")
		}
		for _, k := range design.Coefs {
			v := math.NaN()
			if ok {
				v = qq.Coefs[k] * show.CoefScale(c.entry.Result, k)
			}
			if math.IsNaN(v) {
				b.WriteString("<td>–</td>")
				continue
			}
			b.WriteString(`<td class="` + grid.CoefClass(v) + `">` + show.Signed(v, 2) + "</td>")
		}
	}
	// The largest difference by size, the first in design order of equals.
	at := -1
	for i, code := range c.deltas.Codes {
		if code <= 8 && (at < 0 || abs32(c.deltas.Digits(i)) > abs32(c.deltas.Digits(at))) {
			at = i
		}
	}
	if at < 0 {
		b.WriteString("<td>–</td>")
	} else {
		cell := c.deltas.Cell(at, c.decision)
		mag := cell
		mag.Digits = abs32(cell.Digits)
		b.WriteString(`<td class="` + cell.Class() + `" data-sort="` + strings.TrimPrefix(mag.DigitText(), "+") + `">` + cell.Text() + "<small>" + design.Cells()[at].Label() + "</small></td>")
	}
	b.WriteString(`<td>` + show.Itoa(c.deltas.Present()) + "</td>")
	return template.HTML(b.String())
}

func abs32(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}

// compareSpread is a group's row per prompt: over its runs, the lowest and
// highest difference from the baseline and how many runs favour the
// person described (a shown difference above zero) or the baseline.
func compareSpread(group []compareColumn) compareRows {
	var rs compareRows
	for i, cell := range design.Cells() {
		r := compareRow{Cell: cell, Low: grid.DeltaCell{Code: grid.CellMissing}, High: grid.DeltaCell{Code: grid.CellMissing}}
		for _, c := range group {
			dc := c.deltas.Cell(i, c.decision)
			if dc.Code > 8 {
				continue
			}
			if r.Low.Code > 8 || dc.Digits < r.Low.Digits {
				r.Low = dc
			}
			if r.High.Code > 8 || dc.Digits > r.High.Digits {
				r.High = dc
			}
			switch {
			case dc.Digits > 0:
				r.Person++
			case dc.Digits < 0:
				r.Baseline++
			}
		}
		rs.Rows = append(rs.Rows, r)
	}
	return rs
}
