package stats_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// The bootstrap's stream is PCG-DXSM: these are the first outputs of
// NewPCG(1, 2) published in Go's own tests. A change here means every
// bootstrap interval on the site would change.
func TestPCGKnownOutputs(t *testing.T) {
	src := rand.NewPCG(1, 2)
	for i, want := range []uint64{0xc4f5a58656eef510, 0x9dcec3ad077dec6c, 0xc8d04605312f8088} {
		if got := src.Uint64(); got != want {
			t.Fatalf("output %d: %#x, want %#x", i, got, want)
		}
	}
}

// Golden draws: a change of algorithm (stream, seeding or bounded draw) is
// caught here.
func TestClusterWeightsGolden(t *testing.T) {
	want := [][]float64{
		{2, 2, 1, 1, 2, 0, 0, 1, 2, 0, 1, 0},
		{1, 0, 2, 1, 0, 1, 1, 3, 0, 1, 0, 2},
		{1, 3, 1, 0, 1, 1, 3, 1, 0, 1, 0, 0},
	}
	if diff := cmp.Diff(want, stats.ClusterWeights(12, 3, 2024)); diff != "" {
		t.Errorf("ClusterWeights(12, 3, 2024) changed (-golden +got):\n%s", diff)
	}
}

func TestClusterWeightsDeterministic(t *testing.T) {
	const m, B = 70, 2000
	a := stats.ClusterWeights(m, B, 7)
	// slices.Equal rather than cmp: reflection over 140,000 values is slow.
	same := func(x, y [][]float64) bool { return slices.EqualFunc(x, y, slices.Equal) }
	if !same(a, stats.ClusterWeights(m, B, 7)) {
		t.Fatal("same seed, different draws")
	}
	if same(a, stats.ClusterWeights(m, B, 8)) {
		t.Fatal("seeds 7 and 8 give the same draws")
	}
	// Each replicate draws m clusters; each cluster is drawn once per
	// replicate on average (binomial(m, 1/m) counts).
	mean := make([]float64, m)
	for _, w := range a {
		tot := 0.0
		for i, v := range w {
			tot += v
			mean[i] += v / B
		}
		if tot != m {
			t.Fatalf("a replicate draws %v clusters, want %d", tot, m)
		}
	}
	sd := math.Sqrt((1 - 1.0/m) / B)
	for i, v := range mean {
		if math.Abs(v-1) > 5*sd {
			t.Errorf("cluster %d drawn %.3f times per replicate on average, want 1 ± %.3f", i, v, 5*sd)
		}
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
	for b, w := range stats.ClusterWeights(len(complete), 20, 3) {
		want := make([]float64, p)
		for i, wi := range w {
			for j := range want {
				want[j] += wi * cf.ClusterBeta[i][j] / float64(len(complete))
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
	reps := stats.ClusterWeights(len(incomplete), 400, 4)
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
