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
	t2, p, done := quadForm(est, cov)
	if done {
		return p
	}
	if m <= k {
		return distuv.ChiSquared{K: float64(k)}.Survival(t2)
	}
	f := float64(m-k) / (float64(k) * float64(m-1)) * t2
	return distuv.F{D1: float64(k), D2: float64(m - k)}.Survival(f)
}

// quadForm is the statistic ZeroTestP and WaldP share, T² = est′ cov⁻¹ est
// for k = len(est) effects with covariance cov (k×k, row-major). When the
// test's answer needs no distribution, done is true and p is it: 1 when
// every estimate is zero, NaN when the sizes disagree, cov is not positive
// definite or T² is not a non-negative number.
func quadForm(est, cov []float64) (t2, p float64, done bool) {
	k := len(est)
	if k == 0 || len(cov) != k*k {
		return 0, math.NaN(), true
	}
	zero := true
	for _, e := range est {
		zero = zero && e == 0
	}
	if zero {
		return 0, 1, true
	}
	c, ok := spdFactor(cov, k)
	if !ok {
		return 0, math.NaN(), true
	}
	x := spdSolve(c, est)
	for i := range est {
		t2 += est[i] * x[i]
	}
	if !(t2 >= 0) {
		return 0, math.NaN(), true
	}
	return t2, 0, false
}
