package stats

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// bounded against arbitrary-precision arithmetic, with bounds that make
// rejection frequent (n just above 2^63: nearly half of all x rejected) and
// rare.
func TestBoundedMatchesBigArithmetic(t *testing.T) {
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []uint64{1, 2, 3, 70, 1<<63 + 1, 1<<64 - 1} {
		src := rand.NewPCG(9, 0)
		ref := rand.NewPCG(9, 0)
		bn := new(big.Int).SetUint64(n)
		thresh := new(big.Int).Mod(two64, bn)
		rejected := 0
		for range 200 {
			got := bounded(src, n)
			var want uint64
			for {
				prod := new(big.Int).Mul(new(big.Int).SetUint64(ref.Uint64()), bn)
				low := new(big.Int).Mod(prod, two64)
				if low.Cmp(thresh) >= 0 {
					want = new(big.Int).Rsh(prod, 64).Uint64()
					break
				}
				rejected++
			}
			if got != want {
				t.Fatalf("n = %d: bounded gave %d, big arithmetic %d", n, got, want)
			}
		}
		if n == 1<<63+1 && rejected < 50 {
			t.Errorf("n = 2^63+1: only %d of ~200 draws rejected; the rejection path is not exercised", rejected)
		}
	}
}
