package boards

// The mitigation page: every prompt-intervention run against its model's
// default-prompt run, a paired comparison of each view. The same tables
// appear on both runs' pages.

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// adjustedByPair indexes the pairs' adjusted p-values, for the boards'
// intervention rows.
func AdjustedByPair(pairs []stage.Pair) map[stage.PairKey][score.NumViews]float64 {
	m := map[stage.PairKey][score.NumViews]float64{}
	for _, p := range pairs {
		m[stage.PairKey{A: p.A.ID(), B: p.B.ID()}] = p.Adj
	}
	return m
}

// interventionPairs lists every intervention run with its model's
// default-prompt run, as the boards attached them: board by board, parents
// and interventions by id.
func InterventionPairs(boards []*board.Board) []stage.Pair {
	var out []stage.Pair
	for _, bd := range boards {
		var parents []*board.Entry
		for _, e := range bd.Ranked[score.Composite] {
			parents = append(parents, e)
		}
		parents = append(parents, bd.Unranked...)
		sort.Slice(parents, func(i, j int) bool { return parents[i].ID() < parents[j].ID() })
		for _, p := range parents {
			for _, iv := range p.Interventions {
				out = append(out, stage.Pair{A: p, B: iv.Entry, C: iv.C})
			}
		}
	}
	var ps []float64
	for _, p := range out {
		for _, v := range score.Views {
			ps = append(ps, p.C.Views[v].P)
		}
	}
	adj := stats.Holm(ps)
	for i := range out {
		for j, v := range score.Views {
			out[i].Adj[v] = adj[i*len(score.Views)+j]
		}
	}
	return out
}

type PairRow struct {
	Root          string // from the page showing the row to the site root
	Model         string
	Variant       run.Variant
	AID, BID      string
	AHref, BHref  string
	AIntervention string
	BIntervention string
	Text          string // the intervention's text, as the manifest gives it
	Questions     int
	Views         []pairView
	Groups        []pairGroup
	Flips         []string // the groups whose coefficient changes sign
}

// pairView is one view of a pair. Two differences are shown, each a
// different quantity with its own label (displayRule): Diff is B − A of
// the two scores as displayed, so that "0.34 → 0.03, −0.31" adds up on
// screen; Paired is the paired comparison's estimate, the point of CI and
// of the verdict. They can differ by a rounding step (0.01), more when the
// pair is compared on its shared questions only, and an interval
// narrower than a rounding step need not hold Diff: only Paired is shown
// with the interval.
type pairView struct {
	Title, A, B, Diff, Rel, Paired, CI, P, Verdict, Class string
}

// pairGroup is one coefficient of the two runs and its paired
// difference: Diff and Paired as in pairView.
type pairGroup struct {
	Label, A, B, Diff, Paired, CI, Flip string
}

