package site

import (
	"math"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// shownInterval reads back an interval as interval() writes it.
func shownInterval(tb testing.TB, s string) [2]float64 {
	tb.Helper()
	m := intervalRe.FindStringSubmatch(s)
	if m == nil {
		tb.Fatalf("not an interval: %q", s)
	}
	return [2]float64{shownNum(tb, m[1]), shownNum(tb, m[2])}
}

// A pair whose two rounded scores differ by more than the paired
// interval, rounded, allows: A's composite 0.3449 is shown 0.34, B's
// 0.2951 is shown 0.30, so the difference of the shown scores is −0.04,
// while the paired estimate −0.0498 with its interval [−0.052, −0.048]
// is shown [−0.05, −0.05]. The number shown beside an interval must lie
// inside it; the difference of the shown scores is a different quantity
// and is shown apart, adding up.
func TestPairDifferenceInsideItsInterval(t *testing.T) {
	entry := func(id, iv string, comp float64) *board.Entry {
		res := &score.Result{Scored: true, AgeSD: 25.82}
		for _, v := range score.Views {
			res.Views[v].Estimate = 0.2
		}
		res.Views[score.Composite].Estimate = comp
		res.Coefficients[design.CoefAge].Estimate = 0.3449 / (show.AgeUnitYears / 25.82)
		if iv != "default" {
			res.Coefficients[design.CoefAge].Estimate = 0.2951 / (show.AgeUnitYears / 25.82)
		}
		m := &run.Manifest{Intervention: iv, Variant: run.Explicit}
		m.Model.Name = "M"
		return &board.Entry{Run: &run.Run{ID: id, Manifest: m}, Result: res}
	}
	a, b := entry("a", "default", 0.3449), entry("b", "illegal", 0.2951)
	c := &score.Comparison{Questions: 70}
	for _, v := range score.Views {
		c.Views[v] = score.Diff{Estimate: b.Result.Views[v].Estimate - a.Result.Views[v].Estimate, P: 0.5, CI95: [2]float64{-0.1, 0.1}}
	}
	c.Views[score.Composite] = score.Diff{Estimate: -0.0498, CI95: [2]float64{-0.052, -0.048}, P: 0.001}
	for _, k := range design.Coefs {
		c.Coefs[k] = score.Diff{CI95: [2]float64{-0.1, 0.1}}
	}
	k := show.AgeUnitYears / 25.82
	c.Coefs[design.CoefAge] = score.Diff{Estimate: -0.0498 / k, CI95: [2]float64{-0.052 / k, -0.048 / k}}
	p := stage.Pair{A: a, B: b, C: c}
	p.Adj[score.Composite] = 0.004
	for v := score.View(1); v < score.NumViews; v++ {
		p.Adj[v] = 1
	}
	row := boards.PairRowFor(p, "")
	type shown struct{ where, a, b, diff, paired, ci string }
	var all []shown
	for _, v := range row.Views {
		all = append(all, shown{"view " + v.Title, v.A, v.B, v.Diff, v.Paired, v.CI})
	}
	for _, g := range row.Groups {
		all = append(all, shown{"group " + g.Label, g.A, g.B, g.Diff, g.Paired, g.CI})
	}
	outside := 0
	for _, s := range all {
		checkShownPair(t, s.where, s.a, s.b, s.diff, s.paired, s.ci)
		if d := shownNum(t, s.diff); !inside(d, shownInterval(t, s.ci)) {
			outside++
		}
	}
	if outside < 2 {
		t.Errorf("the constructed case puts %d differences of shown scores outside their intervals, want the composite and age: the test no longer tests the rule", outside)
	}
	// The boards' intervention rows: the number beside the interval is the
	// paired estimate, inside it, and named so.
	a.Interventions = []*board.Intervention{{Entry: b, C: c}}
	r := boards.BoardRowFor(a, score.Composite, false, map[stage.PairKey][score.NumViews]float64{{A: "a", B: "b"}: p.Adj})
	ch := r.Children[0]
	if !inside(shownNum(t, ch.Diff), shownInterval(t, ch.DiffCI)) {
		t.Errorf("board row: %s beside %s", ch.Diff, ch.DiffCI)
	}
	if ch.Verdict != "lower beyond doubt" {
		t.Errorf("board row verdict %q, want lower beyond doubt", ch.Verdict)
	}
}

// inside says a shown value lies in a shown interval.
func inside(v float64, ci [2]float64) bool { return ci[0] <= v && v <= ci[1] }

// checkShownPair checks one row of a pair as displayed: the difference
// of the shown scores is their difference exactly, and the number shown
// with the interval (the paired estimate) lies inside it.
func checkShownPair(t *testing.T, where, a, b, diff, paired, ci string) {
	t.Helper()
	if got, want := shownNum(t, diff), shownNum(t, b)-shownNum(t, a); math.Abs(got-want) > 1e-9 {
		t.Errorf("%s: %s → %s shown with a difference of %s", where, a, b, diff)
	}
	iv := shownInterval(t, ci)
	if strings.TrimSpace(paired) == "" {
		// Before the rule: the difference was the only number beside the interval.
		paired = diff
	}
	if !inside(shownNum(t, paired), iv) {
		t.Errorf("%s: %s shown beside its interval %s, outside it", where, paired, ci)
	}
}

// "Beyond doubt" on an intervention needs its 95% interval to exclude
// zero, whatever the adjusted p-value: the site's definition.
func TestInterventionVerdictNeedsTheInterval(t *testing.T) {
	for _, tc := range []struct {
		d    score.Diff
		adj  float64
		want string
	}{
		{score.Diff{Estimate: -0.05, CI95: [2]float64{-0.07, -0.03}}, 0.001, "lower beyond doubt"},
		{score.Diff{Estimate: 0.05, CI95: [2]float64{0.03, 0.07}}, 0.001, "higher beyond doubt"},
		{score.Diff{Estimate: -0.05, CI95: [2]float64{-0.07, 0.01}}, 0.001, "not distinguishable from zero"},
		{score.Diff{Estimate: 0.05, CI95: [2]float64{0, 0.07}}, 0.001, "not distinguishable from zero"},
		{score.Diff{Estimate: -0.05, CI95: [2]float64{-0.07, -0.03}}, 0.2, "lower at its own 95% level, not after Holm’s correction"},
		{score.Diff{Estimate: 0.05, CI95: [2]float64{0.03, 0.07}}, 0.2, "higher at its own 95% level, not after Holm’s correction"},
	} {
		if got, _ := boards.Verdict(tc.d, tc.adj); got != tc.want {
			t.Errorf("verdict(%+v, adjusted p %v) = %q, want %q", tc.d, tc.adj, got, tc.want)
		}
	}
}
