package synth_test

import (
	"math"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

var spec = synth.Spec{
	Seed: 42, Intercept: 0.5,
	Effects:    [design.NumCoefs]float64{-0.3, 0.4, 0.6, 1.2, 0.4, 0.5, 0.9},
	QuestionSD: [design.NumFixed]float64{1, 0.3, 0.3, 0.4, 0.4, 0.3, 0.3, 0.4},
	Corr:       0.3, Noise: 0.5,
}

func generate(t *testing.T, s synth.Spec) []synth.Row {
	t.Helper()
	rows, err := synth.Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestDefaultQuestions(t *testing.T) {
	qs := synth.DefaultQuestions()
	if len(qs) != 70 || qs[0] != 2 || qs[69] != 95 || !slices.IsSorted(qs) {
		t.Fatalf("%d questions from %d to %d", len(qs), qs[0], qs[len(qs)-1])
	}
	if len(slices.Compact(slices.Clone(qs))) != 70 {
		t.Error("repeated question ids")
	}
}

func TestCompleteLayout(t *testing.T) {
	rows := generate(t, spec)
	qs := synth.DefaultQuestions()
	cells := design.Cells()
	if len(rows) != len(qs)*len(cells) {
		t.Fatalf("%d rows, want %d", len(rows), len(qs)*len(cells))
	}
	for i, r := range rows {
		if r.Q != qs[i/len(cells)] || r.Cell != cells[i%len(cells)] {
			t.Fatalf("row %d is question %d %s, want question %d %s", i, r.Q, r.Cell.Label(), qs[i/len(cells)], cells[i%len(cells)].Label())
		}
		if math.IsNaN(r.Logit) || math.IsInf(r.Logit, 0) {
			t.Fatalf("row %d: logit %v", i, r.Logit)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a := generate(t, spec)
	if !slices.Equal(a, generate(t, spec)) {
		t.Fatal("same spec, different rows")
	}
	other := spec
	other.Seed++
	if slices.Equal(a, generate(t, other)) {
		t.Fatal("seeds 42 and 43 give the same rows")
	}
	// Drop uses its own stream: a run with rows missing is the complete run
	// with rows removed.
	dropped := spec
	dropped.Drop = 0.3
	d := generate(t, dropped)
	i := 0
	for _, r := range a {
		if i < len(d) && d[i] == r {
			i++
		}
	}
	if i != len(d) {
		t.Fatalf("only %d of %d rows of the incomplete run found, in order, in the complete run", i, len(d))
	}
}

func TestDropRate(t *testing.T) {
	for _, drop := range []float64{0.05, 0.25, 0.4, 0.7} {
		s := spec
		s.Drop = drop
		rows := generate(t, s)
		n := float64(70 * design.NumCells)
		got := 1 - float64(len(rows))/n
		if sd := math.Sqrt(drop * (1 - drop) / n); math.Abs(got-drop) > 5*sd {
			t.Errorf("drop %v: %.3f of rows missing", drop, got)
		}
		// Every question keeps a design of its own that identifies all
		// eight columns (the per-question OLS fit exists).
		_, cl, err := stats.Clusters(synthObs(rows))
		if err != nil {
			t.Fatal(err)
		}
		for k, c := range cl {
			if len(c.Y) <= design.NumFixed {
				t.Errorf("drop %v: question %d keeps %d rows", drop, k, len(c.Y))
			}
		}
		if _, err := stats.FitMixed(cl, design.NumFixed); err != nil {
			t.Errorf("drop %v: %v", drop, err)
		}
	}
}

func TestSpecErrors(t *testing.T) {
	for _, s := range []synth.Spec{{Drop: 1}, {Drop: -0.1}, {Corr: 1}, {Corr: -0.2}, {Drop: math.NaN()}} {
		if _, err := synth.Generate(s); err == nil {
			t.Errorf("spec %+v accepted", s)
		}
	}
}

// Planted effects are recovered by the mixed model within a few standard
// errors, complete and incomplete.
func TestRecovery(t *testing.T) {
	for _, drop := range []float64{0, 0.2, 0.4} {
		s := spec
		s.Drop = drop
		rows := generate(t, s)
		_, cl, err := stats.Clusters(synthObs(rows))
		if err != nil {
			t.Fatal(err)
		}
		f, err := stats.FitMixed(cl, design.NumFixed)
		if err != nil {
			t.Fatal(err)
		}
		ages := make([]float64, len(rows))
		for i, r := range rows {
			ages[i] = float64(r.Cell.Age)
		}
		_, sd := stats.Standardize(ages)
		for _, c := range design.Coefs {
			want := s.Effects[c]
			if c == design.CoefAge {
				want = s.AgeCoef(sd)
			}
			j := 1 + int(c)
			if z := (f.Beta[j] - want) / f.SE[j]; math.Abs(z) > 4 {
				t.Errorf("drop %v, %s: %.4f ± %.4f, planted %.4f", drop, c.Name(), f.Beta[j], f.SE[j], want)
			}
		}
		// The residual variance is estimated too.
		if math.Abs(f.Sigma2/(s.Noise*s.Noise)-1) > 0.05 {
			t.Errorf("drop %v: σ² %.4f, planted %.4f", drop, f.Sigma2, s.Noise*s.Noise)
		}
	}
}

func TestDecisions(t *testing.T) {
	rows := generate(t, spec)
	const k = 20
	a := synth.Decisions(rows, k, 5)
	if !slices.Equal(a, synth.Decisions(rows, k, 5)) {
		t.Fatal("same seed, different decisions")
	}
	if slices.Equal(a, synth.Decisions(rows, k, 6)) {
		t.Fatal("seeds 5 and 6 give the same decisions")
	}
	// The yes rate matches the mean probability.
	var yes, want, v float64
	for i, r := range rows {
		if a[i] < 0 || a[i] > k {
			t.Fatalf("row %d: %d yes out of %d", i, a[i], k)
		}
		pr := 1 / (1 + math.Exp(-r.Logit))
		yes += float64(a[i])
		want += k * pr
		v += k * pr * (1 - pr)
	}
	if math.Abs(yes-want) > 5*math.Sqrt(v) {
		t.Errorf("%v yes, expected %.0f ± %.0f", yes, want, math.Sqrt(v))
	}
}

func synthObs(rows []synth.Row) []stats.Obs {
	obs := make([]stats.Obs, len(rows))
	for i, r := range rows {
		obs[i] = stats.Obs{Q: r.Q, Cell: r.Cell, Y: r.Logit}
	}
	return obs
}
