package score

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// slot is a PairMemo in memory, counting its stores.
type slot struct {
	data   []byte
	stores int
}

func (s *slot) Load() []byte      { return s.data }
func (s *slot) Store(data []byte) { s.data = slices.Clone(data); s.stores++ }

// memoBoard is n runs' estimates and paired replicates (B each): a
// shared draw a replicate, as a paired bootstrap's, and each run's own.
func memoBoard(seed uint64, n, B int) (est []float64, reps [][]float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	shared := make([]float64, B)
	for b := range shared {
		shared[b] = r.NormFloat64()
	}
	for range n {
		e := r.Float64()
		row := make([]float64, B)
		for b := range row {
			row[b] = e + 0.05*shared[b] + 0.02*(1+r.Float64())*r.NormFloat64()
		}
		est, reps = append(est, e), append(reps, row)
	}
	// Two runs alike: a zero standard error between them.
	reps[4] = slices.Clone(reps[3])
	est[4] = est[3]
	return est, reps
}

func sameRanks(t *testing.T, what string, got, want *stats.Ranks, gse, wse PairSEs) {
	t.Helper()
	if !slices.Equal(got.Marginal, want.Marginal) || !slices.Equal(got.Simultaneous, want.Simultaneous) ||
		!slices.EqualFunc(got.MarginalCrit, want.MarginalCrit, sameBits) || !slices.EqualFunc(got.SimCrits, want.SimCrits, sameBits) ||
		!slices.EqualFunc(gse.se, wse.se, sameBits) {
		t.Errorf("%s: the rank sets or standard errors differ from those made without a memo", what)
	}
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestRankMemoFormat: the memo of a family of rank sets holds the runs'
// sums, the standard errors and the first step's Arg alone (2 bytes a run
// and a replicate, 4 from wideMemo runs); a build of one run more reuses
// it (no store when nothing changed) and makes the sets made without it;
// a memo cut short, of the earlier format, with an Arg out of range or one
// no first step holds is a miss (computed again and stored anew), never
// other sets.
func TestRankMemoFormat(t *testing.T) {
	const n, B = 30, 200
	est, reps := memoBoard(9, n, B)
	floor := make([]bool, n)
	floor[7] = true
	want, wse := pairedRankSets(est, reps, floor, 0.05)
	drop := func(i int) ([]float64, [][]float64, []bool) {
		return slices.Delete(slices.Clone(est), i, i+1), slices.Delete(slices.Clone(reps), i, i+1), slices.Delete(slices.Clone(floor), i, i+1)
	}
	for _, wide := range []bool{false, true} {
		if wide {
			old := wideMemo
			wideMemo = 1
			defer func() { wideMemo = old }()
		}
		w := argWidth(n)
		if wide != (w == 4) {
			t.Fatalf("wide %v: Arg of %d bytes", wide, w)
		}
		for _, added := range []int{0, 13, n - 1} {
			s := &slot{}
			e, r, f := drop(added)
			pairedRankSetsMemo(e, r, f, 0.05, s)
			if s.stores != 1 || len(s.data) != len(memoMagic)+8+32*(n-1)+8*(n-1)*(n-2)/2+w*(n-1)*B {
				t.Fatalf("wide %v: first build stored %d memos of %d bytes", wide, s.stores, len(s.data))
			}
			got, gse := pairedRankSetsMemo(est, reps, floor, 0.05, s)
			sameRanks(t, "one run added", got, want, gse, wse)
			if s.stores != 2 {
				t.Errorf("wide %v, run %d added: the memo of %d runs was not replaced", wide, added, n-1)
			}
			good := slices.Clone(s.data)
			got, gse = pairedRankSetsMemo(est, reps, floor, 0.05, s)
			sameRanks(t, "nothing changed", got, want, gse, wse)
			if s.stores != 2 {
				t.Errorf("wide %v, nothing changed: the memo was stored again (a miss)", wide)
			}
			off := len(good) - w*B // the last run's Arg
			damaged := map[string][]byte{
				"cut short":        good[:len(good)-1],
				"cut to its runs":  good[:len(memoMagic)+8+32*n],
				"format 1":         append([]byte("rankpairs 1\n"), good[len(memoMagic):]...),
				"another B":        append(append(slices.Clone(good[:len(memoMagic)]), 1, 0, 0, 0), good[len(memoMagic)+8:]...),
				"Arg out of range": slices.Concat(good[:off], []byte{0xff, 0xff, 0xff, 0x7f}[:w], good[off+w:]),
				"Arg itself":       slices.Concat(good[:off], []byte{byte(n), 0, 0, 0}[:w], good[off+w:]), // k + 1 = n: the last run
				"Arg of a zero standard error": func() []byte {
					d := slices.Clone(good)
					p := len(memoMagic) + 8 + 32*n + 8*n*(n-1)/2 + w*3*B // run 3's Arg, replicate 0
					d[p], d[p+1] = 5, 0                                  // run 4, alike
					return d
				}(),
			}
			for name, d := range damaged {
				s := &slot{data: d}
				got, gse := pairedRankSetsMemo(est, reps, floor, 0.05, s)
				sameRanks(t, name, got, want, gse, wse)
				if s.stores != 1 || !slices.Equal(s.data, good) {
					t.Errorf("wide %v: a memo %s was not a miss, or not replaced by the memo of these runs", wide, name)
				}
			}
		}
	}
}
