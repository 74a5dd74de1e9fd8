package site

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site/grid"
)

// lpRead reads lpWriter's codes back as static/cells.js does: a cell's
// codes, nil for a missing cell.
func lpRead(t *testing.T, s string, forms int) [][]int {
	t.Helper()
	var out [][]int
	prev := make([]int, forms)
	for pos := 0; pos < len(s); {
		if s[pos] == '.' {
			out = append(out, nil)
			pos++
			continue
		}
		codes := make([]int, forms)
		for k := range forms {
			z, shift := 0, 0
			for {
				if pos >= len(s) {
					t.Fatalf("%q ends inside a number", s)
				}
				c := strings.IndexByte(grid.LpDigits, s[pos])
				pos++
				z += (c & 31) << shift
				shift += 5
				if c < 32 {
					break
				}
			}
			if z%2 == 1 {
				prev[k] -= (z + 1) / 2
			} else {
				prev[k] += z / 2
			}
			codes[k] = prev[k]
			if k > 0 {
				codes[k] += codes[0]
			}
		}
		out = append(out, codes)
	}
	return out
}

// TestLPWriter: every cell's codes read back exactly, for missing cells,
// the two codes that stand for "below" and "zero", and log-probabilities
// from nearly equal to far apart; a question whose forms move together
// takes about one character a form.
func TestLPWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		forms := 1 + trial%5
		var w grid.LpWriter
		var want [][]int
		spread := []float64{0.05, 0.5, 5, 50}[trial%4]
		base := -rng.Float64() * 3
		for range 135 {
			if rng.IntN(10) == 0 {
				w.Missing()
				want = append(want, nil)
				continue
			}
			codes := make([]int, forms)
			for k := range codes {
				lp := base - float64(k) - rng.Float64()*spread
				switch rng.IntN(40) {
				case 0:
					lp = math.Inf(-1)
				case 1:
					lp = -60
				case 2:
					lp = 0.001 // rounds above 0: code 0
				}
				codes[k] = grid.LpCode(lp)
			}
			w.Cell(codes)
			want = append(want, codes)
		}
		got := lpRead(t, string(w.B), forms)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d cells read back, want %d", trial, len(got), len(want))
		}
		for i := range want {
			if (got[i] == nil) != (want[i] == nil) || len(got[i]) != len(want[i]) {
				t.Fatalf("trial %d, cell %d: %v, want %v", trial, i, got[i], want[i])
			}
			for k := range want[i] {
				if got[i][k] != want[i][k] {
					t.Fatalf("trial %d, cell %d, form %d: %d, want %d", trial, i, k, got[i][k], want[i][k])
				}
			}
		}
	}
	// Forms that move together, by small steps: one character a form.
	var w grid.LpWriter
	for i := range 135 {
		c := 80 + i%7
		w.Cell([]int{c, c + 219, c + 400, c + 650})
	}
	if n := len(w.B); n > 135*4+8 {
		t.Errorf("%d characters for 135 cells of 4 forms that move together, want about one a form", n)
	}
}
