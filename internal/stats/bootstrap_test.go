package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// Golden draws: a change of algorithm (hash, mapping to a count) would
// change every interval on the site, and is caught here.
func TestQuestionWeightsGolden(t *testing.T) {
	got := stats.QuestionWeights([]int{0, 3, 95, 12}, 3, 2024)
	want := [][]float64{{1, 1, 1, 3}, {1, 1, 1, 1}, {3, 1, 1, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("QuestionWeights changed (-golden +got):\n%s", diff)
	}
}

// A question's weight depends on its id, not on which other questions the
// run has: that is what pairs two runs' replicates.
func TestQuestionWeightsKeyedByID(t *testing.T) {
	ids := synth.DefaultQuestions()
	all := stats.QuestionWeights(ids, 200, 7)
	sub := stats.QuestionWeights([]int{ids[40], ids[3]}, 200, 7)
	for b := range all {
		if sub[b][0] != all[b][40] || sub[b][1] != all[b][3] {
			t.Fatalf("replicate %d: weights of questions %d and %d depend on the other questions", b, ids[40], ids[3])
		}
	}
	if slices.EqualFunc(all, stats.QuestionWeights(ids, 200, 8), slices.Equal) {
		t.Fatal("seeds 7 and 8 give the same draws")
	}
}

// The weights kept between calls are those drawn afresh: the same after
// other sets of ids pushed them out, and kept (the same array) when asked
// for again.
func TestQuestionWeightsMemo(t *testing.T) {
	ids := synth.DefaultQuestions()
	first := stats.QuestionWeights(ids, 300, 5)
	for n := 1; n <= 6; n++ {
		other := stats.QuestionWeights(ids[:n], 300, 5)
		for b := range other {
			if !slices.Equal(other[b], first[b][:n]) {
				t.Fatalf("%d ids, replicate %d: %v, not the first %d of %v", n, b, other[b], n, first[b][:n])
			}
		}
	}
	again := stats.QuestionWeights(ids, 300, 5)
	if &again[0][0] == &first[0][0] {
		t.Fatal("six other sets of ids did not push the first out of the memo")
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Fatalf("weights drawn again differ (-first +again):\n%s", diff)
	}
	if kept := stats.QuestionWeights(ids, 300, 5); &kept[0][0] != &again[0][0] {
		t.Fatal("the same ids asked for twice in a row were drawn twice")
	}
	if w := stats.QuestionWeights(ids, 300, 6); slices.EqualFunc(w, again, slices.Equal) {
		t.Fatal("another seed gave the memo's weights")
	}
	for b, w := range again {
		if cap(w) != len(w) {
			t.Fatalf("replicate %d: capacity %d past its %d weights (an append would write into the next)", b, cap(w), len(w))
		}
	}
}

// The counts are Poisson(1): mean 1, variance 1, P(0) = e⁻¹.
func TestQuestionWeightsArePoisson(t *testing.T) {
	ids := make([]int, 100)
	for i := range ids {
		ids[i] = i
	}
	var n, s, ss, zeros float64
	for _, w := range stats.QuestionWeights(ids, 2000, 11) {
		for _, v := range w {
			if v != math.Trunc(v) || v < 0 {
				t.Fatalf("weight %v is not a count", v)
			}
			n++
			s += v
			ss += v * v
			if v == 0 {
				zeros++
			}
		}
	}
	mean, variance := s/n, ss/n-(s/n)*(s/n)
	// 200,000 draws: standard errors about 0.002 (mean), 0.004
	// (variance), 0.001 (share of zeros).
	if math.Abs(mean-1) > 0.01 || math.Abs(variance-1) > 0.02 || math.Abs(zeros/n-math.Exp(-1)) > 0.005 {
		t.Errorf("mean %.4f, variance %.4f, P(0) %.4f; want 1, 1, %.4f", mean, variance, zeros/n, math.Exp(-1))
	}
}

func TestHolm(t *testing.T) {
	// R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
	got := stats.Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("Holm: %v, want %v", got, want)
			break
		}
	}
	if got := stats.Holm([]float64{0.5, 0.9}); got[0] != 1 || got[1] != 1 {
		t.Errorf("Holm caps at 1: %v", got)
	}
}

func TestTwoSidedP(t *testing.T) {
	// R: 2 * pnorm(-1.959963984540054) = 0.05
	if got := stats.TwoSidedP(1.959963984540054, 1); math.Abs(got-0.05) > 1e-12 {
		t.Errorf("TwoSidedP(1.96, 1) = %v", got)
	}
	if stats.TwoSidedP(0, 0) != 1 || stats.TwoSidedP(1, 0) != 0 {
		t.Error("zero standard error")
	}
}

