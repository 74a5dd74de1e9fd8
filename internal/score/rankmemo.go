package score

import (
	"crypto/sha256"
	"encoding/binary"
	"math"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// PairMemo keeps one family of rank sets' pairwise work (a board's view,
// or a coefficient's group board) from one build to the next, in a build
// cache: Load returns what the last Store stored, or nil. What it holds is
// checked against the runs' replicates before it is used, so a memo of
// another board, of other runs, or damaged, costs the work but never
// changes a set.
type PairMemo interface {
	Load() []byte
	Store(data []byte)
}

// The pairwise work of a family's rank sets is n(n − 1)/2 standard errors
// and the first step of every run's family (stats.FirstStep), each n² × B
// (replicates) to compute: with one run added to a board, all but about
// 2n × B of both is the last build's. A memo holds, for the runs in the
// order of the sets, each one's replicates' SHA-256, the standard errors
// (the upper triangle, row by row) and the first step's Arg, each run's
// for each replicate (k + 1, 0 for none, in 2 bytes, or 4 from 65,535 runs
// on); its maxima are made again from them (stats.FillMax, n × B, to the
// bit). The runs of the last build are found among this one's in the same
// order (a board's order, by estimate and then id, does not change the
// order of the runs that stay), their numbers reused, and the rest
// computed. (Format 1 kept the maxima too, 8 of its 12 bytes a run and a
// replicate: 251 of the 823 MB of a 1,000-run cache were its memos.)
const memoMagic = "rankpairs 2\n"

// pairedRankSetsMemo is pairedRankSets with the pairwise work kept in
// memo (nil for none).
func pairedRankSetsMemo(est []float64, reps [][]float64, floor []bool, alpha float64, memo PairMemo) (*stats.Ranks, PairSEs) {
	n := len(est)
	if memo == nil || n == 0 {
		return pairedRankSets(est, reps, floor, alpha)
	}
	B := len(reps[0])
	sums := make([][32]byte, n)
	buf := make([]byte, 8*B)
	for j, r := range reps {
		if len(r) != B {
			return pairedRankSets(est, reps, floor, alpha)
		}
		for b, v := range r {
			binary.LittleEndian.PutUint64(buf[8*b:], math.Float64bits(v))
		}
		sums[j] = sha256.Sum256(buf)
	}
	tri := func(i int) int { return i * (2*n - i - 1) / 2 }
	se := make([]float64, n*(n-1)/2)
	seOf := PairSEs{n, se}.SE
	z := stats.Centred(reps)
	// From the memo: where each of its runs is now (from, −1 for a run
	// added), and their standard errors and first step.
	prev, ok := decodeMemo(memo.Load(), B)
	var from []int // from[j]: run j's index in the memo, −1 for none
	if ok {
		from, ok = matchRuns(prev.sums, sums)
	}
	var fs stats.FirstStep
	if !ok {
		pairedSE(se, reps, n, nil)
		fs = stats.FirstMaxima(z, seOf)
	} else {
		m := len(prev.sums)
		ptri := func(i int) int { return i * (2*m - i - 1) / 2 }
		known := make([]bool, n*(n-1)/2)
		for i := range n {
			if from[i] < 0 {
				continue
			}
			for j := i + 1; j < n; j++ {
				if from[j] >= 0 {
					pi, pj := from[i], from[j] // pi < pj: the order is kept
					se[tri(i)+j-i-1], known[tri(i)+j-i-1] = prev.se[ptri(pi)+pj-pi-1], true
				}
			}
		}
		pairedSE(se, reps, n, known)
		now := make([]int32, m) // a memo's run's index now
		for j, p := range from {
			if p >= 0 {
				now[p] = int32(j)
			}
		}
		fs = stats.FirstStep{Max: make([][]float64, n), Arg: make([][]int32, n)}
		added, kept := make([]bool, n), make([]bool, n)
		for j, p := range from {
			fs.Max[j], fs.Arg[j] = make([]float64, B), make([]int32, B)
			if p < 0 {
				added[j] = true
				continue
			}
			kept[j] = true
			for b, k := range prev.arg[p] {
				if k >= 0 {
					k = now[k]
				}
				fs.Arg[j][b] = k
			}
		}
		if ok = stats.FillMax(fs, z, seOf, kept); ok {
			stats.ExtendFirst(fs, z, seOf, added)
		} else { // not a first step of these runs: all of it again
			pairedSE(se, reps, n, nil)
			fs = stats.FirstMaxima(z, seOf)
		}
	}
	// Stored before the sets are made, which overwrite the first step;
	// not when it holds these runs already.
	if !ok || len(prev.sums) != n {
		memo.Store(encodeMemo(sums, se, fs))
	}
	return stats.RankSetsFirst(est, z, seOf, alpha, floor, fs), PairSEs{n, se}
}

// wideMemo is the runs from which a memo's Arg takes 4 bytes (a
// variable for the tests).
var wideMemo = math.MaxUint16

// memoData is a decoded memo.
type memoData struct {
	sums [][32]byte
	se   []float64
	arg  [][]int32
}

// argWidth is the bytes of a stored Arg (k + 1) in a memo of n runs: 2
// below wideMemo runs, else 4.
func argWidth(n int) int {
	if n < wideMemo {
		return 2
	}
	return 4
}

func encodeMemo(sums [][32]byte, se []float64, fs stats.FirstStep) []byte {
	n := len(sums)
	B := 0
	if n > 0 {
		B = len(fs.Arg[0])
	}
	w := argWidth(n)
	out := make([]byte, 0, len(memoMagic)+8+32*n+8*len(se)+w*n*B)
	out = append(out, memoMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(B))
	for _, s := range sums {
		out = append(out, s[:]...)
	}
	for _, v := range se {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	for j := range n {
		for _, k := range fs.Arg[j] {
			if w == 2 {
				out = binary.LittleEndian.AppendUint16(out, uint16(k+1))
			} else {
				out = binary.LittleEndian.AppendUint32(out, uint32(k+1))
			}
		}
	}
	return out
}

// decodeMemo decodes a memo of replicates of B each; false when data is
// not one (nil, another format, another B, cut short, an Arg out of
// range). What it holds is checked further when it is used: its runs
// against the runs' replicates (matchRuns), its Arg against them
// (stats.FillMax).
func decodeMemo(data []byte, B int) (memoData, bool) {
	var d memoData
	if len(data) < len(memoMagic)+8 || string(data[:len(memoMagic)]) != memoMagic {
		return d, false
	}
	data = data[len(memoMagic):]
	n, b := int(binary.LittleEndian.Uint32(data)), int(binary.LittleEndian.Uint32(data[4:]))
	data = data[8:]
	if b != B || n < 1 || n > len(data)/32 {
		return d, false
	}
	w := argWidth(n)
	if len(data) != 32*n+8*(n*(n-1)/2)+w*n*B {
		return d, false
	}
	d.sums = make([][32]byte, n)
	for j := range d.sums {
		copy(d.sums[j][:], data[32*j:])
	}
	data = data[32*n:]
	d.se = make([]float64, n*(n-1)/2)
	for i := range d.se {
		d.se[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	data = data[8*len(d.se):]
	d.arg = make([][]int32, n)
	for j := range n {
		d.arg[j] = make([]int32, B)
		for b := range B {
			var k int32
			if w == 2 {
				k = int32(binary.LittleEndian.Uint16(data[2*b:])) - 1
			} else {
				k = int32(binary.LittleEndian.Uint32(data[4*b:]) - 1)
			}
			if k < -1 || int(k) >= n || int(k) == j {
				return d, false
			}
			d.arg[j][b] = k
		}
		data = data[w*B:]
	}
	return d, true
}

// matchRuns finds the memo's runs, by their replicates' sums, among the
// runs now, in the same order: from[j] is the memo's index of run j, or −1
// for a run the memo has not. false when one of the memo's runs is not
// there (removed, or its replicates changed): its differences are in the
// memo's first step, which cannot be taken out.
func matchRuns(prev, now [][32]byte) ([]int, bool) {
	from := make([]int, len(now))
	p := 0
	for j, s := range now {
		from[j] = -1
		if p < len(prev) && prev[p] == s {
			from[j] = p
			p++
		}
	}
	return from, p == len(prev)
}
