package board

import (
	"testing"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

func entry(id, variant string, composite float64) *Entry {
	res := &score.Result{Scored: true}
	for _, v := range score.Views {
		res.Views[v].Estimate = composite
		res.Views[v].CI95 = [2]float64{composite - 0.05, composite + 0.05}
	}
	return &Entry{
		Run:    &run.Run{ID: id, Manifest: &run.Manifest{Variant: variant, Scoring: run.Logprob}},
		Result: res,
	}
}

func TestCompetitionRanksOnDisplayedValue(t *testing.T) {
	es := []*Entry{
		entry("d", run.Explicit, 0.3),
		entry("c", run.Explicit, 0.124), // displays 0.12: ties with b
		entry("b", run.Explicit, 0.1249),
		entry("a", run.Explicit, 0.05),
		entry("e", run.Explicit, 0.126), // displays 0.13
		entry("z", run.Implicit, 0.9),
	}
	boards := Build(es)
	if len(boards) != 2 {
		t.Fatalf("%d boards, want explicit and implicit", len(boards))
	}
	got := boards[0].Ranked[score.Composite]
	want := []struct {
		id   string
		rank int
		tied bool
	}{{"a", 1, false}, {"b", 2, true}, {"c", 2, true}, {"e", 4, false}, {"d", 5, false}}
	if len(got) != len(want) {
		t.Fatalf("%d ranked", len(got))
	}
	for i, w := range want {
		e := got[i]
		if e.ID() != w.id || e.Rank[score.Composite] != w.rank || e.Tied[score.Composite] != w.tied {
			t.Errorf("position %d: %s rank %d tied %v; want %+v", i, e.ID(), e.Rank[score.Composite], e.Tied[score.Composite], w)
		}
	}
	if boards[1].Variant != run.Implicit || boards[1].Ranked[score.Composite][0].Rank[score.Composite] != 1 {
		t.Errorf("implicit board %+v", boards[1])
	}
}

func TestOrderIndependent(t *testing.T) {
	a := []*Entry{entry("x", run.Explicit, 0.2), entry("y", run.Explicit, 0.2), entry("w", run.Explicit, 0.2)}
	b := []*Entry{a[2], a[0], a[1]}
	ra, rb := Build(a)[0].Ranked[score.AgeView], Build(b)[0].Ranked[score.AgeView]
	for i := range ra {
		if ra[i].ID() != rb[i].ID() {
			t.Fatalf("order depends on input: %s vs %s", ra[i].ID(), rb[i].ID())
		}
		if ra[i].Rank[score.AgeView] != 1 {
			t.Errorf("three equal values must all rank 1, got %d", ra[i].Rank[score.AgeView])
		}
	}
}

func TestDisplayNegativeZero(t *testing.T) {
	if got := Display(-0.001); got != "0.00" {
		t.Errorf("Display(-0.001) = %q", got)
	}
}

func TestStatisticalRank(t *testing.T) {
	// Intervals ±0.05: a (0.10) and b (0.12) overlap; c (0.30) is beyond
	// doubt worse than both; d (0.34) overlaps c but not a or b.
	es := []*Entry{entry("a", run.Explicit, 0.10), entry("b", run.Explicit, 0.12), entry("c", run.Explicit, 0.30), entry("d", run.Explicit, 0.34)}
	Build(es)
	want := map[string]int{"a": 1, "b": 1, "c": 3, "d": 3}
	for _, e := range es {
		if got := e.StatRank[score.Composite]; got != want[e.ID()] {
			t.Errorf("%s: statistical rank %d, want %d", e.ID(), got, want[e.ID()])
		}
	}
}
