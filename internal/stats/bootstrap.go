package stats

import (
	"math/bits"
	"math/rand/v2"
)

// ClusterWeights draws B cluster-bootstrap replicates over m clusters:
// w[b][i] is how many times cluster i is drawn in replicate b (m draws with
// replacement, so each replicate sums to m). Pass each w[b] to
// MixedFit.Reweighted.
//
// The draws are a fixed function of (m, B, seed) on every platform and Go
// version: PCG-DXSM (math/rand/v2's PCG, a named algorithm) seeded with
// (seed, 0), one Uint64 per draw, mapped to [0, m) by Lemire's
// multiply-and-reject method written out here — not rand.IntN and friends,
// whose algorithms the standard library may change.
func ClusterWeights(m, B int, seed uint64) [][]float64 {
	src := rand.NewPCG(seed, 0)
	out := make([][]float64, B)
	for b := range out {
		w := make([]float64, m)
		for range m {
			w[bounded(src, uint64(m))]++
		}
		out[b] = w
	}
	return out
}

// bounded returns a uniform integer in [0, n), n > 0, without bias: the high
// word of x·n for a uniform 64-bit x, rejecting the x whose low word falls
// below 2^64 mod n (those make some results one draw more likely).
func bounded(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n // 2^64 mod n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}
