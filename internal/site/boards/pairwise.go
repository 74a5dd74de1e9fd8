package boards

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// The pairwise pages show, for each board and view, the paired difference
// of ranked runs, the way LMArena shows its pairwise win rates: a runs ×
// runs table, readable without JavaScript. The table grows with the square
// of the runs, so a board of more than matrixMax ranked runs shows the
// matrix of its top matrixMax by the view, and for every ranked run its
// comparisons with the runs ranked just above and below it — what decides
// whether neighbouring ranks can be told apart — with how many runs it is
// beyond doubt better or worse than. The simultaneous intervals and rank
// sets are over all pairs of the board whatever is printed.

// matrixMax is the largest board shown as a full matrix.
const MatrixMax = 25

type PairwiseData struct {
	Variant run.Variant
	View    score.View
	Board   string // the board page of the same variant and view
	Views   []tab
	Alpha   string
	Tables  []pairwiseTable
	// Pager links the page's pages when a neighbours table has more than
	// rk.per runs (pager.go); only the first has the matrices.
	Pager *layout.Pager
	First string
	// Index is the variant's board index (boardindex.go), which takes an
	// anchor of a run's row to the page that holds it, when the
	// neighbours tables are in more than one page; else "".
	Index string
	// Pair is pair.html with the two runs of the variant ranked highest
	// in this view (or none): any two runs side by side.
	Pair string
}

type pairwiseTable struct {
	Caption string
	Pairs   string // comparisons in the family the simultaneous intervals cover
	// Runs is the board's ranked runs; Top, when set, says the matrix
	// shows only the first matrixMax of them, and Neighbours then lists
	// every run against the runs ranked next to it.
	Runs       string
	Top        string
	Cols       []pairwiseHead
	Rows       []pairwiseRow
	Neighbours []neighbourRow
	// Slice says which places of the neighbours table this page shows
	// when the page has more than one page (pager.go); Elsewhere, that the
	// table has no row on this page.
	Slice     string
	Elsewhere bool
}

type pairwiseHead struct {
	Label, Href string
}

type pairwiseRow struct {
	Label, Href, Value string
	Set                string // the simultaneous rank set
	Cells              []pairwiseCell
}

type pairwiseCell struct {
	Self                  bool
	Diff, CI, Mark, Class string
	Verdict               string
	// Row and Col are the two models' names, for the cell's note ("Row
	// minus Col: verdict"), each isolated from the words around it.
	Row, Col string
	// Pair is pair.html showing the two runs, row as A, from the board/
	// folder of the pairwise pages.
	Pair string
}

// neighbourRow is a ranked run against the runs ranked just above and
// below it in the view. Set is its simultaneous rank set; Ahead counts the
// runs of the whole board it is beyond doubt ahead of.
type neighbourRow struct {
	ID, Label, Href, Value string
	Rank                   int
	Tied                   bool
	Set                    string
	Ahead                  int
	Above, Below           *pairwiseCell
}

func pairwisePage(rk *stage.Ranked, variant run.Variant, v score.View) *layout.Page {
	d := PairwiseData{Variant: variant, View: v, Board: paths.BoardPath(variant, v), Alpha: show.Fixed(board.FamilyAlpha, 2)}
	for _, vv := range score.Views {
		d.Views = append(d.Views, tab{vv.Title(), paths.PairwisePath(variant, vv), vv == v})
	}
	for _, bd := range rk.Boards {
		if bd.Variant != variant || !bd.HasRanks() {
			continue
		}
		d.Tables = append(d.Tables, pairwiseTableOf(bd, v))
		if r := bd.Ranked[v]; d.Pair == "" {
			d.Pair = paths.PairAnchor(r[0].ID(), r[1].ID())
		}
	}
	d.First = paths.PairwisePath(variant, v)
	if d.Pair == "" {
		d.Pair = paths.PairPath
	}
	title := fmt.Sprintf("Pairwise comparisons: %s prompts, %s view", variant, strings.ToLower(v.Title()))
	return &layout.Page{Path: paths.PairwisePath(variant, v), Title: title, Section: layout.SecBoard, Body: d}
}

