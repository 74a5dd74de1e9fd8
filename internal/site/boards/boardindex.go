package boards

// A board of more than one page reads as one: its pages load the variant's
// board index, data/boards/<variant>.js, a script assigning BOARD_INDEX
// (a page opened from file:// cannot fetch a data file), which lists
// every run of the variant's boards with what a board row shows of it and
// the page of each view that holds its row. board.js reads it to search,
// filter and sort the whole board from any of its pages, each match on
// another page listed with a link to its row there, and to take an anchor
// (index.html#<run-id>, a pairwise page's #<run-id>) to the page that
// holds the row. A board of one page has every row in its page and no
// index. The entry of a run is made from its boardRow (BoardRowFor), so
// that what the index says of a run is what its own row says.

import (
	"encoding/json"
	"slices"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// BoardIndex is a variant's boards, as data/boards/<variant>.js holds them.
type BoardIndex struct {
	// Run is the path of a run's page, "{id}" standing for its id.
	Run string `json:"run"`
	// Per is the places a page of a listing shows: a row at place i of a
	// view's order is on page i / Per + 1.
	Per int `json:"per"`
	// Views holds, in score.Views order, the pages of each view's board
	// and pairwise listing.
	Views []indexView `json:"views"`
	// Tables is the variant's board tables in page order (log-probability
	// runs, then decision runs), each run in composite rank order.
	Tables []indexTable `json:"tables"`
	// Alias maps an intervention run shown under its model's row to that
	// row's run.
	Alias map[string]string `json:"alias,omitempty"`
	// Unranked is the runs listed as not ranked, on each board's first
	// page.
	Unranked []string `json:"unranked,omitempty"`
}

// indexView is one view's listings: the path of each page of its board
// and of its pairwise page, from the site root. Pairwise is empty when no
// table of the view's pairwise page lists its runs one a row (a board of
// at most MatrixMax ranked runs shows them as a matrix).
type indexView struct {
	Name     string   `json:"name"`
	Board    []string `json:"board"`
	Pairwise []string `json:"pairwise,omitempty"`
}

// indexTable is one board table: its scoring method, whether its pairwise
// page lists every run one a row (a neighbours table), and its runs.
type indexTable struct {
	Method     run.Scoring `json:"method"`
	Neighbours bool        `json:"nb,omitempty"`
	Runs       []indexRun  `json:"runs"`
}

// indexRun is a run as a board row shows it: its id, model, model id, the
// data attributes of its row's tbody that the filters read (Attrs), its
// flags' texts, its model's size and release date, and in each view (score.Views order) its cell:
// [place, rank, tied, rank set, score, interval, sort key], where place
// (from 0) is its row's place in that view's order, so its page is
// place / per + 1, then, when the board shows rank changes since the
// previous release (rankmove.go), [mark, its sort key, its words].
type indexRun struct {
	ID      string            `json:"id"`
	Model   string            `json:"m"`
	ModelID string            `json:"mid"`
	Attrs   map[string]string `json:"a"`
	Flags   []string          `json:"f,omitempty"`
	Views   [][]any           `json:"v"`
	// Facts are the model's size and release date as its row shows
	// them, each with its sort key (show.ModelFacts).
	Facts [4]string `json:"s"`
}

// Attrs are the data attributes of a row's tbody that board.js's filters
// read, as the leaderboard template writes them: a value, or "" for an
// attribute that is present without one.
func (r boardRow) Attrs() map[string]string {
	a := map[string]string{"provider": r.Provider, "weights": r.Weights}
	if r.Params != "" {
		a["params"] = r.Params
	}
	if r.Synthetic {
		a["synthetic"] = ""
	}
	if r.Flagged {
		a["flagged"] = ""
	}
	return a
}

// BoardIndexFile is the path and bytes of a variant's board index, and
// whether it has one: only a board of more than one page needs it.
func BoardIndexFile(rk *stage.Ranked, variant run.Variant) (string, []byte, bool, error) {
	idx, ok := boardIndex(rk, variant)
	if !ok {
		return "", nil, false, nil
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return "", nil, false, err
	}
	// json.Marshal escapes <, > and &, and U+2028 and U+2029: no text in
	// it can end the script or a string.
	out := append([]byte("window.BOARD_INDEX="), data...)
	return paths.BoardIndexPath(variant), append(out, ";\n"...), true, nil
}

// boardPageCount is how many pages each view's board of a variant has
// (BoardPages: the longest table's rows in pages of rk.BoardPer), and how many
// its pairwise pages have (PairwisePages: the neighbours tables').
func boardPageCount(rk *stage.Ranked, variant run.Variant) (boards, pairwise int) {
	rows, nb := []int{0}, []int{0}
	for _, bd := range rk.Boards {
		if bd.Variant != variant {
			continue
		}
		n := len(bd.Ranked[score.Composite])
		rows = append(rows, n)
		if bd.HasRanks() && n > MatrixMax {
			nb = append(nb, n)
		}
	}
	per := rk.BoardPer(variant)
	return per.Pages(rows...), per.Pages(nb...)
}

func boardIndex(rk *stage.Ranked, variant run.Variant) (*BoardIndex, bool) {
	nBoard, nPairwise := boardPageCount(rk, variant)
	if nBoard == 1 {
		return nil, false
	}
	idx := &BoardIndex{Run: paths.RunPath("{id}"), Per: int(rk.BoardPer(variant)), Alias: map[string]string{}}
	for _, v := range score.Views {
		iv := indexView{Name: v.Name()}
		for k := 1; k <= nBoard; k++ {
			iv.Board = append(iv.Board, paths.BoardPartPath(variant, v, k))
		}
		if nPairwise > 1 {
			for k := 1; k <= nPairwise; k++ {
				iv.Pairwise = append(iv.Pairwise, paths.PairwisePartPath(variant, v, k))
			}
		}
		idx.Views = append(idx.Views, iv)
	}
	for _, bd := range rk.Boards {
		if bd.Variant != variant {
			continue
		}
		for _, e := range bd.Unranked {
			idx.Unranked = append(idx.Unranked, e.ID())
		}
		if len(bd.Ranked[score.Composite]) == 0 {
			continue
		}
		t := indexTable{Method: bd.Method, Neighbours: bd.HasRanks() && len(bd.Ranked[score.Composite]) > MatrixMax}
		for _, e := range bd.Ranked[score.Composite] {
			t.Runs = append(t.Runs, indexRunOf(rk, bd, e))
			for _, iv := range e.Interventions {
				idx.Alias[iv.Entry.ID()] = e.ID()
			}
		}
		idx.Tables = append(idx.Tables, t)
	}
	slices.Sort(idx.Unranked)
	return idx, true
}

func indexRunOf(rk *stage.Ranked, bd *board.Board, e *board.Entry) indexRun {
	place := rk.Places[e.ID()]
	r := BoardRowFor(e, score.Composite, bd.HasRanks(), rk.Adjusted)
	ir := indexRun{ID: r.ID, Model: r.Model, ModelID: r.ModelID, Attrs: r.Attrs(),
		Facts: [4]string{r.Facts.Size, r.Facts.SizeSort, r.Facts.Released, r.Facts.ReleasedSort}}
	for _, f := range r.Flags {
		ir.Flags = append(ir.Flags, f.Text)
	}
	cells := append([]scoreCell{r.Main}, r.Others...)
	for _, v := range score.Views {
		c := cells[slices.IndexFunc(cells, func(c scoreCell) bool { return c.View == v })]
		tied := 0
		if e.Tied[v] {
			tied = 1
		}
		cell := []any{place[v], e.Rank[v], tied, RankSetText(e.RankSet[v]), c.Value, c.CI, c.Sort}
		if mv := moveOf(rk.Previous, e, v); mv != nil {
			cell = append(cell, mv.Mark, mv.Sort, mv.Words)
		}
		ir.Views = append(ir.Views, cell)
	}
	return ir
}
