package site

import (
	"fmt"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// The pairwise pages show, for each board and view, every two ranked runs'
// paired difference, the way LMArena shows its pairwise win rates: a runs ×
// runs table, readable without JavaScript.

type pairwiseData struct {
	Variant run.Variant
	View    score.View
	Board   string // the board page of the same variant and view
	Views   []tab
	Alpha   string
	Tables  []pairwiseTable
}

func (pairwiseData) kind() kind { return kindPairwise }

type pairwiseTable struct {
	Caption string
	Pairs   string // comparisons in the family Holm's procedure controls
	Cols    []pairwiseHead
	Rows    []pairwiseRow
}

type pairwiseHead struct {
	Label, Href string
}

type pairwiseRow struct {
	Label, Href, Value string
	StatRank           int
	Cells              []pairwiseCell
}

type pairwiseCell struct {
	Self                           bool
	Diff, CI, P, Mark, Class, Note string
	Verdict                        string
}

func pairwisePage(sc *scored, variant run.Variant, v score.View) *page {
	d := pairwiseData{Variant: variant, View: v, Board: boardPath(variant, v), Alpha: fixed(board.FamilyAlpha, 2)}
	for _, vv := range score.Views {
		d.Views = append(d.Views, tab{vv.Title(), pairwisePath(variant, vv), vv == v})
	}
	for _, bd := range sc.boards {
		if bd.Variant != variant || !bd.HasRanks() {
			continue
		}
		// The matrix is indexed in composite order; show it in this view's
		// rank order.
		pos := map[*board.Entry]int{}
		for i, e := range bd.Ranked[score.Composite] {
			pos[e] = i
		}
		order := bd.Ranked[v]
		n := len(order)
		t := pairwiseTable{Caption: methodTitle(bd.Method) + ", " + string(variant) + " prompts", Pairs: plural(n*(n-1)/2, "comparison")}
		for _, e := range order {
			t.Cols = append(t.Cols, pairwiseHead{e.Run.Manifest.Model.Name, runPath(e.ID())})
		}
		for _, e := range order {
			r := pairwiseRow{Label: e.Run.Manifest.Model.Name, Href: runPath(e.ID()), Value: board.Display(e.Result.Views[v].Estimate), StatRank: e.StatRank[v]}
			for _, o := range order {
				if o == e {
					r.Cells = append(r.Cells, pairwiseCell{Self: true})
					continue
				}
				p := bd.Pairs[v][pos[e]][pos[o]]
				c := pairwiseCell{Diff: signed(p.Estimate, 2), CI: interval(p.CI95, 2, true), P: pValue(p.Adjusted)}
				switch {
				case p.Beyond && p.Estimate < 0:
					c.Mark, c.Class = "▼", "better"
					c.Note = "lower beyond doubt"
				case p.Beyond:
					c.Mark, c.Class = "▲", "worse"
					c.Note = "higher beyond doubt"
				default:
					c.Class, c.Note = "same", "not distinguishable"
				}
				c.Verdict = c.Note
				c.Note = fmt.Sprintf("%s minus %s: %s", e.Run.Manifest.Model.Name, o.Run.Manifest.Model.Name, c.Note)
				r.Cells = append(r.Cells, c)
			}
			t.Rows = append(t.Rows, r)
		}
		d.Tables = append(d.Tables, t)
	}
	title := fmt.Sprintf("Pairwise comparisons: %s prompts, %s view", variant, strings.ToLower(v.Title()))
	return &page{Path: pairwisePath(variant, v), Title: title, Section: secBoard, Body: d}
}

// pValue formats a p-value to three decimals, small ones as "p < 0.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return "p = " + fixed(p, 3)
}

// methodTitle names a scoring method's runs.
func methodTitle(method run.Scoring) string {
	if method == run.Decision {
		return "Decision runs"
	}
	return "Log-probability runs"
}

// plural is "1 comparison", "3 comparisons".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}