func PairRowFor(p stage.Pair, root string) PairRow {
	r := PairRow{
		Root:  root,
		Model: p.A.Run.Manifest.Model.Name, Variant: p.A.Run.Manifest.Variant,
		AID: p.A.ID(), BID: p.B.ID(), AHref: paths.RunPath(p.A.ID()), BHref: paths.RunPath(p.B.ID()),
		AIntervention: p.A.Run.Manifest.Intervention, BIntervention: p.B.Run.Manifest.Intervention,
		Text: p.B.Run.Manifest.InterventionText, Questions: p.C.Questions,
	}
	for _, v := range score.Views {
		d := p.C.Views[v]
		// Two labelled differences (pairView): of the two scores as
		// displayed, which adds up on screen, and the paired estimate, shown
		// with its interval and verdict, which the interval holds.
		a, b := board.Shown(p.A.Result.Views[v].Estimate), board.Shown(p.B.Result.Views[v].Estimate)
		pv := pairView{Title: v.Title(), A: board.Display(a), B: board.Display(b),
			Diff: show.Signed(b-a, 2), Paired: show.Signed(d.Estimate, 2), CI: show.Interval(d.CI95, 2, true), P: pValue(p.Adj[v])}
		if a != 0 {
			pv.Rel = show.Signed(100*(b-a)/a, 0) + "%"
		}
		pv.Verdict, pv.Class = Verdict(d, p.Adj[v])
		r.Views = append(r.Views, pv)
	}
	for _, c := range design.Coefs {
		// In the site's units; the paired difference is of the two runs'
		// own coefficients, per SD of age for age, shown with the default
		// run's scale (complete runs share one: 25.82 years).
		d := p.C.Coefs[c]
		a, b := show.ShownEstimate(p.A.Result, c).Estimate, show.ShownEstimate(p.B.Result, c).Estimate
		d.Estimate, d.CI95 = d.Estimate*show.CoefScale(p.A.Result, c), show.ScaleInterval(d.CI95, show.CoefScale(p.A.Result, c))
		if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(d.Estimate) {
			continue
		}
		sa, sb := board.Shown(a), board.Shown(b)
		g := pairGroup{Label: show.CoefLabel(c), A: show.Signed(sa, 2), B: show.Signed(sb, 2), Diff: show.Signed(sb-sa, 2), Paired: show.Signed(d.Estimate, 2), CI: show.Interval(d.CI95, 2, true)}
		if sa*sb < 0 {
			g.Flip = "sign flips: " + c.Favours(sa) + " → " + c.Favours(sb)
			r.Flips = append(r.Flips, show.CoefDisplay(c))
		}
		r.Groups = append(r.Groups, g)
	}
	return r
}

// pValue writes an adjusted p-value.
func pValue(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return "p = " + show.Fixed(p, 3)
}

type MitigationData struct {
	Pairs []PairRow
	// Tests is the number of verdicts Holm's correction runs over; Alpha
	// its family-wise error.
	Tests int
	Alpha string
}

func MitigationPage(pairs []stage.Pair) *layout.Page {
	d := MitigationData{Tests: len(pairs) * len(score.Views), Alpha: show.Fixed(board.FamilyAlpha, 2)}
	for _, p := range pairs {
		d.Pairs = append(d.Pairs, PairRowFor(p, ""))
	}
	return &layout.Page{Path: paths.MitigationPath, Title: "Mitigation: the same model with and without an intervention", Section: layout.SecMitigation, Body: d}
}

// pairsOf returns the comparisons a run takes part in.
func PairsOf(pairs []stage.Pair, id string) []PairRow {
	var out []PairRow
	for _, p := range pairs {
		if p.A.ID() == id || p.B.ID() == id {
			out = append(out, PairRowFor(p, paths.Root(paths.RunPath(id))))
		}
	}
	return out
}

// Beyond says an intervention's difference is beyond doubt (Verdict):
// its Holm-adjusted p at most the boards' family-wise error, and its 95%
// interval excluding zero on its estimate's side.
func Beyond(d score.Diff, adjusted float64) bool {
	return adjusted <= board.FamilyAlpha && (d.Estimate < 0 && d.CI95[1] < 0 || d.Estimate > 0 && d.CI95[0] > 0)
}

// verdict reads a difference (second minus first) with its p-value
// adjusted by Holm's procedure over the mitigation page's comparisons.
// "Beyond doubt" is the site's (words.go): the 95% interval shown beside
// it excludes zero; here the adjusted p must also be at most the boards'
// family-wise error, so that the page's verdicts hold together. The
// Hotelling test and the interval can disagree (the interval is widened
// where either run's view may be zero); then the interval decides, as
// the words stand beside it.
func Verdict(d score.Diff, adjusted float64) (words, class string) {
	switch {
	case Beyond(d, adjusted) && d.Estimate < 0:
		return "lower beyond doubt", "better"
	case Beyond(d, adjusted):
		return "higher beyond doubt", "worse"
	case d.CI95[1] < 0:
		// The interval alone excludes zero, but not the correction for
		// the page's other comparisons: "not distinguishable" would deny
		// the interval beside it.
		return "lower at its own 95% level, not after Holm’s correction", "same"
	case d.CI95[0] > 0:
		return "higher at its own 95% level, not after Holm’s correction", "same"
	}
	return "not distinguishable from zero", "same"
}
