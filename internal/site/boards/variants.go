package boards

// A model's runs of the two prompt variants: each default-prompt run links
// to the same model's default-prompt run of the other variant with the same
// scoring method, and the two are compared, paired by scenario.

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

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
func VariantPairs(entries []*board.Entry) map[string]stage.VariantLink {
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
	out := map[string]stage.VariantLink{}
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
			out[e.ID()] = stage.VariantLink{ID: o.ID(), Variant: other, Href: paths.RunPath(o.ID())}
		}
	}
	return out
}

// variantDiffs compares every pair of runs that variantPairs links (a run
// and the run its link names), each pair once, on every core.
func VariantDiffs(entries []*board.Entry, links map[string]stage.VariantLink) map[stage.VariantDiffKey]*stage.VariantDiff {
	byID := map[string]*board.Entry{}
	for _, e := range entries {
		byID[e.ID()] = e
	}
	out := map[stage.VariantDiffKey]*stage.VariantDiff{}
	var list []*stage.VariantDiff
	for _, e := range entries {
		l, ok := links[e.ID()]
		if !ok {
			continue
		}
		ex, im := e, byID[l.ID]
		if l.Variant == run.Explicit {
			ex, im = im, ex
		}
		k := stage.VariantDiffKey{Explicit: ex.ID(), Implicit: im.ID()}
		if out[k] == nil {
			out[k] = &stage.VariantDiff{Explicit: ex, Implicit: im}
			list = append(list, out[k])
		}
	}
	render.Parallel(len(list), func(i int) {
		d := list[i]
		if !d.Explicit.Result.Scored || !d.Implicit.Result.Scored {
			d.Reason = "both runs must be scored"
			return
		}
		c, err := score.Compare(d.Explicit.Result, d.Implicit.Result)
		if err != nil {
			d.Reason = err.Error()
			return
		}
		d.C = c
	})
	return out
}

// diffOf is the pair of a run and the run its link names, if any.
func DiffOf(rk *stage.Ranked, id string) *stage.VariantDiff {
	l, ok := rk.Variants[id]
	if !ok {
		return nil
	}
	if l.Variant == run.Implicit {
		return rk.VariantDiffs[stage.VariantDiffKey{Explicit: id, Implicit: l.ID}]
	}
	return rk.VariantDiffs[stage.VariantDiffKey{Explicit: l.ID, Implicit: id}]
}

// variantVerdict reads a paired difference implicit − explicit in the
// site's words: beyond doubt when its 95% interval excludes zero.
func VariantVerdict(d score.Diff) (words, class string) {
	switch {
	case d.CI95[0] > 0:
		return "larger on implicit prompts beyond doubt", "worse"
	case d.CI95[1] < 0:
		return "smaller on implicit prompts beyond doubt", "better"
	}
	return "not distinguishable from zero", "same"
}

// variantDiffRow is one view of a pair as the run and board pages show it.
type VariantDiffRow struct {
	View                       string
	Explicit, Implicit         string
	Diff, CI, Verdict, Class   string
	ExplicitHref, ImplicitHref string
	Model, Scoring             string
}

// variantDiffRows are a pair's rows for the given views.
func VariantDiffRows(d *stage.VariantDiff, views []score.View) []VariantDiffRow {
	var rows []VariantDiffRow
	for _, v := range views {
		r := VariantDiffRow{View: v.Title(), Model: d.Explicit.Run.Manifest.Model.Name, Scoring: string(d.Explicit.Run.Manifest.Scoring),
			ExplicitHref: paths.RunPath(d.Explicit.ID()), ImplicitHref: paths.RunPath(d.Implicit.ID()),
			Explicit: board.Display(d.Explicit.Result.Views[v].Estimate), Implicit: board.Display(d.Implicit.Result.Views[v].Estimate)}
		if d.C != nil {
			dv := d.C.Views[v]
			r.Diff, r.CI = show.Signed(dv.Estimate, 2), show.Interval(dv.CI95, 2, true)
			r.Verdict, r.Class = VariantVerdict(dv)
		} else {
			r.Diff, r.CI, r.Verdict = "–", "–", "not compared: "+d.Reason
		}
		rows = append(rows, r)
	}
	return rows
}

// boardPairs are the pairs whose two runs link each other (each the
// other's pick: a model's runs the boards use), by model name, then
// scoring method, then run ids.
func BoardPairs(rk *stage.Ranked) []*stage.VariantDiff {
	var out []*stage.VariantDiff
	for k, d := range rk.VariantDiffs {
		if rk.Variants[k.Explicit].ID == k.Implicit && rk.Variants[k.Implicit].ID == k.Explicit {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Explicit.Run.Manifest, out[j].Explicit.Run.Manifest
		if a.Model.Name != b.Model.Name {
			return a.Model.Name < b.Model.Name
		}
		if a.Scoring != b.Scoring {
			return a.Scoring < b.Scoring
		}
		return out[i].Explicit.ID() < out[j].Explicit.ID()
	})
	return out
}

// maxBoardVariantRows bounds a board page's explicit–implicit table: a
// board of hundreds of models shows the pairs with the largest
// differences (every pair is on its run pages and in the CSV).
const MaxBoardVariantRows = 30

// boardVariantDiffs are a board page's rows for view v, by model name:
// every pair, or when there are more than maxBoardVariantRows those with
// the largest |difference| (then by model name, scoring, run ids), and how
// many pairs there are.
func BoardVariantDiffs(rk *stage.Ranked, v score.View) ([]VariantDiffRow, int) {
	pairs := BoardPairs(rk)
	if len(pairs) > MaxBoardVariantRows {
		rank := append([]*stage.VariantDiff(nil), pairs...)
		size := func(d *stage.VariantDiff) float64 {
			if d.C == nil {
				return -1
			}
			return math.Abs(d.C.Views[v].Estimate)
		}
		pos := map[*stage.VariantDiff]int{}
		for i, d := range pairs {
			pos[d] = i
		}
		sort.SliceStable(rank, func(i, j int) bool { return size(rank[i]) > size(rank[j]) })
		keep := rank[:MaxBoardVariantRows]
		sort.Slice(keep, func(i, j int) bool { return pos[keep[i]] < pos[keep[j]] })
		pairs = keep
	}
	var rows []VariantDiffRow
	for _, d := range pairs {
		rows = append(rows, VariantDiffRows(d, []score.View{v})...)
	}
	return rows, len(BoardPairs(rk))
}
