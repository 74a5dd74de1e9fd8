package stats

import (
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// WaldP is the p-value of the Wald test that a vector of k effects is zero
// all together, from estimates est with covariance cov (k×k, row-major)
// estimated with df residual degrees of freedom: T² = est′ cov⁻¹ est, and
// T²/k referred to F(k, df), which is exact for least-squares coefficients
// under normal errors (for k = 1 it is the two-sided t test). df = 0
// means a known covariance (a likelihood fit's inverse information): T²
// referred to χ²(k). A covariance that is not positive definite gives NaN.
func WaldP(est, cov []float64, df int) float64 {
	t2, k, p, done := quadForm(est, cov)
	if done {
		return p
	}
	if df <= 0 {
		return distuv.ChiSquared{K: float64(k)}.Survival(t2)
	}
	return distuv.F{D1: float64(k), D2: float64(df)}.Survival(t2 / float64(k))
}

// maxSparseCols bounds the columns OLS sums sparsely (an index array on
// the stack).
const maxSparseCols = 16

// addLowerSparse adds the lower triangle of x x′ into A (p×p, row-major),
// summing only the products of x's nonzero values, each once: for a
// finite x these are the same sums as over every product, since a zero
// product leaves a sum as it is (a sum that starts at +0 is never −0).
// nz is a buffer for the nonzero values' indices (at least len(x) long).
func addLowerSparse(A, x []float64, p int, nz []int) {
	nz = nz[:0]
	for j, v := range x {
		if v != 0 {
			nz = append(nz, j)
		}
	}
	for ij, j := range nz {
		row := A[j*p : (j+1)*p]
		for _, k := range nz[:ij+1] {
			row[k] += x[j] * x[k]
		}
	}
}

// allFinite reports whether no value is NaN or infinite.
func allFinite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// OLS fits y on X (n×p, row-major) by least squares: the coefficients,
// their covariance s²(X′X)⁻¹ with s² = RSS/(n − p), and its degrees of
// freedom n − p; false when X′X is singular or n ≤ p.
func OLS(X []float64, p int, y []float64) (beta, cov []float64, df int, ok bool) {
	n := len(y)
	if n <= p || len(X) != n*p {
		return nil, nil, 0, false
	}
	xtx, xty := make([]float64, p*p), make([]float64, p)
	if p > maxSparseCols || !allFinite(X) {
		for i := 0; i < n; i++ {
			x := X[i*p : (i+1)*p]
			for a := range x {
				xty[a] += x[a] * y[i]
				for b := range x {
					xtx[a*p+b] += x[a] * x[b]
				}
			}
		}
	} else {
		// The same sums over the nonzero products of finite rows, each
		// once (a design row is half zeros, X′X symmetric, x[a]x[b] is
		// x[b]x[a]): addLowerSparse.
		var nz [maxSparseCols]int
		for i := 0; i < n; i++ {
			x := X[i*p : (i+1)*p]
			for a, v := range x {
				xty[a] += v * y[i]
			}
			addLowerSparse(xtx, x, p, nz[:])
		}
		for a := 0; a < p; a++ {
			for b := 0; b < a; b++ {
				xtx[b*p+a] = xtx[a*p+b]
			}
		}
	}
	c, ok := spdFactor(xtx, p)
	if !ok {
		return nil, nil, 0, false
	}
	beta = spdSolve(c, xty)
	rss := 0.0
	for i := 0; i < n; i++ {
		r := y[i] - dot(X[i*p:(i+1)*p], beta)
		rss += r * r
	}
	cov = spdInverse(c)
	df = n - p
	s2 := rss / float64(df)
	for i := range cov {
		cov[i] *= s2
	}
	return beta, cov, df, true
}

// NormalDraws returns R draws from the normal distribution with the
// given mean and covariance (p×p, row-major), a fixed function of (seed,
// mean, cov) on every platform: standard normals by the Box–Muller
// transform of SplitMix64 words of (seed, draw, coordinate), times the
// covariance's Cholesky factor. The standard normals of one (seed, R, p)
// are drawn once and shared by every call, so calls differ only by their
// mean and covariance. False when cov is not positive definite.
func NormalDraws(mean, cov []float64, R int, seed uint64) ([][]float64, bool) {
	p := len(mean)
	flat, ok := NormalDrawsFlat(nil, mean, cov, R, seed)
	if !ok {
		return nil, false
	}
	out := make([][]float64, R)
	for r := range out {
		out[r] = flat[r*p : (r+1)*p : (r+1)*p]
	}
	return out, true
}

// NormalDrawsFlat is NormalDraws into one row-major R×p slice, dst's array
// when it is large enough (a caller drawing for many questions reuses it).
func NormalDrawsFlat(dst, mean, cov []float64, R int, seed uint64) ([]float64, bool) {
	p := len(mean)
	c, ok := spdFactor(cov, p)
	if !ok {
		return nil, false
	}
	l := lowerFactor(c)
	z := standardNormals(seed, R, p)
	flat := slices.Grow(dst[:0], R*p)[:R*p]
	for r := 0; r < R; r++ {
		d, zr := flat[r*p:(r+1)*p], z[r*p:(r+1)*p]
		for i := 0; i < p; i++ {
			s := mean[i]
			li, zi := l[i*p:i*p+i+1], zr[:i+1]
			for j, lv := range li {
				s += lv * zi[j]
			}
			d[i] = s
		}
	}
	return flat, true
}

type normalsKey struct {
	seed uint64
	r, p int
}

var (
	normalsMu    sync.Mutex
	normalsCache = map[normalsKey][]float64{}
)

// standardNormals returns R×p standard normals (row-major) for seed,
// computed once per (seed, R, p).
func standardNormals(seed uint64, R, p int) []float64 {
	k := normalsKey{seed, R, p}
	normalsMu.Lock()
	defer normalsMu.Unlock()
	if z, ok := normalsCache[k]; ok {
		return z
	}
	z := make([]float64, R*p+1)
	for r := 0; r < R; r++ {
		for j := 0; j < p; j += 2 {
			h := mix(mix(seed) ^ mix(uint64(r)<<16|uint64(j)))
			u1 := (float64(h>>11) + 0.5) * 0x1p-53 // in (0, 1)
			u2 := float64(mix(h)>>11) * 0x1p-53
			rad := math.Sqrt(-2 * math.Log(u1))
			z[r*p+j], z[r*p+j+1] = rad*math.Cos(2*math.Pi*u2), rad*math.Sin(2*math.Pi*u2)
		}
	}
	z = z[: R*p : R*p]
	normalsCache[k] = z
	return z
}

// QuantileUnsorted returns Quantile(sorted xs, q) without sorting: it
// reorders xs (a quickselect of the two order statistics the
// interpolation needs).
func QuantileUnsorted(xs []float64, q float64) float64 {
	n := len(xs)
	if n == 1 {
		return xs[0]
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return selectKth(xs, n-1)
	}
	a := selectKth(xs, lo)
	// After the selection xs[lo+1:] holds the values ≥ a: its smallest
	// is order statistic lo+1.
	b := xs[lo+1]
	for _, x := range xs[lo+2:] {
		b = math.Min(b, x)
	}
	return a + (h-float64(lo))*(b-a)
}

// TailQuantiles returns QuantileUnsorted(xs, lo) and QuantileUnsorted(xs,
// hi), the same values, in one pass that keeps the few smallest and
// largest values of xs instead of two selections: for quantiles within
// tailMax order statistics of either end (a 95% interval of 500 draws
// needs 14 at each end, of 2,000 bootstrap replicates 51). xs is not reordered, unless it holds a NaN or a
// quantile is further from its end, when the two calls are made as they
// are (and reorder it).
func TailQuantiles(xs []float64, lo, hi float64) (float64, float64) {
	n := len(xs)
	if n < 2 || !(0 <= lo && lo <= hi && hi <= 1) {
		return quantilesBySelection(xs, lo, hi)
	}
	hl, hh := float64(n-1)*lo, float64(n-1)*hi
	ll, lh := int(math.Floor(hl)), int(math.Floor(hh))
	nb, nt := min(ll+2, n), n-lh // the smallest and largest values needed
	if nb > tailMax || nt > tailMax {
		return quantilesBySelection(xs, lo, hi)
	}
	var bot, top [tailMax]float64 // ascending, descending
	kb, kt := 0, 0
	for _, x := range xs {
		if x != x {
			return quantilesBySelection(xs, lo, hi)
		}
		if kb < nb || x < bot[nb-1] {
			j := min(kb, nb-1)
			for ; j > 0 && bot[j-1] > x; j-- {
				bot[j] = bot[j-1]
			}
			bot[j] = x
			kb = min(kb+1, nb)
		}
		if kt < nt || x > top[nt-1] {
			j := min(kt, nt-1)
			for ; j > 0 && top[j-1] < x; j-- {
				top[j] = top[j-1]
			}
			top[j] = x
			kt = min(kt+1, nt)
		}
	}
	// Order statistic k (0-based) is bot[k] from below, top[n−1−k] from
	// above.
	interp := func(h float64, l int, a, b float64) float64 { return a + (h-float64(l))*(b-a) }
	var qlo, qhi float64
	if ll >= n-1 {
		qlo = top[0]
	} else {
		qlo = interp(hl, ll, bot[ll], bot[ll+1])
	}
	if lh >= n-1 {
		qhi = top[0]
	} else {
		qhi = interp(hh, lh, top[n-1-lh], top[n-2-lh])
	}
	return qlo, qhi
}

// tailMax bounds the order statistics TailQuantiles keeps at each end.
const tailMax = 64

func quantilesBySelection(xs []float64, lo, hi float64) (float64, float64) {
	a := QuantileUnsorted(xs, lo)
	return a, QuantileUnsorted(xs, hi)
}

// selectKth reorders xs so that xs[k] is its k-th smallest value (0-based),
// with smaller or equal values before it and greater or equal after, and
// returns it: Hoare's quickselect with a median-of-three pivot.
func selectKth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
