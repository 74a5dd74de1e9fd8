package stats

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Linear algebra on p×p row-major slices (symmetric matrices stored in
// full), everywhere but the two hot loops that have their own kernels
// (dense.go, which says why).
//
// The Cholesky factorisation, solve and inverse are gonum's LAPACK
// (lapack64.Potrf, Potrs, Potri), called exactly as mat.Cholesky calls
// them, so every result is mat.Cholesky's to the bit
// (TestCholeskyMatchesMat). What mat.Cholesky adds is left out: it
// estimates the condition number on every Factorize (Lansy and Pocon,
// two thirds of its time on these small matrices) and copies through its
// matrix types; the condition number only ever made the solves and the
// inverse report an error beside a result they still returned, which
// this package ignored. Conditioning is the caller's business: a
// singular matrix is caught where the factorisation fails.

// cholesky is the factorisation A = UᵀU of a symmetric positive-definite
// n×n matrix: U upper triangular, row-major with stride n (the strict
// lower triangle of u is not used).
type cholesky struct {
	n int
	u []float64
}

// spdFactor factorises the symmetric positive-definite a (p×p, not
// modified) or reports false if it is not positive definite.
func spdFactor(a []float64, p int) (*cholesky, bool) {
	c := &cholesky{}
	return c, c.factorize(a, p)
}

// factorize is spdFactor into c, reusing its storage.
func (c *cholesky) factorize(a []float64, p int) bool {
	if len(a) != p*p {
		panic("stats: spdFactor: matrix is not p×p")
	}
	if cap(c.u) < p*p {
		c.u = make([]float64, p*p)
	}
	c.n, c.u = p, c.u[:p*p]
	// The upper triangle, as mat.Cholesky copies it from a SymDense.
	for i := 0; i < p; i++ {
		copy(c.u[i*p+i:i*p+p], a[i*p+i:i*p+p])
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: p, Stride: p, Data: c.u})
	return ok
}

func (c *cholesky) tri() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: c.n, Stride: c.n, Data: c.u}
}

// spdSolve returns A⁻¹b for the A that c factorises.
func spdSolve(c *cholesky, b []float64) []float64 {
	return c.solveTo(make([]float64, len(b)), b)
}

// solveTo writes A⁻¹b into dst (len n, not aliasing b unless equal) and
// returns it.
func (c *cholesky) solveTo(dst, b []float64) []float64 {
	copy(dst, b)
	lapack64.Potrs(c.tri(), blas64.General{Rows: c.n, Cols: 1, Stride: 1, Data: dst})
	return dst
}

// spdInverse returns A⁻¹ for the A that c factorises.
func spdInverse(c *cholesky) []float64 {
	return c.inverseTo(make([]float64, c.n*c.n))
}

// inverseTo writes A⁻¹ (in full) into dst (n×n) and returns it.
func (c *cholesky) inverseTo(dst []float64) []float64 {
	n := c.n
	dst = dst[:n*n]
	for i := 0; i < n; i++ {
		copy(dst[i*n+i:i*n+n], c.u[i*n+i:i*n+n])
	}
	lapack64.Potri(blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: n, Data: dst})
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			dst[i*n+j] = dst[j*n+i]
		}
	}
	return dst
}

// lowerFactor returns the lower-triangular L (A = LL') for the A that c
// factorises.
func lowerFactor(c *cholesky) []float64 {
	return c.lowerTo(make([]float64, c.n*c.n))
}

// lowerTo writes L = Uᵀ (zeros above the diagonal) into dst (n×n) and
// returns it.
func (c *cholesky) lowerTo(dst []float64) []float64 {
	n := c.n
	dst = dst[:n*n]
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j <= i {
				dst[i*n+j] = c.u[j*n+i]
			} else {
				dst[i*n+j] = 0
			}
		}
	}
	return dst
}

// logDet is log det A, summed as mat.Cholesky.LogDet sums it.
func (c *cholesky) logDet() float64 {
	var det float64
	for i := 0; i < c.n; i++ {
		det += 2 * math.Log(c.u[i*c.n+i])
	}
	return det
}

// identity returns the n×n identity matrix.
func identity(n int) []float64 {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		a[i*n+i] = 1
	}
	return a
}
