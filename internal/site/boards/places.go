package boards

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// rowPlaces maps every ranked run to its place (from 0) in each view's
// order of its board; an intervention run to its parent's, whose row
// lists it.
func RowPlaces(boards []*board.Board) map[string][score.NumViews]int {
	m := map[string][score.NumViews]int{}
	for _, bd := range boards {
		for _, v := range score.Views {
			for i, e := range bd.Ranked[v] {
				p := m[e.ID()]
				p[v] = i
				m[e.ID()] = p
				for _, iv := range e.Interventions {
					q := m[iv.Entry.ID()]
					q[v] = i
					m[iv.Entry.ID()] = q
				}
			}
		}
	}
	return m
}

// boardRowPath is the page of the board of a variant and view that
// holds run e's row (its own or, for an intervention run, its parent's),
// with the row's anchor; the board's first page when it has no row there.
func BoardRowPath(rk *stage.Ranked, e *board.Entry, v score.View) string {
	place, ok := rk.Places[e.ID()]
	if !ok {
		return paths.BoardPath(e.Run.Manifest.Variant, v)
	}
	holder := e
	if e.Parent != nil {
		holder = e.Parent
	}
	return paths.Anchored(paths.BoardPartPath(e.Run.Manifest.Variant, v, place[v]/int(rk.BoardPer(e.Run.Manifest.Variant))+1), holder.ID())
}

// boardPageOf is boardRowPath without the anchor on the board's first
// page, as a run page links its boards: the first page's top shows the
// row, and a run page's bytes count (a run's pages and data have a 0.715 MB
// budget, TestBuildsCommittedSite).
func BoardPageOf(rk *stage.Ranked, e *board.Entry, v score.View) string {
	if place, ok := rk.Places[e.ID()]; !ok || place[v] < int(rk.BoardPer(e.Run.Manifest.Variant)) {
		return paths.BoardPath(e.Run.Manifest.Variant, v)
	}
	return BoardRowPath(rk, e, v)
}
