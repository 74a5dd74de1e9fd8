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
	t2, k, p, done := quadForm(est, cov)
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
// for the effects est with covariance cov (k×k, row-major), and the
// number of effects it tests. An effect whose variance is zero (at most
// ZeroTolerance²) is known: it leaves the test when its estimate is zero
// (within ZeroTolerance), and it makes the answer p = 0 when it is not.
// When the test's answer needs no distribution, done is true and p is it:
// 1 when every estimate is zero, NaN when the sizes disagree, the
// covariance of the effects left is not positive definite or T² is not a
// non-negative number.
func quadForm(est, cov []float64) (t2 float64, k int, p float64, done bool) {
	n := len(est)
	if n == 0 || len(cov) != n*n {
		return 0, 0, math.NaN(), true
	}
	var keep []int
	for i, e := range est {
		switch {
		case !(cov[i*n+i] <= ZeroTolerance*ZeroTolerance):
			keep = append(keep, i)
		case math.Abs(e) > ZeroTolerance:
			return math.Inf(1), 0, 0, true
		}
	}
	zero := true
	for _, i := range keep {
		zero = zero && math.Abs(est[i]) <= ZeroTolerance
	}
	if zero {
		return 0, 0, 1, true
	}
	k = len(keep)
	e, c := make([]float64, k), make([]float64, k*k)
	for a, i := range keep {
		e[a] = est[i]
		for b, j := range keep {
			c[a*k+b] = cov[i*n+j]
		}
	}
	f, ok := spdFactor(c, k)
	if !ok {
		return 0, 0, math.NaN(), true
	}
	x := spdSolve(f, e)
	for i := range e {
		t2 += e[i] * x[i]
	}
	if !(t2 >= 0) {
		return 0, 0, math.NaN(), true
	}
	return t2, k, 0, false
}

// ZeroTolerance is how far from zero an estimate, or its standard error,
// counts as zero in the tests of "all zero": a mean of coefficients that
// are each exactly zero (a decision run whose answers never depend on an
// attribute) comes out of floating-point sums at about 10⁻¹⁷, with a
// variance of about 10⁻³⁵, which Hotelling's statistic would read as an
// effect beyond doubt. No logit effect of 10⁻¹² is one.
const ZeroTolerance = 1e-12
