package site

import (
	"fmt"
	"slices"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// boardPages is the board of a variant and view in pages of sc.per
// places (pager.go): every page has the same tables, each sliced to the
// page's places, with the whole board's ranks; the first page alone has
// the charts (of the runs ranked highest), the explicit–implicit table and
// the runs not ranked.
func boardPages(sc *scored, variant run.Variant, v score.View) ([]*page, error) {
	whole, err := boardPage(sc, variant, v)
	if err != nil {
		return nil, err
	}
	d := whole.Body.(boardData)
	var rows []int
	for _, t := range d.Tables {
		rows = append(rows, len(t.Rows))
	}
	per := sc.per
	n := per.pages(rows...)
	if n == 1 {
		return []*page{whole}, nil
	}
	var pages []*page
	for k := 1; k <= n; k++ {
		dk := d
		dk.Pager = per.pager(k, n, slices.Max(rows), func(j int) string { return boardPartPath(variant, v, j) })
		dk.Tables = nil
		for _, t := range d.Tables {
			lo, hi := per.span(len(t.Rows), k)
			t.Slice, t.Elsewhere, t.Runs = per.slice(len(t.Rows), k, n), lo == hi, plural(len(t.Rows), "run")
			t.Rows = t.Rows[lo:hi]
			if t.Robust != nil {
				r := *t.Robust
				r.Rows = r.Rows[lo:hi]
				t.Robust = &r
			}
			if k > 1 {
				t.Chart, t.NarrowChart = "", ""
			}
			dk.Tables = append(dk.Tables, t)
		}
		if k > 1 {
			dk.VariantDiffs, dk.Unranked = nil, nil
		}
		title := whole.Title + fmt.Sprintf(", page %d of %d", k, n)
		pages = append(pages, &page{Path: boardPartPath(variant, v, k), Title: title, Section: secBoard, Body: dk})
	}
	return pages, nil
}
