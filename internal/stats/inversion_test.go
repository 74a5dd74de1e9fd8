package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// seminorm is Σ_g |W_g·β|.
func seminorm(W [][]float64, beta []float64) float64 {
	v := 0.0
	for _, w := range W {
		s := 0.0
		for i := range w {
			s += w[i] * beta[i]
		}
		v += math.Abs(s)
	}
	return v
}

// lowerChol is the lower Cholesky factor of a k×k covariance.
func lowerChol(cov []float64, k int) []float64 {
	l := make([]float64, k*k)
	for j := range k {
		d := cov[j*k+j]
		for m := range j {
			d -= l[j*k+m] * l[j*k+m]
		}
		l[j*k+j] = math.Sqrt(d)
		for i := j + 1; i < k; i++ {
			s := cov[i*k+j]
			for m := range j {
				s -= l[i*k+m] * l[j*k+m]
			}
			l[i*k+j] = s / l[j*k+j]
		}
	}
	return l
}

// randomCov is a random k×k covariance with unequal scales and
// correlations.
func randomCov(r *rand.Rand, k int) []float64 {
	a := make([]float64, k*k)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	cov := make([]float64, k*k)
	for i := range k {
		for j := range k {
			for m := range k {
				cov[i*k+j] += a[i*k+m] * a[j*k+m]
			}
		}
		cov[i*k+i] += 0.1
	}
	return cov
}

// The smallest seminorm over an ellipsoid: for one coefficient it is
// |b| − r·SE in closed form; over two it is the minimum over a fine
// sweep of the ellipsoid's boundary (200,000 points: to 1e-4 at a kink); and in seven dimensions
// with the composite's shape (14 rows) it certifies its value (a dual
// bound within 1e-9) and no point of the ellipsoid a random search finds
// is lower. Zero whenever the ellipsoid holds 0.
func TestSeminormMin(t *testing.T) {
	for _, tc := range []struct{ b, se, w, r, want float64 }{
		{3, 1, 1, 2, 1}, {-3, 1, 1, 2, 1}, {5, 0.5, 0.1, 1.96, 0.1 * (5 - 0.98)}, {1, 1, 1, 2, 0},
	} {
		got, ok := stats.SeminormMin([]float64{tc.b}, []float64{tc.se * tc.se}, [][]float64{{tc.w}}, tc.r)
		if !ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("b %v se %v w %v r %v: %v %v, want %v", tc.b, tc.se, tc.w, tc.r, got, ok, tc.want)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	// Gender's three gaps over two coefficients.
	W2 := [][]float64{{1.0 / 3, 0}, {0, 1.0 / 3}, {-1.0 / 3, 1.0 / 3}}
	for trial := range 300 {
		b := []float64{3 * r.NormFloat64(), 3 * r.NormFloat64()}
		cov := randomCov(r, 2)
		rad := 1 + 2*r.Float64()
		got, ok := stats.SeminormMin(b, cov, W2, rad)
		l := lowerChol(cov, 2)
		want := math.Inf(1)
		if t2 := stats.T2(b, cov); t2 <= rad*rad {
			want = 0
		} else {
			const n = 200000
			for i := range n {
				th := 2 * math.Pi * float64(i) / n
				u0, u1 := rad*math.Cos(th), rad*math.Sin(th)
				want = math.Min(want, seminorm(W2, []float64{b[0] + l[0]*u0, b[1] + l[2]*u0 + l[3]*u1}))
			}
		}
		// The sweep's points are feasible, so none is below the
		// minimum; at a kink it misses it by O(step).
		if !ok || got > want+1e-9 || got < want-1e-4 {
			t.Fatalf("trial %d: b %v cov %v r %v: %v %v, want %v", trial, b, cov, rad, got, ok, want)
		}
	}
	// The composite: one row per gap over seven coefficients.
	var W7 [][]float64
	W7 = append(W7, []float64{1.0 / 3, 0, 0, 0, 0, 0, 0})
	for _, g := range [][2]int{{1, -1}, {2, -1}, {2, 1}} { // gender: female, non-binary, non-binary − female
		row := make([]float64, 7)
		row[g[0]] = 1.0 / 9
		if g[1] >= 0 {
			row[g[1]] = -1.0 / 9
		}
		W7 = append(W7, row)
	}
	for i := 3; i <= 7; i++ { // race: four against white, six between
		for j := 3; j < i; j++ {
			row := make([]float64, 7)
			if i < 7 {
				row[i] = 1.0 / 30
			}
			if j > 3 {
				row[j-1] = -1.0 / 30
			}
			if i < 7 || j > 3 {
				W7 = append(W7, row)
			}
		}
	}
	for trial := range 200 {
		b := make([]float64, 7)
		for i := range b {
			b[i] = 2 * r.NormFloat64()
		}
		cov := randomCov(r, 7)
		rad := 4.07
		got, ok := stats.SeminormMin(b, cov, W7, rad)
		if !ok {
			t.Fatalf("trial %d: failed", trial)
		}
		if stats.T2(b, cov) <= rad*rad {
			if got != 0 {
				t.Fatalf("trial %d: the ellipsoid holds 0, minimum %v", trial, got)
			}
			continue
		}
		// A feasible point with that value: the minimiser is on the
		// boundary; search the boundary near the best of many points
		// for anything lower.
		l := lowerChol(cov, 7)
		point := func(u []float64) []float64 {
			n := 0.0
			for _, x := range u {
				n += x * x
			}
			beta := make([]float64, 7)
			for i := range 7 {
				beta[i] = b[i]
				for j := 0; j <= i; j++ {
					beta[i] += rad * l[i*7+j] * u[j] / math.Sqrt(n)
				}
			}
			return beta
		}
		best, bu := math.Inf(1), make([]float64, 7)
		for range 20000 {
			u := make([]float64, 7)
			for i := range u {
				u[i] = r.NormFloat64()
			}
			if v := seminorm(W7, point(u)); v < best {
				best, bu = v, u
			}
		}
		for step := 0.3; step > 1e-7; step /= 2 {
			for range 400 {
				u := make([]float64, 7)
				for i := range u {
					u[i] = bu[i] + step*r.NormFloat64()
				}
				if v := seminorm(W7, point(u)); v < best {
					best, bu = v, u
				}
			}
		}
		if got > best+1e-9*(1+best) {
			t.Fatalf("trial %d: minimum %v, but a point of the ellipsoid has %v", trial, got, best)
		}
	}
}
