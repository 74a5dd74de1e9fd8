package stats

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Least squares of a line through x = 1..5, y = (1, 3, 2, 5, 4), worked
// by hand: Sxx = 10, Sxy = 8, slope 0.8, intercept 0.6, RSS 3.6 on 3 df,
// s² = 1.2, SE(slope) = √0.12, SE(intercept) = √(1.2 (1/5 + 9/10)) =
// √1.32; the Wald test of the slope is the t test (t = 2.309, p = 0.104).
func TestOLSAndWald(t *testing.T) {
	X := []float64{1, 1, 1, 2, 1, 3, 1, 4, 1, 5}
	y := []float64{1, 3, 2, 5, 4}
	b, cov, df, ok := OLS(X, 2, y)
	if !ok || df != 3 {
		t.Fatal(ok, df)
	}
	for _, c := range []struct{ got, want, tol float64 }{
		{b[0], 0.6, 1e-12}, {b[1], 0.8, 1e-12},
		{cov[0], 1.32, 1e-12}, {cov[3], 0.12, 1e-12},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("got %v, want %v", c.got, c.want)
		}
	}
	p := WaldP(b[1:], cov[3:], df)
	tt := b[1] / math.Sqrt(cov[3])
	want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 3}.Survival(tt)
	if math.Abs(p-want) > 1e-12 || math.Abs(p-0.104) > 1e-3 {
		t.Errorf("slope p %v, t test %v", p, want)
	}
	if p0 := WaldP([]float64{0, 0}, cov, df); p0 != 1 {
		t.Errorf("zero estimates: p %v", p0)
	}
	if pc := WaldP(b[1:], cov[3:], 0); pc >= p {
		t.Errorf("χ² p %v not below the t test's %v", pc, p)
	}
	if _, _, _, ok := OLS([]float64{1, 1, 1, 1}, 2, []float64{1, 2}); ok {
		t.Error("collinear columns fitted")
	}
}

// NormalDraws are a fixed function of their inputs (the standard normals
// drawn again give the same draws) with the mean and
// covariance asked for.
func TestNormalDraws(t *testing.T) {
	mean := []float64{1, -2, 0.5}
	cov := []float64{4, 1, 0, 1, 2, 0.5, 0, 0.5, 1}
	d, ok := NormalDraws(mean, cov, 20000, 7)
	if !ok {
		t.Fatal("not drawn")
	}
	normalsMu.Lock()
	clear(normalsCache)
	normalsMu.Unlock()
	again, _ := NormalDraws(mean, cov, 20000, 7)
	other, _ := NormalDraws(mean, cov, 20000, 8)
	if again[123][1] != d[123][1] || other[123][1] == d[123][1] {
		t.Error("draws not a function of the seed")
	}
	rows := make([][]float64, len(d))
	copy(rows, d)
	m, c := MeanCov(rows, 3)
	for i := range mean {
		if math.Abs(m[i]-mean[i]) > 4*math.Sqrt(cov[i*3+i]/20000) {
			t.Errorf("mean %d: %v, want %v", i, m[i], mean[i])
		}
	}
	for i := range cov {
		if math.Abs(c[i]-cov[i]) > 0.06*math.Max(1, math.Abs(cov[i])) {
			t.Errorf("cov %d: %v, want %v", i, c[i], cov[i])
		}
	}
	if _, ok := NormalDraws(mean, []float64{1, 2, 0, 2, 1, 0, 0, 0, 1}, 1, 1); ok {
		t.Error("drew from a covariance that is not positive definite")
	}
}

// QuantileUnsorted agrees with Quantile on sorted copies, ties and all.
func TestQuantileUnsorted(t *testing.T) {
	for n := 1; n < 60; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64((i*37 + n*11) % 13) // ties
		}
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		for _, q := range []float64{0, 0.025, 0.3, 0.5, 0.975, 1} {
			c := append([]float64(nil), xs...)
			if got, want := QuantileUnsorted(c, q), Quantile(s, q); got != want {
				t.Errorf("n %d q %v: %v, want %v", n, q, got, want)
			}
		}
	}
}

// TailQuantiles gives QuantileUnsorted's two values to the bit, and leaves
// xs as it was, on samples with and without ties of every size up to
// 2,100 (a question's 500 draws, a run's 2,000 replicates), at the views'
// 2.5% and 97.5% and at quantiles further in (which fall back to the
// selections) or at the ends.
func TestTailQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	pairs := [][2]float64{{0.025, 0.975}, {0, 1}, {0.01, 0.99}, {0.3, 0.7}, {0, 0}, {1, 1}, {0.025, 0.5}}
	for n := 1; n <= 2100; n += 1 + n/20 {
		for _, ties := range []bool{false, true} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = rng.NormFloat64()
				if ties {
					xs[i] = math.Round(2 * xs[i])
				}
			}
			for _, q := range pairs {
				orig := append([]float64(nil), xs...)
				c := append([]float64(nil), xs...)
				wantLo := QuantileUnsorted(c, q[0])
				wantHi := QuantileUnsorted(c, q[1])
				lo, hi := TailQuantiles(xs, q[0], q[1])
				if math.Float64bits(lo) != math.Float64bits(wantLo) || math.Float64bits(hi) != math.Float64bits(wantHi) {
					t.Fatalf("n %d ties %v q %v: %v %v, want %v %v", n, ties, q, lo, hi, wantLo, wantHi)
				}
				if inTails := n >= 2 && int(math.Floor(float64(n-1)*q[0]))+2 <= tailMax && n-int(math.Floor(float64(n-1)*q[1])) <= tailMax; inTails {
					for i := range xs {
						if xs[i] != orig[i] {
							t.Fatalf("n %d q %v: xs reordered", n, q)
						}
					}
				}
			}
		}
	}
	nan := []float64{3, math.NaN(), 1, 2}
	c := append([]float64(nil), nan...)
	wantLo := QuantileUnsorted(c, 0.025)
	wantHi := QuantileUnsorted(c, 0.975)
	if lo, hi := TailQuantiles(nan, 0.025, 0.975); !(same(lo, wantLo) && same(hi, wantHi)) {
		t.Errorf("with a NaN: %v %v, the selections give %v %v", lo, hi, wantLo, wantHi)
	}
}

func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestAddLowerSparse: the sums over a row's nonzero products are the sums
// over every product, to the bit, on rows half zeros (as design rows are),
// with negative values and -0 among them; a sum over every product is the
// reference OLS and crossprods used before.
func TestAddLowerSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const p, n = 11, 400
	sparse, dense := make([]float64, p*p), make([]float64, p*p)
	nz := make([]int, p)
	for r := 0; r < n; r++ {
		x := make([]float64, p)
		for j := range x {
			switch rng.IntN(4) {
			case 0, 1:
			case 2:
				x[j] = math.Copysign(0, -1)
			default:
				x[j] = rng.NormFloat64()
			}
		}
		addLowerSparse(sparse, x, p, nz)
		for j := 0; j < p; j++ {
			for k := 0; k <= j; k++ {
				dense[j*p+k] += x[j] * x[k]
			}
		}
	}
	for i := range dense {
		if math.Float64bits(sparse[i]) != math.Float64bits(dense[i]) {
			t.Errorf("element %d: sparse %v, every product %v", i, sparse[i], dense[i])
		}
	}
}
