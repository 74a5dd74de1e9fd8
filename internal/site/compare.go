package site

// Compare pages: every run of a variant on the same 135 prompts of one
// decision question, side by side, compareRunsPerPage runs to a page so
// that no page grows with the board.

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

type compareData struct {
	Variant    run.Variant
	Q          int
	Title      string
	Label      string
	PromptHref string
	Cells      int // prompts per scenario
	// Groups are the log-probability runs and the sampled-answer runs,
	// each on its own colour scale; Runs are all of them, in group order.
	Groups []compareGroup
	Runs   []compareRun
	Rows   compareRows
	// Parts are the pages of runs, when there is more than one, and
	// Range says which of the runs this page shows ("runs 41–80"). No
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

// compareRunsPerPage keeps a compare page near 100 KB: a run adds about
// 2.4 KB (135 cells and a heading).
const compareRunsPerPage = 40

// compareGroup is the runs of one scoring method: a column group with its
// own unit and legend.
type compareGroup struct {
	Title, Short, Unit string
	Runs               int
	LegendLo, LegendHi string
}

type compareRun struct {
	ID, Model, Intervention, Href, Group string
}

// compareRow is a variant's row: its cell of the design and a difference
// per run (no link in a cell: the column heading links to the run).
type compareRow struct {
	Cell  design.Cell
	Cells deltaRow
}

// compareRows are a page's 135 rows and the relative link to the prompt
// page, whose sections the row headings link to.
type compareRows struct {
	PromptRel string
	Rows      []compareRow
}

// HTML writes the rows in Go: a row's id, heading and link come from the
// design (anchors and labels such as "20, female, Black"), its cells are
// numbers (deltaRow) — no input text — so the table body is one template
// call, not four a row.
func (rs compareRows) HTML() template.HTML {
	var b strings.Builder
	for _, r := range rs.Rows {
		a := r.Cell.Anchor()
		b.WriteString(`<tr id="` + a + `"><th scope="row"><a href="` + rs.PromptRel + "#" + a + `">` + r.Cell.Label() + `</a></th>`)
		b.WriteString(string(r.Cells.HTML()))
		b.WriteString("</tr>\n")
	}
	return template.HTML(b.String())
}

// compareColumn is a run with an answer on the question.
type compareColumn struct {
	run      compareRun
	deltas   *keptQuestion
	decision bool
	date     string // the run's run_date
}

// comparePages are a question's compare pages: its runs in the order
// they were run (run date, then id), compareRunsPerPage to a page, each
// page's log-probability runs before its sampled-answer runs. In that
// order a newly added run is usually the last, so adding it leaves every
// full page as it was (what the build cache keeps, emitMemo).
func comparePages(texts *datasetTexts, sc *scored, variant run.Variant, q int, runs []*board.Entry) []*page {
	var cols []compareColumn
	for _, e := range runs {
		kept := sc.kept[e.ID()]
		if qs := kept.deltas[q]; qs != nil {
			cols = append(cols, compareColumn{compareRun{e.ID(), e.Run.Manifest.Model.Name, e.Run.Manifest.Intervention, scenarioPath(e.ID(), q), ""}, qs, kept.decision, e.Run.Manifest.RunDate})
		}
	}
	// runs are by id, so the stable sort ends in a unique tiebreak.
	slices.SortStableFunc(cols, func(a, b compareColumn) int { return strings.Compare(a.date, b.date) })
	n := max(1, (len(cols)+compareRunsPerPage-1)/compareRunsPerPage)
	var parts []comparePart
	if n > 1 {
		for k := range n {
			parts = append(parts, comparePart{Label: strconv.Itoa(k + 1), Href: comparePartPath(variant, q, k+1)})
		}
	}
	var pages []*page
	for k := range n {
		lo, hi := k*compareRunsPerPage, min(len(cols), (k+1)*compareRunsPerPage)
		part := make([]compareColumn, 0, hi-lo)
		for _, isDec := range []bool{false, true} {
			for _, c := range cols[lo:hi] {
				if c.decision == isDec {
					part = append(part, c)
				}
			}
		}
		p := comparePage(texts, variant, q, part)
		d := p.Body.(compareData)
		d.PerPage = compareRunsPerPage
		if parts != nil {
			d.Parts = append([]comparePart(nil), parts...)
			d.Parts[k].Current = true
			d.Range = fmt.Sprintf("runs %d–%d", lo+1, hi)
			p.Title += fmt.Sprintf(" (%s)", d.Range)
		}
		p.Path = comparePartPath(variant, q, k+1)
		d.Rows.PromptRel = relPath(p.Path, promptPath(variant, q))
		p.Body = d
		pages = append(pages, p)
	}
	return pages
}

// comparePage is one page of a question's runs (cols).
func comparePage(texts *datasetTexts, variant run.Variant, q int, cols []compareColumn) *page {
	d := compareData{Variant: variant, Q: q, Title: texts.title(variant, q), PromptHref: promptPath(variant, q), Cells: design.NumCells}
	d.Label = scenarioLabel(d.Title)
	for _, isDec := range []bool{false, true} {
		g := compareGroup{Title: "Log-probability runs", Short: "Δ logit", Unit: "logit points"}
		if isDec {
			g = compareGroup{Title: "Sampled-answer runs", Short: "Δ share of yes, pp", Unit: "percentage points of yes answers"}
		}
		g.LegendLo, g.LegendHi = legendEnds(isDec)
		for _, c := range cols {
			if c.decision == isDec {
				d.Runs = append(d.Runs, c.run)
				g.Runs++
			}
		}
		if g.Runs > 0 {
			d.Groups = append(d.Groups, g)
		}
	}
	for i, c := range design.Cells() {
		r := compareRow{Cell: c, Cells: make(deltaRow, len(cols))}
		for j, col := range cols {
			r.Cells[j] = col.deltas.cell(i, col.decision)
		}
		d.Rows.Rows = append(d.Rows.Rows, r)
	}
	return &page{Title: fmt.Sprintf("Question %d · all %s runs", q, variant), Section: secNone, Body: d}
}
