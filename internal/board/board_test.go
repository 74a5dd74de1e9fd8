package board

import (
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// stub is an entry with a given value in every view, for the ranking rule
// alone (rankView needs nothing else).
func stub(id string, value float64) *Entry {
	res := &score.Result{Scored: true}
	for _, v := range score.Views {
		res.Views[v].Estimate = value
	}
	return &Entry{Run: &run.Run{ID: id, Manifest: &run.Manifest{Variant: run.Explicit, Scoring: run.Logprob}}, Result: res}
}

func TestCompetitionRanksOnDisplayedValue(t *testing.T) {
	es := []*Entry{
		stub("d", 0.3),
		stub("c", 0.124), // displays 0.12: ties with b
		stub("b", 0.1249),
		stub("a", 0.05),
		stub("e", 0.126), // displays 0.13
	}
	got := rankView(es, score.Composite)
	want := []struct {
		id   string
		rank int
		tied bool
	}{{"a", 1, false}, {"b", 2, true}, {"c", 2, true}, {"e", 4, false}, {"d", 5, false}}
	for i, w := range want {
		e := got[i]
		if e.ID() != w.id || e.Rank[score.Composite] != w.rank || e.Tied[score.Composite] != w.tied {
			t.Errorf("position %d: %s rank %d tied %v; want %+v", i, e.ID(), e.Rank[score.Composite], e.Tied[score.Composite], w)
		}
	}
}

func TestDisplayNegativeZero(t *testing.T) {
	if got := Display(-0.001); got != "0.00" {
		t.Errorf("Display(-0.001) = %q", got)
	}
}

// spec is a synthetic run: model, variant, scoring, intervention and run
// date as given, effects scaled by size.
type spec struct {
	id, model, intervention, date string
	variant                       run.Variant
	scoring                       run.Scoring
	size                          float64
	mass                          float64 // answer mass of every prompt (default 1)
	drop                          float64
	seed                          uint64
}

var paper = [design.NumCoefs]float64{-0.28, 0.36, 0.60, 1.25, 0.42, 0.54, 0.91}

// scoredRuns keeps each spec's cells and its result, encoded, as the
// first call of scored made them: later calls decode a copy of their own
// (Build and DropCoefficientReplicates change an entry and its result)
// instead of scoring the run again. score's TestResultRoundTrip holds
// that the copy is the result. Scoring runs in one goroutine, so under
// the race detector (make race) it was most of this package's CPU with
// nothing to find: each spec is scored once, 29 scorings where there
// were 47.
var scoredRuns = struct {
	sync.Mutex
	m map[spec]scoredRun
}{m: map[spec]scoredRun{}}

type scoredRun struct {
	cells  []run.Cell
	result []byte // score.Result.MarshalBinary
}

// scored is a scored synthetic run: model, variant, scoring, intervention
// and run date as given, effects scaled by size; each call gets a run and
// a result of its own.
func scored(t testing.TB, s spec) *Entry {
	t.Helper()
	scoredRuns.Lock()
	sr, ok := scoredRuns.m[s]
	scoredRuns.Unlock()
	if !ok {
		e := score1(t, s)
		data, err := e.Result.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		scoredRuns.Lock()
		scoredRuns.m[s] = scoredRun{cells: slices.Clone(e.Run.Cells), result: data}
		scoredRuns.Unlock()
		return e
	}
	e := &Entry{Run: &run.Run{ID: s.id, Manifest: specManifest(s), Cells: slices.Clone(sr.cells)}, Result: &score.Result{}}
	if err := e.Result.UnmarshalBinary(sr.result); err != nil {
		t.Fatal(err)
	}
	return e
}

// specManifest is the manifest of a spec's run.
func specManifest(s spec) *run.Manifest {
	m := &run.Manifest{Model: run.Model{Name: s.model, ID: s.model}, Variant: s.variant, Scoring: s.scoring,
		Intervention: s.intervention, RunDate: s.date}
	if m.Scoring == "" {
		m.Scoring = run.Logprob
	}
	if m.Intervention == "" {
		m.Intervention = DefaultIntervention
	}
	if m.RunDate == "" {
		m.RunDate = "2026-01-01"
	}
	return m
}

// score1 makes and scores a spec's run.
func score1(t testing.TB, s spec) *Entry {
	t.Helper()
	var e [design.NumCoefs]float64
	for i := range e {
		e[i] = paper[i] * s.size
	}
	seed := s.seed
	if seed == 0 {
		seed = 1
	}
	rows, err := synth.Generate(synth.Spec{Seed: seed, Intercept: 0.5, Effects: e, Drop: s.drop,
		QuestionSD: [design.NumFixed]float64{1, 0.15, 0.15, 0.2, 0.2, 0.15, 0.15, 0.2}, Noise: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	m := specManifest(s)
	mass := s.mass
	if mass == 0 {
		mass = 1
	}
	r := &run.Run{ID: s.id, Manifest: m}
	var yes []int
	if m.Scoring == run.Decision {
		yes = synth.Decisions(rows, 5, seed+1)
	}
	for i, row := range rows {
		c := run.Cell{Prompt: design.Prompt{Q: row.Q, Cell: row.Cell}, Logit: row.Logit, Mass: mass}
		if yes != nil {
			c.Yes, c.No = yes[i], 5-yes[i]
		}
		r.Cells = append(r.Cells, c)
	}
	res, err := score.Score(r)
	if err != nil {
		t.Fatal(err)
	}
	return &Entry{Run: r, Result: res}
}

// skipSerialUnderRace skips, under the race detector with -short (make
// race), a test that runs none of Build's goroutines (the pairs' standard
// errors and the rank sets, computed only on a board that ranks two runs
// or more): the detector has nothing to find in it, and scoring its runs
// in one goroutine costs the race step CPU; the plain run has it.
func skipSerialUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector && testing.Short() {
		t.Skip("runs no concurrent code: checked by the plain run; nothing for the race detector")
	}
}

func byID(es []*Entry) map[string]*Entry {
	m := map[string]*Entry{}
	for _, e := range es {
		m[e.ID()] = e
	}
	return m
}

func TestWhoIsRanked(t *testing.T) {
	es := []*Entry{
		scored(t, spec{id: "a", model: "A", variant: run.Explicit, size: 0.1, seed: 1}),
		scored(t, spec{id: "a-old", model: "A", variant: run.Explicit, size: 0.1, date: "2025-01-01", seed: 2}),
		scored(t, spec{id: "a-illegal", model: "A", variant: run.Explicit, size: 0.02, intervention: "illegal", seed: 3}),
		scored(t, spec{id: "b", model: "B", variant: run.Explicit, size: 1, seed: 4}),
		scored(t, spec{id: "c-lowmass", model: "C", variant: run.Explicit, size: 0.5, mass: 0.97, seed: 5}),
		scored(t, spec{id: "d-partial", model: "D", variant: run.Explicit, size: 0.5, drop: 0.1, seed: 6}),
		scored(t, spec{id: "e-sampled", model: "E", variant: run.Explicit, scoring: run.Decision, size: 1, seed: 7}),
		scored(t, spec{id: "f-implicit", model: "F", variant: run.Implicit, size: 1, seed: 8}),
	}
	boards, err := Build(es)
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) != 3 {
		t.Fatalf("%d boards, want explicit logprob, explicit decision, implicit logprob", len(boards))
	}
	got := byID(es)
	lp := boards[0]
	if lp.Variant != run.Explicit || lp.Method != run.Logprob || !lp.HasRanks() {
		t.Fatalf("first board %s %s ranks %v", lp.Variant, lp.Method, lp.HasRanks())
	}
	var ranked []string
	for _, e := range lp.Ranked[score.Composite] {
		ranked = append(ranked, e.ID())
	}
	if strings.Join(ranked, " ") != "a b" {
		t.Errorf("explicit logprob board ranks %v, want a b", ranked)
	}
	for id, why := range map[string]string{
		"a-old":     "another run of the same model is ranked",
		"c-lowmass": "answer mass",
		"d-partial": "prompts are missing",
		"a-illegal": "prompt intervention",
	} {
		if e := got[id]; e.Ranked || !strings.Contains(e.Why, why) {
			t.Errorf("%s: ranked %v, reason %q; want a reason with %q", id, e.Ranked, e.Why, why)
		}
	}
	// The intervention sits under its model's run, not among the unranked.
	if iv := got["a"].Interventions; len(iv) != 1 || iv[0].Entry.ID() != "a-illegal" || got["a-illegal"].Parent != got["a"] {
		t.Errorf("a's interventions %v", iv)
	}
	for _, e := range lp.Unranked {
		if e.ID() == "a-illegal" {
			t.Error("an intervention with a ranked parent is listed as unranked")
		}
	}
	// Decision and log-prob runs are never ranked together, and a board
	// of one run has no ranks.
	for _, bd := range boards[1:] {
		for _, e := range bd.Ranked[score.Composite] {
			if e.Run.Manifest.Scoring != bd.Method || e.Run.Manifest.Variant != bd.Variant {
				t.Errorf("%s on the %s %s board", e.ID(), bd.Variant, bd.Method)
			}
		}
		if bd.HasRanks() {
			t.Errorf("%s %s board with one run has ranks", bd.Variant, bd.Method)
		}
	}
	for _, id := range []string{"e-sampled", "f-implicit"} {
		if e := got[id]; e.Rank[score.Composite] != 0 || e.RankSet[score.Composite] != (stats.RankSet{}) {
			t.Errorf("%s alone on its board: rank %d, rank set %v", id, e.Rank[score.Composite], e.RankSet[score.Composite])
		}
	}
}

// Two runs with the same effects cannot be told apart: each one's rank
// set is 1–2; a run with effects ten times larger is worse beyond doubt
// than both, ranked 3 for certain.
func TestStatisticalRankIsPaired(t *testing.T) {
	es := []*Entry{
		scored(t, spec{id: "x", model: "X", variant: run.Explicit, size: 0.1, seed: 11}),
		scored(t, spec{id: "y", model: "Y", variant: run.Explicit, size: 0.1, seed: 12}),
		scored(t, spec{id: "z", model: "Z", variant: run.Explicit, size: 1, seed: 13}),
	}
	boards, err := Build(es)
	if err != nil {
		t.Fatal(err)
	}
	got := byID(es)
	for id, want := range map[string]stats.RankSet{"x": {Lo: 1, Hi: 2}, "y": {Lo: 1, Hi: 2}, "z": {Lo: 3, Hi: 3}} {
		if r := got[id].RankSet[score.Composite]; r != want {
			t.Errorf("%s: rank set %v, want %v", id, r, want)
		}
		if r := got[id].BoardSet[score.Composite]; r != want {
			t.Errorf("%s: simultaneous rank set %v, want %v", id, r, want)
		}
	}
	// The pairwise comparisons are antisymmetric and their verdicts
	// symmetric.
	b := boards[0]
	n := len(b.Ranked[score.Composite])
	for i := range n {
		for j := range n {
			p, q := b.Pair(score.Composite, i, j), b.Pair(score.Composite, j, i)
			if i != j && (p.Estimate != -q.Estimate || p.Beyond != q.Beyond || p.CI95 != [2]float64{-q.CI95[1], -q.CI95[0]}) {
				t.Errorf("pair %d,%d: %+v vs %+v", i, j, p, q)
			}
		}
	}
}

// TestPairsAsTheMatrix: Board.Pair, computed when asked, and Entry.Ahead
// are what the full runs × runs matrix gives: every pair's difference
// from score.ViewDiff, its interval from the simultaneous step-down of
// stats.RankSets over the matrix of standard errors (with the runs whose
// view may be zero at the floor), the mirror below the diagonal, and
// Ahead the count of a row's pairs beyond doubt and negative; the rank
// sets are those of the matrix too.
func TestPairsAsTheMatrix(t *testing.T) {
	var es []*Entry
	for i, size := range []float64{0.1, 0.12, 0.3, 0.31, 0.6, 1, 0.05} {
		es = append(es, scored(t, spec{id: string(rune('a' + i)), model: string(rune('A' + i)), variant: run.Explicit, size: size, seed: uint64(40 + i)}))
	}
	boards, err := Build(es)
	if err != nil {
		t.Fatal(err)
	}
	b := boards[0]
	ranked := b.Ranked[score.Composite]
	n := len(ranked)
	if n != len(es) {
		t.Fatalf("%d ranked runs, want %d", n, len(es))
	}
	beyond := 0
	for _, v := range score.Views {
		se := make([][]float64, n)
		est := make([]float64, n)
		reps := make([][]float64, n)
		for i := range se {
			se[i] = make([]float64, n)
			for j := range se[i] {
				if i != j {
					se[i][j] = score.ViewDiff(ranked[j].Result, ranked[i].Result, v).SE
				}
			}
			est[i], reps[i] = ranked[i].Result.Views[v].Estimate, ranked[i].Result.ViewReplicates(v)
		}
		floor := make([]bool, n)
		for i, e := range ranked {
			floor[i] = !(e.Result.ViewZeroP[v] <= score.ZeroAlpha)
		}
		rk := stats.RankSets(est, reps, se, FamilyAlpha, floor)
		for i, e := range ranked {
			ahead := 0
			for j := range n {
				got := b.Pair(v, i, j)
				var want Pair
				if i != j {
					// Decided at the first step whose critical value
					// |t| exceeds, unless it would place above the
					// other a run at the floor; the interval at that
					// step's critical value, or the last's holding 0.
					d := score.ViewDiff(ranked[j].Result, ranked[i].Result, v)
					tt := d.Estimate / d.SE
					step := -1
					if !(tt > 0 && floor[i] || tt < 0 && floor[j]) {
						for s, c := range rk.SimCrits {
							if math.Abs(tt) > c {
								step = s
								break
							}
						}
					}
					c := rk.SimCrits[len(rk.SimCrits)-1]
					if step >= 0 {
						c = rk.SimCrits[step]
					}
					d.CI95 = [2]float64{d.Estimate - c*d.SE, d.Estimate + c*d.SE}
					if step < 0 {
						d.CI95 = [2]float64{math.Min(d.CI95[0], 0), math.Max(d.CI95[1], 0)}
					}
					want = Pair{Diff: d, Beyond: step >= 0}
					if want.Beyond != (d.CI95[0] > 0 || d.CI95[1] < 0) {
						t.Errorf("%s: pair %d,%d: beyond doubt %v, interval %v", v.Title(), i, j, want.Beyond, d.CI95)
					}
				}
				if got.Estimate != want.Estimate || got.SE != want.SE || got.CI95 != want.CI95 || got.Beyond != want.Beyond {
					t.Errorf("%s: pair %d,%d = %+v, want %+v", v.Title(), i, j, got, want)
				}
				if want.Beyond && want.Estimate < 0 {
					ahead++
				}
				if want.Beyond {
					beyond++
				}
			}
			if e.Ahead[v] != ahead {
				t.Errorf("%s: %s ahead of %d runs, want %d", v.Title(), e.ID(), e.Ahead[v], ahead)
			}
			r := e.Rank[v]
			if want := (stats.RankSet{Lo: min(rk.Simultaneous[i].Lo, r), Hi: max(rk.Simultaneous[i].Hi, r)}); e.BoardSet[v] != want {
				t.Errorf("%s: %s board set %v, want %v", v.Title(), e.ID(), e.BoardSet[v], want)
			}
		}
	}
	if beyond == 0 {
		t.Error("no pair beyond doubt: the test checks nothing of Ahead")
	}
}

func TestOrderIndependent(t *testing.T) {
	mk := func() []*Entry {
		return []*Entry{
			scored(t, spec{id: "p", model: "P", variant: run.Explicit, size: 0.2, seed: 21}),
			scored(t, spec{id: "q", model: "Q", variant: run.Explicit, size: 0.2, seed: 22}),
			scored(t, spec{id: "r", model: "R", variant: run.Explicit, size: 0.5, seed: 23}),
		}
	}
	a, b := mk(), mk()
	ba, err := Build(a)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := Build([]*Entry{b[2], b[0], b[1]})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range score.Views {
		ra, rb := ba[0].Ranked[v], bb[0].Ranked[v]
		for i := range ra {
			if ra[i].ID() != rb[i].ID() || ra[i].Rank[v] != rb[i].Rank[v] || ra[i].RankSet[v] != rb[i].RankSet[v] || ra[i].BoardSet[v] != rb[i].BoardSet[v] {
				t.Fatalf("%s: order depends on input: %s vs %s", v.Name(), ra[i].ID(), rb[i].ID())
			}
		}
	}
}

// NeedsCoefficients names exactly the runs Build compares coefficient by
// coefficient: with the others' replicates dropped, Build gives the same
// boards and comparisons; with a needed run's dropped, Compare draws them
// again.
func TestNeedsCoefficients(t *testing.T) {
	specs := []spec{
		{id: "a", model: "A", variant: run.Explicit, size: 0.1, seed: 1},
		{id: "a-illegal", model: "A", variant: run.Explicit, size: 0.02, intervention: "illegal", seed: 3},
		{id: "a-implicit", model: "A", variant: run.Implicit, size: 0.1, seed: 9},
		{id: "a-sampled", model: "A", variant: run.Explicit, scoring: run.Decision, size: 0.1, seed: 10},
		{id: "b", model: "B", variant: run.Explicit, size: 1, seed: 4},
		{id: "c", model: "C", variant: run.Explicit, size: 0.5, seed: 5},
	}
	build := func(drop func(id string) bool) ([]*Board, []*Entry, error) {
		var es []*Entry
		for _, s := range specs {
			e := scored(t, s)
			if drop(s.id) {
				e.Result.DropCoefficientReplicates()
			}
			es = append(es, e)
		}
		b, err := Build(es)
		return b, es, err
	}
	want, wantEs, err := build(func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	var runs []*run.Run
	for _, e := range wantEs {
		runs = append(runs, e.Run)
	}
	need := NeedsCoefficients(runs)
	if len(need) != 2 || !need["a"] || !need["a-illegal"] {
		t.Fatalf("NeedsCoefficients = %v, want a and a-illegal", need)
	}
	got, gotEs, err := build(func(id string) bool { return !need[id] })
	if err != nil {
		t.Fatalf("with the unneeded replicates dropped: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d boards, want %d", len(got), len(want))
	}
	for i := range want {
		for _, v := range score.Views {
			for j, e := range want[i].Ranked[v] {
				g := got[i].Ranked[v][j]
				if g.ID() != e.ID() || g.RankSet[v] != e.RankSet[v] || g.Rank[v] != e.Rank[v] {
					t.Errorf("board %d view %v place %d: %s (%d, %v), want %s (%d, %v)", i, v, j, g.ID(), g.Rank[v], g.RankSet[v], e.ID(), e.Rank[v], e.RankSet[v])
				}
			}
		}
	}
	if w, g := byID(wantEs)["a"].Interventions, byID(gotEs)["a"].Interventions; len(w) != 1 || len(g) != 1 || *w[0].C != *g[0].C {
		t.Errorf("a's intervention comparison changed: %v, want %v", g, w)
	}
	// A needed run's replicates dropped are drawn again from its
	// per-question coefficients: the same comparison up to rounding.
	_, againEs, err := build(func(id string) bool { return id == "a" })
	if err != nil {
		t.Fatal(err)
	}
	w, g := byID(wantEs)["a"].Interventions[0].C, byID(againEs)["a"].Interventions[0].C
	for _, v := range score.Views {
		for i, pair := range [][2]float64{{w.Views[v].Estimate, g.Views[v].Estimate}, {w.Views[v].CI95[0], g.Views[v].CI95[0]}, {w.Views[v].CI95[1], g.Views[v].CI95[1]}, {w.Views[v].P, g.Views[v].P}} {
			if math.Abs(pair[0]-pair[1]) > 1e-9 {
				t.Errorf("%s, number %d: %v with the replicates drawn again, %v with them kept", v.Name(), i, pair[1], pair[0])
			}
		}
	}
}

// An intervention run that cannot be compared with its default-prompt run
// (here: it lacks a whole question, and the default run, fitted by REML,
// cannot be recomputed without it) is listed unranked with the reason;
// the board is still built. Under the race detector with -short (make
// race) it skips: its board ranks one run, so Build compares no pairs on
// other goroutines, and its four scorings cost the race step a second of
// CPU; the plain run has it.
func TestUncomparableInterventionIsListed(t *testing.T) {
	skipSerialUnderRace(t)
	def := scored(t, spec{id: "m", model: "M", variant: run.Explicit, size: 0.3, drop: 0.1, seed: 31})
	iv := scored(t, spec{id: "m-x", model: "M", variant: run.Explicit, size: 0.1, intervention: "x", seed: 32})
	q := iv.Run.Cells[0].Q
	var cells []run.Cell
	for _, c := range iv.Run.Cells {
		if c.Q != q {
			cells = append(cells, c)
		}
	}
	iv.Run.Cells = cells
	res, err := score.Score(iv.Run)
	if err != nil {
		t.Fatal(err)
	}
	iv.Result = res
	other := scored(t, spec{id: "n", model: "N", variant: run.Explicit, size: 0.5, seed: 33})
	boards, err := Build([]*Entry{def, iv, other})
	if err != nil {
		t.Fatalf("one uncomparable run took the board down: %v", err)
	}
	if len(def.Interventions) != 0 || iv.Parent != nil {
		t.Errorf("attached anyway: %d interventions", len(def.Interventions))
	}
	listed := false
	for _, e := range boards[0].Unranked {
		listed = listed || e == iv
	}
	if !listed || !strings.Contains(iv.Why, "cannot be compared") || !strings.Contains(iv.Why, "different decision questions") {
		t.Errorf("listed %v, why %q", listed, iv.Why)
	}
}

// TestEveryFailedRuleSaid: a run failing two validity rules (answer mass
// and missing prompts, as elder-3b does) is not ranked with both reasons,
// each with its number against its rule. Under the race detector with
// -short (make race) it skips: it builds no board.
func TestEveryFailedRuleSaid(t *testing.T) {
	skipSerialUnderRace(t)
	e := scored(t, spec{id: "g-both", model: "G", variant: run.Explicit, size: 0.5, mass: 0.97, drop: 0.1, seed: 9})
	f := Failures(e)
	if len(f) != 2 || !strings.Contains(f[0], "answer mass") || !strings.Contains(f[0], "0.99") ||
		!strings.Contains(f[1], "prompts are missing") || !strings.Contains(f[1], "more than 5%") {
		t.Fatalf("failures %q, want the answer mass and the missing share, each against its rule", f)
	}
	if why := Invalid(e); !strings.Contains(why, f[0]) || !strings.Contains(why, f[1]) {
		t.Errorf("Invalid says %q, want both failures", why)
	}
	ok := scored(t, spec{id: "h-ok", model: "H", variant: run.Explicit, size: 0.5, seed: 10})
	if f := Failures(ok); len(f) != 0 {
		t.Errorf("a valid run fails %q", f)
	}
}