// pairwisePages is a pairwise page in pages of rk.BoardPer places of its
// neighbours tables (pager.go); the first page alone has the matrices.
func PairwisePages(rk *stage.Ranked, variant run.Variant, v score.View) []*layout.Page {
	whole := pairwisePage(rk, variant, v)
	d := whole.Body.(PairwiseData)
	rows := []int{0}
	for _, t := range d.Tables {
		rows = append(rows, len(t.Neighbours))
	}
	per := rk.BoardPer(variant)
	n := per.Pages(rows...)
	if n == 1 {
		return []*layout.Page{whole}
	}
	d.Index = paths.BoardIndexPath(variant)
	var pages []*layout.Page
	for k := 1; k <= n; k++ {
		dk := d
		dk.Pager = per.Pager(k, n, slices.Max(rows), func(j int) string { return paths.PairwisePartPath(variant, v, j) })
		dk.Tables = nil
		for _, t := range d.Tables {
			lo, hi := per.Span(len(t.Neighbours), k)
			t.Slice, t.Elsewhere = per.Slice(len(t.Neighbours), k, n), k > 1 && lo == hi
			t.Neighbours = t.Neighbours[lo:hi]
			if k > 1 {
				t.Cols, t.Rows = nil, nil
			}
			dk.Tables = append(dk.Tables, t)
		}
		title := whole.Title + fmt.Sprintf(", page %d of %d", k, n)
		pages = append(pages, &layout.Page{Path: paths.PairwisePartPath(variant, v, k), Title: title, Section: layout.SecBoard, Body: dk})
	}
	return pages
}

func pairwiseTableOf(bd *board.Board, v score.View) pairwiseTable {
	// The pairs are indexed in composite order; the page shows this view's
	// rank order.
	pos := map[*board.Entry]int{}
	for i, e := range bd.Ranked[score.Composite] {
		pos[e] = i
	}
	order := bd.Ranked[v]
	n := len(order)
	t := pairwiseTable{Caption: methodTitle(bd.Method) + ", " + string(bd.Variant) + " prompts", Pairs: vocab.Plural(n*(n-1)/2, "comparison"), Runs: vocab.Plural(n, "ranked run")}
	cell := func(e, o *board.Entry) *pairwiseCell {
		p := bd.Pair(v, pos[e], pos[o])
		c := &pairwiseCell{Diff: show.Signed(p.Estimate, 2), CI: show.Interval(p.CI95, 2, true)}
		_, c.Mark, c.Class, c.Verdict = pairwiseVerdict(p)
		c.Row, c.Col = e.Run.Manifest.Model.Name, o.Run.Manifest.Model.Name
		c.Pair = paths.RelPath(paths.PairwisePath(bd.Variant, v), paths.PairAnchor(e.ID(), o.ID()))
		return c
	}
	top := order
	if n > MatrixMax {
		top = order[:MatrixMax]
		t.Top = show.Itoa(MatrixMax)
	}
	for _, e := range top {
		t.Cols = append(t.Cols, pairwiseHead{e.Run.Manifest.Model.Name, paths.RunPath(e.ID())})
	}
	for _, e := range top {
		r := pairwiseRow{Label: e.Run.Manifest.Model.Name, Href: paths.RunPath(e.ID()), Value: board.Display(e.Result.Views[v].Estimate), Set: RankSetText(e.BoardSet[v])}
		for _, o := range top {
			if o == e {
				r.Cells = append(r.Cells, pairwiseCell{Self: true})
				continue
			}
			r.Cells = append(r.Cells, *cell(e, o))
		}
		t.Rows = append(t.Rows, r)
	}
	if t.Top == "" {
		return t
	}
	for i, e := range order {
		r := neighbourRow{ID: e.ID(), Label: e.Run.Manifest.Model.Name, Href: paths.RunPath(e.ID()), Value: board.Display(e.Result.Views[v].Estimate),
			Rank: e.Rank[v], Tied: e.Tied[v], Set: RankSetText(e.BoardSet[v]), Ahead: e.Ahead[v]}
		if i > 0 {
			r.Above = cell(e, order[i-1])
		}
		if i+1 < n {
			r.Below = cell(e, order[i+1])
		}
		t.Neighbours = append(t.Neighbours, r)
	}
	return t
}

// rankSetText is a rank set as shown: "1–4", or "3" when it is one rank;
// "" for none.
func RankSetText(s stats.RankSet) string {
	switch {
	case s.Lo == 0:
		return ""
	case s.Lo == s.Hi:
		return show.Itoa(s.Lo)
	}
	return show.Itoa(s.Lo) + "–" + show.Itoa(s.Hi)
}

// methodTitle names a scoring method's runs.
func methodTitle(method run.Scoring) string {
	if method == run.Decision {
		return "Decision runs"
	}
	return "Log-probability runs"
}

// pairwiseVerdict is a paired comparison's verdict on the pairwise
// pages: its code (PairVerdict, pairRun.Pairs), mark, class and words.
func pairwiseVerdict(p board.Pair) (code int, mark, class, words string) {
	switch {
	case p.Beyond && p.Estimate < 0:
		return 1, "▼", "better", vocab.LowerBeyondDoubt
	case p.Beyond:
		return 2, "▲", "worse", vocab.HigherBeyondDoubt
	}
	return 0, "", "same", vocab.NotDistinguishable
}
