package runpage

import (
	"fmt"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/changes"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// A model's history across releases, on its run page: its composite score
// and rank in every earlier release kept in content/releases (each that
// release's data/leaderboard.json, read as internal/changes reads the
// previous one) and in this one. A model's run is known across releases by
// its model id, prompt variant, intervention and scoring method, so a run
// made again under a new id keeps its history.

// historyKey names a model's run across releases.
type HistoryKey struct {
	ModelID, Variant, Intervention, Scoring string
}

// historyPoint is one release's numbers of a run.
type historyPoint struct {
	Release, Date, RunID string
	Scored               bool
	Composite, CI        string
	Rank                 int
	// Comparable is false when the release defined the views otherwise
	// (its views_version): its scores are not on this release's scale.
	Comparable bool
	Version    int
	Current    bool
}

// History holds every earlier release's points, by model run, in release
// date order.
type History map[HistoryKey][]historyPoint

// readHistory reads content/releases.
func ReadHistory(label string, files []content.ReleaseFile) (History, error) {
	h := History{}
	for _, f := range files {
		s, err := changes.ReadRelease(f.Data, f.Parts)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %v", label, f.Path, err)
		}
		for _, r := range s.Runs {
			k := HistoryKey{r.ModelID, r.Variant, r.Intervention, r.Scoring}
			p := historyPoint{Release: s.Release.Label, Date: s.Release.Date, RunID: r.ID, Scored: r.Scored, Version: s.ViewsVersion,
				Comparable: s.ViewsVersion == sitedata.ViewsVersion, Rank: r.Rank["composite"]}
			if e, ok := r.Views["composite"]; ok && r.Scored {
				p.Composite = board.Display(float64(e.Estimate))
				if e.CI95 != nil {
					p.CI = show.Interval([2]float64{float64(e.CI95[0]), float64(e.CI95[1])}, 2, false)
				}
			}
			h[k] = append(h[k], p)
		}
	}
	for k := range h {
		ps := h[k]
		sort.SliceStable(ps, func(i, j int) bool {
			if ps[i].Date != ps[j].Date {
				return ps[i].Date < ps[j].Date
			}
			if ps[i].Release != ps[j].Release {
				return ps[i].Release < ps[j].Release
			}
			return ps[i].RunID < ps[j].RunID
		})
	}
	return h, nil
}

// of is the history of a run of this release: the earlier releases'
// points, then this release's; nil when no earlier release has the run.
func (h History) Of(e *board.Entry, release content.Release) []historyPoint {
	m := e.Run.Manifest
	past := h[HistoryKey{m.Model.ID, string(m.Variant), m.Intervention, string(m.Scoring)}]
	if len(past) == 0 {
		return nil
	}
	now := historyPoint{Release: release.Label, Date: release.Date, RunID: e.ID(), Scored: e.Result.Scored, Comparable: true, Version: sitedata.ViewsVersion, Current: true}
	if e.Result.Scored {
		v := e.Result.Views[score.Composite]
		now.Composite, now.CI = board.Display(v.Estimate), show.Interval(v.CI95, 2, false)
		if e.Ranked {
			now.Rank = e.Rank[score.Composite]
		}
	}
	return append(append([]historyPoint(nil), past...), now)
}
