package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// For one effect the test is the t test: p = 2·P(T > |est/se|) with
// m − 1 degrees of freedom.
func TestZeroTestOneEffectIsTheTTest(t *testing.T) {
	const m = 70
	est, se := 0.31, 0.12
	want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: m - 1}.Survival(est/se)
	if got := stats.ZeroTestP([]float64{est}, []float64{se * se}, m); math.Abs(got-want) > 1e-12 {
		t.Errorf("p = %v, want %v", got, want)
	}
	if got := stats.ZeroTestP([]float64{0, 0}, []float64{1, 0, 0, 1}, m); got != 1 {
		t.Errorf("zero estimates: p = %v, want 1", got)
	}
	if got := stats.ZeroTestP([]float64{1, 1}, []float64{1, 1, 1, 1}, m); !math.IsNaN(got) {
		t.Errorf("singular covariance: p = %v, want NaN", got)
	}
}

// Hotelling's test is exact for the mean of m normal vectors: at level
// 0.05 it rejects a true zero in 5% of samples (4,000 samples of m = 70
// correlated 4-vectors: binomial SE 0.34 points).
func TestZeroTestSize(t *testing.T) {
	const m, k = 70, 4
	n := 4000
	if testing.Short() {
		n = 800
	}
	r := rand.New(rand.NewPCG(3, 4))
	rejected := 0
	for range n {
		rows := make([][]float64, m)
		for i := range rows {
			s := r.NormFloat64()
			rows[i] = make([]float64, k)
			for j := range rows[i] {
				rows[i][j] = float64(j+1) * (0.6*s + 0.8*r.NormFloat64())
			}
		}
		mean, cov := stats.MeanCov(rows, k)
		for i := range cov {
			cov[i] /= m
		}
		if stats.ZeroTestP(mean, cov, m) <= 0.05 {
			rejected++
		}
	}
	rate := float64(rejected) / float64(n)
	t.Logf("rejected a true zero in %.2f%% of %d samples", 100*rate, n)
	if tol := 3 * math.Sqrt(0.05*0.95/float64(n)); math.Abs(rate-0.05) > tol {
		t.Errorf("size %.3f, want 0.05 ± %.3f", rate, tol)
	}
}
