package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pairedSE, which takes four pairs of a row side by side (pairedSD4),
// gives every pair pairedSD's standard error to the bit, whatever the
// number of runs (rows of fewer than four pairs, and the pairs left over
// after the fours), the pairs already known (left as they are) and a
// run whose replicates are not as many as the others' (taken one pair at
// a time).
func TestPairedSEAsPairedSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 40))
	for _, n := range []int{1, 2, 3, 4, 5, 7, 9, 16, 23} {
		for _, known := range []bool{false, true} {
			reps := make([][]float64, n)
			for i := range reps {
				reps[i] = make([]float64, 2000)
				scale := math.Exp(rng.NormFloat64())
				for b := range reps[i] {
					reps[i][b] = 0.3*rng.NormFloat64()*scale + float64(i)
				}
			}
			if n > 5 {
				reps[n-1] = reps[n-1][:1999] // the x of pairedSD(x, y): fewer than y
			}
			se := make([]float64, n*(n-1)/2)
			var mask []bool
			if known {
				mask = make([]bool, len(se))
				for k := range mask {
					if mask[k] = rng.IntN(3) == 0; mask[k] {
						se[k] = -1
					}
				}
			}
			pairedSE(se, reps, n, mask)
			p := PairSEs{n, se}
			for i := range n {
				for j := i + 1; j < n; j++ {
					k := i*(2*n-i-1)/2 + j - i - 1
					want := pairedSD(reps[j], reps[i])
					if mask != nil && mask[k] {
						want = -1
					}
					if got := p.SE(i, j); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("n %d, known %v: pair (%d, %d): %v, pairedSD %v", n, known, i, j, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkPairedSE500 is the standard errors of 500 runs' pairs, 2,000
// replicates each: a board's view at 1,000 runs.
func BenchmarkPairedSE500(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 40))
	const n = 500
	reps := make([][]float64, n)
	for i := range reps {
		reps[i] = make([]float64, 2000)
		for k := range reps[i] {
			reps[i][k] = rng.NormFloat64()
		}
	}
	se := make([]float64, n*(n-1)/2)
	for b.Loop() {
		pairedSE(se, reps, n, nil)
	}
}
