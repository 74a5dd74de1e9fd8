package layout

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/score"
)

// IsRanked says whether a run holds a rank on its board: the one test of
// every page that lists runs, which marks the others "not ranked"
// (partials.html's "notranked", linking the glossary's entry).
func IsRanked(e *board.Entry) bool { return e.Ranked && e.Rank[score.Composite] > 0 }

// LinkRun is a run's line in a list of runs, linking href.
func LinkRun(e *board.Entry, href string) RunLink {
	m := e.Run.Manifest
	return RunLink{ID: e.ID(), Model: m.Model.Name, Variant: string(m.Variant), Intervention: m.Intervention, Href: href, Ranked: IsRanked(e)}
}
