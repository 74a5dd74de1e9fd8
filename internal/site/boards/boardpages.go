package boards

import (
	"fmt"
	"slices"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// boardPages is the board of a variant and view in pages of rk.per
// places (pager.go): every page has the same tables, each sliced to the
// page's places, with the whole board's ranks; the first page alone has
// the charts (of the runs ranked highest), the explicit–implicit table and
// the runs not ranked.
func BoardPages(rk *stage.Ranked, variant run.Variant, v score.View) ([]*layout.Page, error) {
	whole, err := boardPage(rk, variant, v)
	if err != nil {
		return nil, err
	}
	d := whole.Body.(BoardData)
	var rows []int
	for _, t := range d.Tables {
		rows = append(rows, len(t.Rows))
	}
	per := rk.BoardPer(variant)
	n := per.Pages(rows...)
	if n == 1 {
		return []*layout.Page{whole}, nil
	}
	d.Index = paths.BoardIndexPath(variant)
	var pages []*layout.Page
	for k := 1; k <= n; k++ {
		dk := d
		dk.Pager = per.Pager(k, n, slices.Max(rows), func(j int) string { return paths.BoardPartPath(variant, v, j) })
		dk.Tables = nil
		for _, t := range d.Tables {
			lo, hi := per.Span(len(t.Rows), k)
			t.Slice, t.Elsewhere, t.Runs = per.Slice(len(t.Rows), k, n), lo == hi, show.Plural(len(t.Rows), "run")
			t.Rows = t.Rows[lo:hi]
			if t.Robust != nil {
				r := *t.Robust
				r.Rows = r.Rows[lo:hi]
				t.Robust = &r
			}
			if k > 1 {
				t.Chart, t.NarrowChart, t.Time, t.NarrowTime = "", "", "", ""
			}
			dk.Tables = append(dk.Tables, t)
		}
		if k > 1 {
			dk.VariantDiffs, dk.Unranked = nil, nil
		}
		title := whole.Title + fmt.Sprintf(", page %d of %d", k, n)
		pages = append(pages, &layout.Page{Path: paths.BoardPartPath(variant, v, k), Title: title, Section: layout.SecBoard, Body: dk})
	}
	return pages, nil
}
