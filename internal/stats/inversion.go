package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// The lower end of an interval for a magnitude by inverting a test: the
// views are seminorms of the coefficients, V(β) = Σ_g |W_g·β| (a mean of
// absolute gaps, each gap a linear contrast), and the coefficients have a
// confidence ellipsoid E, the set of β that Hotelling's (or Wald's) test
// of "the coefficients are β" does not reject. The smallest V over E is
// below the true V whenever E holds the true β: with probability 1 − α,
// whatever the true β is, zero included. It is 0 exactly when E holds a
// β with every gap zero, that is (W of full column rank) when the test of
// "no gap at all" does not reject.

// HotellingRadius is the radius r of the 1 − α confidence ellipsoid of k
// effects estimated as the mean of m independent normal vectors, in the
// metric of their covariance: T² = est′ cov⁻¹ est ≤ r² exactly when
// ZeroTestP(est, cov, m) > α. With m ≤ k, the χ²(k) radius, as ZeroTestP.
func HotellingRadius(k, m int, alpha float64) float64 {
	if m <= k {
		return math.Sqrt(distuv.ChiSquared{K: float64(k)}.Quantile(1 - alpha))
	}
	f := distuv.F{D1: float64(k), D2: float64(m - k)}.Quantile(1 - alpha)
	return math.Sqrt(float64(k) * float64(m-1) / float64(m-k) * f)
}

// WaldRadius is the same for WaldP with df degrees of freedom: T² ≤ r²
// exactly when WaldP(est, cov, df) > α (df = 0: χ²(k)).
func WaldRadius(k, df int, alpha float64) float64 {
	if df <= 0 {
		return math.Sqrt(distuv.ChiSquared{K: float64(k)}.Quantile(1 - alpha))
	}
	return math.Sqrt(float64(k) * distuv.F{D1: float64(k), D2: float64(df)}.Quantile(1-alpha))
}

// T2 is est′ cov⁻¹ est, the statistic of ZeroTestP and WaldP (over the
// effects they test: quadForm): 0 when every estimate is zero, +∞ when
// one with no variance is not, NaN when the covariance is not positive
// definite.
func T2(est, cov []float64) float64 {
	t2, _, p, done := quadForm(est, cov)
	if done {
		switch {
		case p == 1:
			return 0
		case p == 0:
			return math.Inf(1)
		}
		return math.NaN()
	}
	return t2
}

// SeminormMin is the smallest value of V(β) = Σ_g |W_g·β| over the
// ellipsoid {β : (β − b)′ cov⁻¹ (β − b) ≤ r²}: b has k entries, cov is
// k×k row-major (positive definite), W holds G rows of k entries. ok is
// false when cov is not positive definite or the iteration fails.
//
// It is 0 when the ellipsoid holds 0. Otherwise a barrier method finds
// it, in whitened coordinates y with β = L y (cov = L L′, L lower
// triangular from the Cholesky factorisation): minimise Σ_g |M_g·y|
// (M_g = W_g L) over |y − z| ≤ r (z = L⁻¹ b), each |M_g·y| ≤ t_g a pair of
// linear constraints whose t_g is eliminated at the barrier's optimum, so
// that Newton's method runs on y alone, on
//
//	ψ_τ(y) = Σ_g h(τ M_g·y) − log(r² − |y − z|²),   h(u) = √(1 + u²) − log(1 + √(1 + u²)),
//
// for τ = 1/V(b), 10/V(b), … until the barrier's bound on how far the
// value is above the minimum, (2G + 1)/τ, is below 10⁻⁹ V(b). Each
// Newton step is damped by halving until ψ falls by a quarter of the
// step's decrement (within ψ's rounding); a τ's steps stop when the
// decrement is below 10⁻¹², or when no step of at least 10⁻¹² of
// Newton's lowers ψ, after at most 200 steps.
// The value returned is V at the last point, which lies in the ellipsoid,
// and it is certified: the barrier's dual point, polished, gives a lower
// bound on the minimum, and a value more than 10⁻⁶ V(b) above it is a
// failure (ok false). On the tests' problems the two are within
// 3·10⁻⁷ of the value.
func SeminormMin(b, cov []float64, W [][]float64, r float64) (float64, bool) {
	k, G := len(b), len(W)
	if len(cov) != k*k {
		return math.NaN(), false
	}
	l := append([]float64(nil), cov...)
	if !chol(l, k) {
		return math.NaN(), false
	}
	z := make([]float64, k)
	for i := range k {
		s := b[i]
		for j := range i {
			s -= l[i*k+j] * z[j]
		}
		z[i] = s / l[i*k+i]
	}
	if dot(z, z) <= r*r {
		return 0, true
	}
	M := make([][]float64, G)
	for g := range W {
		M[g] = make([]float64, k)
		for j := range k {
			for i := j; i < k; i++ {
				M[g][j] += W[g][i] * l[i*k+j]
			}
		}
	}
	value := func(y []float64) float64 {
		v := 0.0
		for g := range M {
			v += math.Abs(dot(M[g], y))
		}
		return v
	}
	scale := value(z)
	if !(scale > 0) || math.IsInf(scale, 0) {
		return math.NaN(), false
	}
	psi := func(y []float64, tau float64) float64 {
		d2 := 0.0
		for i := range y {
			d2 += (y[i] - z[i]) * (y[i] - z[i])
		}
		slack := r*r - d2
		if !(slack > 0) {
			return math.Inf(1)
		}
		v := -math.Log(slack)
		for g := range M {
			u := tau * dot(M[g], y)
			s := math.Sqrt(1 + u*u)
			v += s - math.Log(1+s)
		}
		return v
	}
	y := append([]float64(nil), z...)
	grad, hess := make([]float64, k), make([]float64, k*k)
	step, trial := make([]float64, k), make([]float64, k)
	bound := float64(2*G + 1)
	for tau := 1 / scale; ; tau *= 10 {
		if math.IsInf(tau, 0) {
			return math.NaN(), false
		}
		// ψ at y for this τ: computed once, then carried from the line
		// search's accepted point (the same y and τ, so the same value).
		f0 := psi(y, tau)
		for range 100 {
			d2 := 0.0
			for i := range y {
				d2 += (y[i] - z[i]) * (y[i] - z[i])
			}
			slack := r*r - d2
			// The Hessian's lower triangle only: chol reads no other.
			for i := range k {
				grad[i] = 2 * (y[i] - z[i]) / slack
				for j := range i + 1 {
					hess[i*k+j] = 4 * (y[i] - z[i]) * (y[j] - z[j]) / (slack * slack)
				}
				hess[i*k+i] += 2 / slack
			}
			for g := range M {
				u := tau * dot(M[g], y)
				s := math.Sqrt(1 + u*u)
				d1, dd := tau*u/(1+s), tau*tau/(s*(1+s))
				for i := range k {
					grad[i] += d1 * M[g][i]
					for j := range i + 1 {
						hess[i*k+j] += dd * M[g][i] * M[g][j]
					}
				}
			}
			if !chol(hess, k) {
				return math.NaN(), false
			}
			copy(step, grad)
			cholSolveVec(hess, k, step)
			dec := dot(grad, step)
			if math.IsNaN(dec) {
				return math.NaN(), false
			}
			// Centred: the decrement estimates twice ψ's distance from
			// its minimum, which ψ's rounding (ψ is about τ V) bounds
			// from below at large τ.
			t := 1.0
			round := 1e-14 * math.Abs(f0)
			if !(dec > 1e-12 && dec > round) {
				break
			}
			var f float64
			for t >= 1e-12 {
				for i := range y {
					trial[i] = y[i] - t*step[i]
				}
				if f = psi(trial, tau); f <= f0-0.25*t*dec+round {
					break
				}
				t /= 2
			}
			if t < 1e-12 {
				break
			}
			copy(y, trial)
			f0 = f
		}
		if bound/tau <= 1e-9*scale {
			// A certificate: on the central path the dual of the
			// constraints |M_g·y| ≤ t_g is s_g = h′(τ M_g·y) in (−1, 1),
			// and for any s in [−1, 1]^G, w = Σ_g s_g M_g gives the
			// lower bound w·z − r|w| on the minimum (w·y ≤ Σ_g |M_g·y|
			// for every y, and over the ball w·y ≥ w·z − r|w|),
			// raised by coordinate ascent.
			sv := make([]float64, G)
			for g := range M {
				u := tau * dot(M[g], y)
				sv[g] = u / (1 + math.Sqrt(1+u*u))
			}
			v := value(y)
			dual := polishDual(sv, M, z, r, v-1e-9*scale)
			if !(v-dual <= 1e-6*scale) {
				return math.NaN(), false
			}
			return v, true
		}
	}
}

