package stats

import "math"

// Dense kernels for the p×p (p = 8) matrices of the two hot loops, row-major
// in plain slices. They are here only for speed; everything else uses
// gonum (linalg.go: its LAPACK routines, as gonum/mat calls them), and
// should.
//
//   - The REML objective (reml.devAt and reml.gradient) does a dozen of them
//     per question per evaluation, several hundred thousand per fit. Written
//     with gonum/mat (Dense.Mul, Cholesky.Factorize/SolveTo/InverseTo,
//     reused receivers) it took 2.4 times as long per evaluation (265 µs
//     against 110 µs on a 30-question run), with 213 allocations instead of
//     none: mat's shape and aliasing checks, its generic paths for symmetric
//     and transposed operands and the condition number that
//     Cholesky.Factorize always estimates cost more than the 8×8 arithmetic.
//   - MixedFit.Reweighted factorises one 8×8 matrix per bootstrap replicate,
//     2,000 per scored run and 4,000 per paired comparison (internal/score).
//     With mat's Cholesky, 1,000 replicates took 8.4 ms instead of 5 ms.

// chol overwrites the symmetric positive-definite a (n×n) with its lower
// Cholesky factor L (a = LL'); the strict upper triangle is zeroed. It
// reports false, leaving a partly overwritten, if a is not positive definite.
func chol(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := 0; k < j; k++ {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / d
		}
		for k := j + 1; k < n; k++ {
			a[j*n+k] = 0
		}
	}
	return true
}

// cholLogDet is log det(LL') for a Cholesky factor L.
func cholLogDet(l []float64, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += math.Log(l[i*n+i])
	}
	return 2 * s
}

// cholSolveVec overwrites b with (LL')⁻¹b.
func cholSolveVec(l []float64, n int, b []float64) {
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i*n+k] * b[k]
		}
		b[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * b[k]
		}
		b[i] = s / l[i*n+i]
	}
}

// cholSolveRows overwrites each of the r rows of b (r×n) with (LL')⁻¹ times
// that row: for symmetric LL' this is b(LL')⁻¹.
func cholSolveRows(l []float64, n int, b []float64, r int) {
	for i := 0; i < r; i++ {
		cholSolveVec(l, n, b[i*n:(i+1)*n])
	}
}

// cholInverse writes (LL')⁻¹ into out (n×n).
func cholInverse(l []float64, n int, out []float64) {
	for i := range out[:n*n] {
		out[i] = 0
	}
	for i := 0; i < n; i++ {
		out[i*n+i] = 1
	}
	cholSolveRows(l, n, out, n)
}

// mul writes a·b into out, all n×n; out must not alias a or b.
func mul(out, a, b []float64, n int) { mulStrided(out, a, n, 1, b, n) }

// mulTA writes a'·b into out, all n×n; out must not alias a or b.
func mulTA(out, a, b []float64, n int) { mulStrided(out, a, 1, n, b, n) }

// mulStrided writes A·b into out, where A[i][k] = a[i*rs+k*cs]: (n, 1) is a
// itself, (1, n) its transpose. Zeros of A are skipped (Λ is triangular).
func mulStrided(out, a []float64, rs, cs int, b []float64, n int) {
	for i := 0; i < n; i++ {
		oi := out[i*n : (i+1)*n]
		for j := range oi {
			oi[j] = 0
		}
		for k := 0; k < n; k++ {
			aik := a[i*rs+k*cs]
			if aik == 0 {
				continue
			}
			for j, v := range b[k*n : (k+1)*n] {
				oi[j] += aik * v
			}
		}
	}
}

// mulBT writes a·b' into out, all n×n; out must not alias a or b.
func mulBT(out, a, b []float64, n int) {
	for i := 0; i < n; i++ {
		ai := a[i*n : (i+1)*n]
		for j := 0; j < n; j++ {
			out[i*n+j] = dot(ai, b[j*n:(j+1)*n])
		}
	}
}

// mulVec writes a·x into out (a is n×n).
func mulVec(out, a, x []float64, n int) {
	for i := 0; i < n; i++ {
		out[i] = dot(a[i*n:(i+1)*n], x)
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// symmetrize replaces a (n×n) by (a+a')/2, removing rounding asymmetry.
func symmetrize(a []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			m := (a[i*n+j] + a[j*n+i]) / 2
			a[i*n+j], a[j*n+i] = m, m
		}
	}
}
