package stats

import "gonum.org/v1/gonum/mat"

// Linear algebra by gonum/mat, on p×p row-major slices (symmetric matrices
// stored in full), everywhere but the two hot loops that have their own
// kernels (dense.go, which says why).
//
// gonum reports a condition number above 1e16 as an error from the solves
// and the inverse, but still returns the result; like the rest of this
// package, these helpers return it too and leave conditioning to the caller
// (a singular matrix is caught where the factorisation fails).

// spdFactor factorises the symmetric positive-definite a (p×p, not
// modified) or reports false if it is not positive definite.
func spdFactor(a []float64, p int) (*mat.Cholesky, bool) {
	c := new(mat.Cholesky)
	return c, c.Factorize(mat.NewSymDense(p, a))
}

// spdSolve returns A⁻¹b for the A that c factorises.
func spdSolve(c *mat.Cholesky, b []float64) []float64 {
	x := mat.NewVecDense(len(b), nil)
	_ = c.SolveVecTo(x, mat.NewVecDense(len(b), b)) // see above
	return x.RawVector().Data
}

// spdInverse returns A⁻¹ for the A that c factorises.
func spdInverse(c *mat.Cholesky) []float64 {
	var inv mat.SymDense
	_ = c.InverseTo(&inv) // see above
	return mat.DenseCopyOf(&inv).RawMatrix().Data
}

// lowerFactor returns the lower-triangular L (A = LL') for the A that c
// factorises.
func lowerFactor(c *mat.Cholesky) []float64 {
	var l mat.TriDense
	c.LTo(&l)
	return mat.DenseCopyOf(&l).RawMatrix().Data
}

// identity returns the n×n identity matrix.
func identity(n int) []float64 {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		a[i*n+i] = 1
	}
	return a
}
