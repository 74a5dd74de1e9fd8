package browsertest

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/discrimeval/leaderboard/internal/run"
)

// TestLogSumExpAsGo: static/cells.js's lse, which a scenario page's pairs
// over a threshold are counted with, gives run.LogSumExp's result on the
// same inputs, to within a few units in the last place of the largest
// input (4 × 2⁻⁵² × max(1, |max|)): a page's log-probabilities
// (hundredths, and −∞ for a zero probability) one to five forms at a
// time, and others. The steps are the same; the browser's Math.exp and
// Math.log round a last bit otherwise than Go's now and then (it logs how
// often), so a page's count of pairs over a threshold can differ from the
// swing finder's only for a pair whose difference is within about 1e-15
// of it. The function is taken from static/cells.js as written and run in
// the browser; −∞ and an empty list give −∞ in both.
func TestLogSumExpAsGo(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(repo, "static", "cells.js"))
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`(?s)\n  function lse\(v\) \{\n.*?\n  \}\n`).Find(src)
	if fn == nil {
		t.Fatal("static/cells.js has no function lse(v)")
	}
	rng := rand.New(rand.NewPCG(3, 8))
	var inputs [][]float64
	for range 4000 {
		v := make([]float64, 1+rng.IntN(5))
		for i := range v {
			switch rng.IntN(10) {
			case 0:
				v[i] = math.Inf(-1)
			case 1:
				v[i] = -rng.ExpFloat64() * 30
			default:
				v[i] = -float64(rng.IntN(3000)) / 100
			}
		}
		inputs = append(inputs, v)
	}
	inputs = append(inputs, []float64{}, []float64{math.Inf(-1), math.Inf(-1)}, []float64{0, 0}, []float64{-745, -746})
	// JSON has no −∞: null stands for it.
	js := make([][]*float64, len(inputs))
	for i, v := range inputs {
		js[i] = make([]*float64, len(v))
		for k := range v {
			if !math.IsInf(v[k], -1) {
				js[i][k] = &v[k]
			}
		}
	}
	data, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, 800, 600, "light")
	tb.open(siteDir, "index.html")
	got := eval[[]string](tb, `(() => {`+string(fn)+`
		return `+string(data)+`.map(v => String(lse(v.map(x => x === null ? -Infinity : x))));
	})()`)
	if len(got) != len(inputs) {
		t.Fatalf("%d results for %d inputs", len(got), len(inputs))
	}
	differ := 0
	for i, v := range inputs {
		js, err := strconv.ParseFloat(got[i], 64)
		if err != nil {
			t.Fatalf("lse(%v) = %q: %v", v, got[i], err)
		}
		want := run.LogSumExp(v)
		top := math.Inf(-1)
		for _, x := range v {
			top = math.Max(top, x)
		}
		switch {
		case math.Float64bits(js) == math.Float64bits(want):
		case math.IsInf(top, -1) || math.Abs(js-want) > 4*0x1p-52*math.Max(1, math.Abs(top)):
			t.Errorf("lse(%v) = %v in cells.js, %v in Go", v, js, want)
		default:
			differ++
		}
	}
	t.Logf("%d inputs: %d results within rounding of Go's, the others the same to the bit", len(inputs), differ)
}