// polishDual raises the dual bound max over s ∈ [−1, 1]^G of w(s)·z −
// r|w(s)|, w(s) = Σ_g s_g M_g, by cyclic coordinate ascent from s (each
// coordinate's best value in closed form), until it reaches target or
// stops rising; it returns the bound at the last s.
func polishDual(s []float64, M [][]float64, z []float64, r, target float64) float64 {
	k := len(z)
	w := make([]float64, k)
	for g := range M {
		for i := range w {
			w[i] += s[g] * M[g][i]
		}
	}
	mz := make([]float64, len(M))
	mm := make([]float64, len(M))
	for g := range M {
		mz[g], mm[g] = dot(M[g], z), dot(M[g], M[g])
	}
	bound := func() float64 { return dot(w, z) - r*math.Sqrt(dot(w, w)) }
	best := bound()
	for range 2000 {
		for g := range M {
			if mm[g] == 0 {
				continue
			}
			// w(t) = w0 + t M_g, w0 = w − s_g M_g: maximise
			// t·mz_g − r √(|w0|² + 2t w0·M_g + t² |M_g|²).
			q1 := dot(w, M[g]) - s[g]*mm[g]
			q0 := dot(w, w) - 2*s[g]*dot(w, M[g]) + s[g]*s[g]*mm[g]
			t := bestCoordinate(mz[g]/r, q0, q1, mm[g])
			if d := t - s[g]; d != 0 {
				for i := range w {
					w[i] += d * M[g][i]
				}
				s[g] = t
			}
		}
		b := bound()
		if b >= target || !(b > best) {
			return math.Max(b, best)
		}
		best = b
	}
	return best
}

// bestCoordinate maximises t·ρ − √(Q0 + 2tQ1 + t²Q2) over t ∈ [−1, 1]
// (Q0Q2 ≥ Q1², Q2 > 0): where the derivative, ρ − (Q1 + tQ2)/√(…), is
// zero, or at an end.
func bestCoordinate(rho, q0, q1, q2 float64) float64 {
	d := math.Max(q0*q2-q1*q1, 0)
	s2 := math.Sqrt(q2)
	var t float64
	switch {
	case rho >= s2:
		t = 1
	case rho <= -s2:
		t = -1
	default:
		t = (rho*math.Sqrt(d)/math.Sqrt(q2-rho*rho) - q1) / q2
	}
	return math.Max(-1, math.Min(1, t))
}
