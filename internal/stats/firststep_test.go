package stats_test

import (
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// TestFillMax: a first step's maxima made again from its Arg alone are
// FirstMaxima's to the bit, on a board of odd standard errors (zero, NaN,
// infinite, subnormal) and a NaN replicate as well as a plain one; an Arg
// that no first step holds is refused.
func TestFillMax(t *testing.T) {
	t.Parallel()
	d := newSimBoard(7, 12, 500)
	d.se[3][4], d.se[4][3] = 0, 0
	d.se[1][5], d.se[5][8], d.se[8][1], d.se[9][10] = math.NaN(), math.Inf(1), 0, 1e-310
	d.reps[6][17] = math.NaN()
	for _, s := range []*simBoard{newSimBoard(41, 60, 700), d} {
		n := len(s.est)
		seOf := func(j, k int) float64 { return s.se[j][k] }
		z := stats.Centred(s.reps)
		want := stats.FirstMaxima(z, seOf)
		got := stats.FirstStep{Max: make([][]float64, n), Arg: want.Arg}
		rows := make([]bool, n)
		for j := range n {
			got.Max[j] = make([]float64, len(z[j]))
			for b := range got.Max[j] {
				got.Max[j][b] = 12345 // any: overwritten
			}
			rows[j] = true
		}
		if !stats.FillMax(got, z, seOf, rows) {
			t.Fatalf("%d runs: FirstMaxima's Arg refused", n)
		}
		for j := range n {
			if !bitsEqual(got.Max[j], want.Max[j]) {
				t.Fatalf("%d runs: run %d: maxima from Arg differ from FirstMaxima's", n, j)
			}
		}
		// Only the rows asked for are made.
		rows[0] = false
		got.Max[0][0] = 7
		stats.FillMax(got, z, seOf, rows)
		if got.Max[0][0] != 7 {
			t.Errorf("%d runs: a row not asked for was written", n)
		}
		rows[0] = true
		for _, bad := range []int32{-2, int32(n), 0} {
			old := want.Arg[0][3]
			want.Arg[0][3] = bad // 0 is the run itself
			if stats.FillMax(got, z, seOf, rows) {
				t.Errorf("%d runs: Arg %d accepted", n, bad)
			}
			want.Arg[0][3] = old
		}
	}
	// An Arg naming a difference with a zero standard error (3 − 4 in d).
	n := len(d.est)
	seOf := func(j, k int) float64 { return d.se[j][k] }
	z := stats.Centred(d.reps)
	fs := stats.FirstMaxima(z, seOf)
	rows := make([]bool, n)
	rows[3] = true
	fs.Arg[3][0] = 4
	if stats.FillMax(fs, z, seOf, rows) {
		t.Error("an Arg of a zero standard error accepted")
	}
}
