package site

// A model's runs of the two prompt variants: each default-prompt run links
// to the same model's default-prompt run of the other variant with the same
// scoring method.

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
)

// variantLink is the other variant's run of a run's model, as a run page
// and a board row link it.
type variantLink struct {
	ID      string
	Variant run.Variant
	Href    string // site path of its run page
}

// variantKey is one model's default-prompt runs of one variant and
// scoring method.
type variantKey struct {
	model   string
	variant run.Variant
	method  run.Scoring
}

// variantPairs returns, for every default-prompt run with a counterpart,
// the same model's default-prompt run of the other variant with the same
// scoring method. When there are several, it is the one that board uses:
// its ranked run; otherwise, as a board picks the run an intervention goes
// under, a scored one before an unscored one, then the most recent, then
// the first by id. Entries come sorted by id.
func variantPairs(entries []*board.Entry) map[string]variantLink {
	pick := map[variantKey]*board.Entry{}
	better := func(e, cur *board.Entry) bool {
		if e.Ranked != cur.Ranked {
			return e.Ranked
		}
		if e.Result.Scored != cur.Result.Scored {
			return e.Result.Scored
		}
		if a, b := e.Run.Manifest.RunDate, cur.Run.Manifest.RunDate; a != b {
			return a > b
		}
		return e.ID() < cur.ID()
	}
	for _, e := range entries {
		m := e.Run.Manifest
		if m.Intervention != board.DefaultIntervention {
			continue
		}
		k := variantKey{m.Model.ID, m.Variant, m.Scoring}
		if cur := pick[k]; cur == nil || better(e, cur) {
			pick[k] = e
		}
	}
	out := map[string]variantLink{}
	for _, e := range entries {
		m := e.Run.Manifest
		if m.Intervention != board.DefaultIntervention {
			continue
		}
		other := run.Implicit
		if m.Variant == run.Implicit {
			other = run.Explicit
		}
		if o := pick[variantKey{m.Model.ID, other, m.Scoring}]; o != nil {
			out[e.ID()] = variantLink{ID: o.ID(), Variant: other, Href: runPath(o.ID())}
		}
	}
	return out
}
