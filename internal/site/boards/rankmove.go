package boards

// Rank change since the previous release: each ranked row of a board says
// how its model's run moved in the board's view since the release that
// site.yaml's previous: names ("↑3", "↓1", "same", "new"; the words are
// package vocab's). A model's run is known across releases by its model
// id, prompt variant and scoring method (its default-prompt run, the one
// a board ranks), as the run pages' history knows it, so a run made again
// under a new id keeps its place. A previous release that defined the
// views otherwise (its views_version) has ranks on another scale: the
// boards then show no move and say why, as the changes page lists none.

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/changes"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// PreviousRanksOf reads the ranks of the previous release f (inside the
// content folder named label).
func PreviousRanksOf(label string, f *content.ReleaseFile) (*stage.PreviousRanks, error) {
	s, err := changes.ReadRelease(f.Data, f.Parts)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %v", label, f.Path, err)
	}
	p := &stage.PreviousRanks{Release: s.Release.Label, Version: s.ViewsVersion, Comparable: s.ViewsVersion == sitedata.ViewsVersion,
		Ranks: map[stage.ModelRun][score.NumViews]int{}}
	for _, r := range s.Runs { // by id
		if r.Intervention != board.DefaultIntervention {
			continue
		}
		var ranks [score.NumViews]int
		for _, v := range score.Views {
			ranks[v] = r.Rank[v.Name()]
		}
		k := stage.ModelRun{ModelID: r.ModelID, Variant: r.Variant, Scoring: r.Scoring}
		if old, ok := p.Ranks[k]; !ok || old[score.Composite] == 0 {
			p.Ranks[k] = ranks // a ranked run over an unranked one of the model
		}
	}
	return p, nil
}

// moveOf is a ranked run's move in view v since the previous release;
// nil when there is none to show (no previous release, one on another
// scale, or a board without ranks).
func moveOf(p *stage.PreviousRanks, e *board.Entry, v score.View) *vocab.Move {
	if p == nil || !p.Comparable || e.Rank[v] == 0 {
		return nil
	}
	m := e.Run.Manifest
	then := p.Ranks[stage.ModelRun{ModelID: m.Model.ID, Variant: string(m.Variant), Scoring: string(m.Scoring)}][v]
	mv := vocab.RankMove(then, e.Rank[v], p.Release)
	return &mv
}

// MovesNote says why a board with a previous release shows no rank
// changes; "" when it shows them or has no previous release.
func MovesNote(p *stage.PreviousRanks) string {
	if p == nil || p.Comparable {
		return ""
	}
	return fmt.Sprintf("No rank changes since %s: it defined the views otherwise (version %d, now %d).", p.Release, p.Version, sitedata.ViewsVersion)
}