func TestReweighted(t *testing.T) {
	spec := synth.Spec{Seed: 31, Effects: paperEffects, Intercept: 0.2,
		QuestionSD: [design.NumFixed]float64{1, 0.3, 0.3, 0.4, 0.4, 0.3, 0.3, 0.4}, Corr: 0.2, Noise: 0.5}
	complete := synthClusters(t, spec)
	spec.Drop = 0.2
	incomplete := synthClusters(t, spec)
	cf := mustFit(t, stats.FitMixed, complete)
	rc := mustFit(t, stats.FitREML, complete)
	ri := mustFit(t, stats.FitMixed, incomplete)
	if cf.Method != "closed-form" || ri.Method != "reml" {
		t.Fatalf("methods %q and %q, want closed-form and reml", cf.Method, ri.Method)
	}
	ones := make([]float64, len(complete))
	twos := make([]float64, len(complete))
	for i := range ones {
		ones[i], twos[i] = 1, 2
	}
	for _, f := range []*stats.MixedFit{cf, rc, ri} {
		for _, w := range [][]float64{ones, twos} {
			got := f.Reweighted(w)
			for j := range got {
				if math.Abs(got[j]-f.Beta[j]) > 1e-12 {
					t.Errorf("%s: weights %v…: β[%d] %.15g, want Beta %.15g", f.Method, w[0], j, got[j], f.Beta[j])
				}
			}
		}
	}
	// On complete data a replicate is the mean of the resampled
	// per-question coefficients: exactly for the closed form, to rounding
	// for REML (its G_i are equal up to summation order).
	for b, w := range stats.QuestionWeights(questionIDs(len(complete)), 20, 3) {
		want := make([]float64, p)
		for i, wi := range w {
			for j := range want {
				want[j] += wi * cf.ClusterBeta[i][j] / sum(w)
			}
		}
		for _, c := range []struct {
			f   *stats.MixedFit
			tol float64
		}{{cf, 1e-13}, {rc, 1e-9}} {
			got := c.f.Reweighted(w)
			for j := range want {
				if math.Abs(got[j]-want[j]) > c.tol {
					t.Errorf("%s replicate %d β[%d]: %.15g, mean of resampled OLS %.15g", c.f.Method, b, j, got[j], want[j])
				}
			}
		}
	}
	// Incomplete data: replicates vary around Beta with a spread like the
	// SEs (a loose check that the weights enter the right way round).
	reps := stats.QuestionWeights(questionIDs(len(incomplete)), 400, 4)
	for j := 1; j < p; j++ {
		var s, ss float64
		for _, w := range reps {
			v := ri.Reweighted(w)[j]
			s += v
			ss += v * v
		}
		n := float64(len(reps))
		mean, sd := s/n, math.Sqrt((ss-s*s/n)/(n-1))
		if math.Abs(mean-ri.Beta[j]) > 0.3*ri.SE[j] || sd < 0.7*ri.SE[j] || sd > 1.4*ri.SE[j] {
			t.Errorf("β[%d]: bootstrap mean %.4f sd %.4f; fit %.4f ± %.4f", j, mean, sd, ri.Beta[j], ri.SE[j])
		}
	}
}

func questionIDs(m int) []int {
	ids := make([]int, m)
	for i := range ids {
		ids[i] = i
	}
	return ids
}

func sum(w []float64) float64 {
	s := 0.0
	for _, v := range w {
		s += v
	}
	return s
}

func TestQuantile(t *testing.T) {
	// R: quantile(c(1, 2, 4, 8, 16), c(0, .1, .25, .5, .9, 1), type = 7)
	//    = 1.0 1.4 2.0 4.0 12.8 16.0
	x := []float64{1, 2, 4, 8, 16}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.1, 1.4}, {0.25, 2}, {0.5, 4}, {0.9, 12.8}, {1, 16}} {
		if got := stats.Quantile(x, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := stats.Quantile([]float64{3}, 0.3); got != 3 {
		t.Errorf("one value: %v", got)
	}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		if got := stats.Quantile(x, bad); !math.IsNaN(got) {
			t.Errorf("Quantile(%v) = %v, want NaN", bad, got)
		}
	}
	if got := stats.Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("empty: %v", got)
	}
}
