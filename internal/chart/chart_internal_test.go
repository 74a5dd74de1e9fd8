package chart

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTicks checks, over fixed and random ranges, that the ticks are
// increasing, evenly spaced, include zero exactly and cover the range.
func TestTicks(t *testing.T) {
	ranges := [][2]float64{
		{0, 0}, {0, 1e-12}, {-1e-9, 1e-9}, {-0.3, -0.1}, {0.1, 0.3}, {-0.7, 0.7}, {-0.40000000000000002, 0.3},
		{0, 0.66}, {-1.71, 0.2}, {-3e8, 9e8}, {0.3, 0.3}, {-0.1, 0.1}, {-0.3, 0.6}, {0.07, 0.13},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		scale := math.Pow(10, float64(r.IntN(10)-5))
		a, b := (r.Float64()*2-1)*scale, (r.Float64()*2-1)*scale
		ranges = append(ranges, [2]float64{min(a, b), max(a, b)})
	}
	for _, rg := range ranges {
		vals, dec := ticks(rg[0], rg[1], 6)
		if !slices.Contains(vals, 0) {
			t.Errorf("%v: ticks %v lack 0", rg, vals)
		}
		if vals[0] > rg[0] || vals[len(vals)-1] < rg[1] {
			t.Errorf("%v: ticks %v do not cover the range", rg, vals)
		}
		if len(vals) < 3 || len(vals) > 12 {
			t.Errorf("%v: %d ticks", rg, len(vals))
		}
		for i := 1; i < len(vals); i++ {
			if !(vals[i] > vals[i-1]) {
				t.Errorf("%v: ticks %v not increasing", rg, vals)
			}
		}
		// Labels are distinct at the chosen number of decimals.
		seen := map[string]bool{}
		for _, v := range vals {
			l := tickLabel(v, dec, true)
			if seen[l] {
				t.Errorf("%v: ticks %v: label %q twice", rg, vals, l)
			}
			seen[l] = true
		}
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		v                   float64
		coord, plain, signd string
	}{
		{0, "0.00", "0.00", "0.00"},
		{math.Copysign(0, -1), "0.00", "0.00", "0.00"},
		{-0.001, "0.00", "0.00", "0.00"},
		{0.004, "0.00", "0.00", "0.00"},
		{0.005001, "0.01", "0.01", "+0.01"},
		{-0.42, "-0.42", "−0.42", "−0.42"},
		{12.345678, "12.35", "12.35", "+12.35"},
		{math.NaN(), "NaN", "n/a", "n/a"},
	} {
		if c.v == c.v { // coord is never called with NaN
			if got := coord(c.v); got != c.coord {
				t.Errorf("coord(%g) = %q, want %q", c.v, got, c.coord)
			}
		}
		if got := plain(c.v); got != c.plain {
			t.Errorf("plain(%g) = %q, want %q", c.v, got, c.plain)
		}
		if got := signed(c.v); got != c.signd {
			t.Errorf("signed(%g) = %q, want %q", c.v, got, c.signd)
		}
	}
	if got := truncate("abcdef", 4); got != "abc…" {
		t.Errorf("truncate: %q", got)
	}
	if got := truncate("ab de", 4); got != "ab…" {
		t.Errorf("truncate keeps a trailing space: %q", got)
	}
	if got := truncate("abcd", 4); got != "abcd" {
		t.Errorf("truncate cut a short label: %q", got)
	}
}
