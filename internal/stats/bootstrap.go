package stats

import (
	"encoding/binary"
	"math"
	"sort"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// QuestionWeights draws B replicates of a bootstrap over decision
// questions: w[b][k] is how many times the question with id ids[k] counts in
// replicate b. It is a Poisson bootstrap (each question drawn a Poisson(1)
// number of times, Hanley and MacGibbon 2006; Chamandy et al. 2012) rather
// than m draws with replacement, so that a question's weight depends only
// on (seed, b, id): two runs that answered the same questions get the same
// weights for them in every replicate, whatever else either answered. That
// is what makes comparisons between runs paired, and a run's intervals
// independent of which other runs are on the site.
//
// The draws are a fixed function of their inputs on every platform and Go
// version: a SplitMix64 hash of (seed, b, id), its top 53 bits as a uniform
// number, and Poisson(1) by inversion against a table summed in a fixed
// order.
//
// The weights are shared, not copied: callers must not change them. Runs
// mostly answer the same questions, so the last few sets of weights are
// kept (weightsMemo) and a build draws each set once, not once a run and a
// comparison.
func QuestionWeights(ids []int, B int, seed uint64) [][]float64 {
	k := weightsKey{seed: seed, b: B, ids: idsKey(ids)}
	weightsMu.Lock()
	for _, e := range weightsMemo {
		if e.key == k {
			weightsMu.Unlock()
			return e.w
		}
	}
	weightsMu.Unlock()
	w := questionWeights(ids, B, seed)
	weightsMu.Lock()
	defer weightsMu.Unlock()
	if len(weightsMemo) == cap(weightsMemo) {
		copy(weightsMemo, weightsMemo[1:])
		weightsMemo = weightsMemo[:len(weightsMemo)-1]
	}
	weightsMemo = append(weightsMemo, weightsEntry{k, w})
	return w
}

// questionWeights draws QuestionWeights' replicates into one array, each
// replicate's slice capped at its length.
func questionWeights(ids []int, B int, seed uint64) [][]float64 {
	out := make([][]float64, B)
	flat := make([]float64, B*len(ids))
	for b := range out {
		w := flat[b*len(ids) : (b+1)*len(ids) : (b+1)*len(ids)]
		for k, id := range ids {
			w[k] = poisson1(mix(mix(seed^mix(uint64(b)+1)) ^ uint64(int64(id))))
		}
		out[b] = w
	}
	return out
}

// weightsKey names a set of weights: the seed, the number of replicates
// and the question ids in order.
type weightsKey struct {
	seed uint64
	b    int
	ids  string
}

type weightsEntry struct {
	key weightsKey
	w   [][]float64
}

var (
	weightsMu sync.Mutex
	// weightsMemo holds the last sets of weights drawn, oldest first: a
	// few, so that memory does not grow with runs that each answered
	// other questions.
	weightsMemo = make([]weightsEntry, 0, 4)
)

// idsKey encodes question ids as a string, 8 bytes each.
func idsKey(ids []int) string {
	b := make([]byte, 0, 8*len(ids))
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(id)))
	}
	return string(b)
}

// mix is SplitMix64's finaliser (Steele, Lea and Flood 2014): a bijection
// of 64-bit words whose outputs pass BigCrush for consecutive inputs.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// poissonCDF[k] is P(X ≤ k) for X ~ Poisson(1), up to the first k where
// it rounds to 1.
var poissonCDF = func() []float64 {
	var cdf []float64
	p, cum := math.Exp(-1), 0.0
	for k := 1; cum < 1; k++ {
		cum += p
		cdf = append(cdf, cum)
		p /= float64(k)
		if p == 0 {
			break
		}
	}
	return cdf
}()

// poisson1 maps a uniform 64-bit word to a Poisson(1) count by inversion.
func poisson1(x uint64) float64 {
	u := float64(x>>11) * 0x1p-53
	k := sort.SearchFloat64s(poissonCDF, u)
	if k < len(poissonCDF) && poissonCDF[k] == u {
		k++ // P(X ≤ k) = u exactly: u belongs to the next count
	}
	return float64(k)
}

// Holm returns Holm's step-down adjusted p-values (Holm 1979): reject
// hypothesis i at family-wise level α when adjusted[i] ≤ α. Valid under any
// dependence between the tests.
func Holm(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] < p[order[b]] })
	adj := make([]float64, m)
	run := 0.0
	for rank, i := range order {
		v := math.Min(1, float64(m-rank)*p[i])
		run = math.Max(run, v)
		adj[i] = run
	}
	return adj
}

// TwoSidedP is the two-sided p-value of a normal test statistic est/se.
// A zero se gives 1 for a zero estimate and 0 otherwise.
func TwoSidedP(est, se float64) float64 {
	if se == 0 {
		if est == 0 {
			return 1
		}
		return 0
	}
	return 2 * distuv.UnitNormal.CDF(-math.Abs(est/se))
}
