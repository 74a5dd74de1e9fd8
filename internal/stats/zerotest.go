package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ZeroTestP is the p-value of the test that a vector of k effects is zero
// all together: est are the estimates, cov their covariance (k×k,
// row-major; the covariance of the estimates, S/m for a mean of m
// independent per-question estimates with sample covariance S). It is
// Hotelling's T² = est′ cov⁻¹ est, referred to F(k, m − k) as
// (m − k) / (k (m − 1)) · T², which is exact when the estimates are the
// mean of m independent normal vectors; for k = 1 it is the two-sided t
// test with m − 1 degrees of freedom, so it agrees with a t(m − 1)
// interval excluding zero. With m ≤ k it falls back to χ²(k). A covariance
// that is not positive definite gives NaN: no test.
func ZeroTestP(est, cov []float64, m int) float64 {
	k := len(est)
	if k == 0 || len(cov) != k*k {
		return math.NaN()
	}
	zero := true
	for _, e := range est {
		zero = zero && e == 0
	}
	if zero {
		return 1
	}
	c, ok := spdFactor(cov, k)
	if !ok {
		return math.NaN()
	}
	x := spdSolve(c, est)
	t2 := 0.0
	for i := range est {
		t2 += est[i] * x[i]
	}
	if !(t2 >= 0) {
		return math.NaN()
	}
	if m <= k {
		return distuv.ChiSquared{K: float64(k)}.Survival(t2)
	}
	f := float64(m-k) / (float64(k) * float64(m-1)) * t2
	return distuv.F{D1: float64(k), D2: float64(m - k)}.Survival(f)
}
