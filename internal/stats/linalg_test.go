package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The factorisation, solve, inverse, factor and log-determinant are
// mat.Cholesky's to the bit (they call the same LAPACK routines without
// its condition estimate), on well- and badly-conditioned matrices of every
// size up to 9, and both refuse a matrix that is not positive definite.
func TestCholeskyMatchesMat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	same := func(what string, got, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s[%d]: %v, mat gives %v", what, i, got[i], want[i])
			}
		}
	}
	for trial := range 3000 {
		n := 1 + trial%9
		// A = BBᵀ + ridge·I, some nearly singular.
		b := make([]float64, n*n)
		for i := range b {
			b[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
		}
		a := make([]float64, n*n)
		ridge := math.Pow(10, float64(rng.IntN(12)-10))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					a[i*n+j] += b[i*n+k] * b[j*n+k]
				}
			}
			a[i*n+i] += ridge
		}
		if trial%10 == 0 {
			a[0] = -a[0] // not positive definite
		}
		var want mat.Cholesky
		okWant := want.Factorize(mat.NewSymDense(n, append([]float64(nil), a...)))
		got, ok := spdFactor(a, n)
		if ok != okWant {
			t.Fatalf("trial %d: factorised %v, mat %v", trial, ok, okWant)
		}
		if !ok {
			continue
		}
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = rng.NormFloat64()
		}
		x := mat.NewVecDense(n, nil)
		_ = want.SolveVecTo(x, mat.NewVecDense(n, append([]float64(nil), rhs...)))
		same("solve", spdSolve(got, rhs), x.RawVector().Data)
		var inv mat.SymDense
		_ = want.InverseTo(&inv)
		same("inverse", spdInverse(got), mat.DenseCopyOf(&inv).RawMatrix().Data)
		var l mat.TriDense
		want.LTo(&l)
		same("lower factor", lowerFactor(got), mat.DenseCopyOf(&l).RawMatrix().Data)
		same("log det", []float64{got.logDet()}, []float64{want.LogDet()})
	}
}
