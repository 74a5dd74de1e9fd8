package vocab

import (
	"math"
	"testing"
)

func TestPointsAtHalf(t *testing.T) {
	for _, c := range []struct {
		g, want float64
	}{
		{0, 0}, {0.1, 2.4979}, {0.5, 12.2459}, {1, 23.1059}, {-1, -23.1059}, {math.Inf(1), 50},
	} {
		if got := PointsAtHalf(c.g); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("PointsAtHalf(%v) = %v, want %v", c.g, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{PPAt(4.66, 1), "4.7 pp"},
		{SignedPP(-0.04, 1), "0.0 pp"},
		{SignedPP(-2.26, 1), "−2.3 pp"},
		{SignedPP(2.26, 1), "+2.3 pp"},
		// 0.444 is shown as 0.44: the words follow the digits (10.9 pp
		// unrounded).
		{UpTo(0.444, 2), "up to 10.8 pp of P(yes)"},
		{UpTo(-0.444, 2), "up to 10.8 pp of P(yes)"},
		{UpTo(math.NaN(), 2), ""},
		{OddsFactor(0.444, 2), "odds ×1.55"},
		{PPInterval([2]float64{-0.1, 0.5}), "[−2.5, +12.2] pp"},
		{Plural(1, "scenario"), "1 scenario"},
		{Plural(9450, "prompt"), "9,450 prompts"},
		{Count(-1234567), "−1,234,567"},
		{Count(0), "0"},
		{Capital("favours"), "Favours"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// Every term finds its own name, and no two share an id.
func TestTerms(t *testing.T) {
	seen := map[string]bool{}
	for _, term := range Terms {
		if seen[term.ID] {
			t.Errorf("term %q twice", term.ID)
		}
		seen[term.ID] = true
		if !term.Uses.MatchString(term.Name) {
			t.Errorf("term %q: %v does not find its name %q", term.ID, term.Uses, term.Name)
		}
		if got, ok := TermByID(term.ID); !ok || got.Name != term.Name {
			t.Errorf("TermByID(%q) = %v, %v", term.ID, got, ok)
		}
	}
	if _, ok := TermByID("nope"); ok {
		t.Error(`TermByID("nope") found a term`)
	}
}

// zOf is the Bonferroni-corrected quantile of a two-sided 95% interval.
func TestZOf(t *testing.T) {
	for n, want := range map[int]float64{1: 1.959964, 2: 2.241403, 14: 2.913726} {
		if got := zOf(n); math.Abs(got-want) > 1e-5 {
			t.Errorf("zOf(%d) = %.6f, want %.6f", n, got, want)
		}
	}
}

func TestParameterCount(t *testing.T) {
	for n, want := range map[int64]string{
		7_000_000_000: "7B", 8_030_000_000: "8.03B", 70_553_706_496: "70.6B", 405_000_000_000: "405B",
		125_000_000: "125M", 1_500_000: "1.5M", 1_000_000: "1M", 1_800_000_000_000: "1.8T",
		999_700_000_000: "1T", 999_999_999: "1B", 12_345_678_901_234: "12.3T", 999_999: "999,999",
	} {
		if got := ParameterCount(n); got != want {
			t.Errorf("ParameterCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRankMove(t *testing.T) {
	for _, c := range []struct {
		then, now int
		want      Move
	}{
		{5, 2, Move{"↑3", "up 3 places since r1, 5th there", "3"}},
		{2, 3, Move{"↓1", "down 1 place since r1, 2nd there", "-1"}},
		{4, 4, Move{"same", "the same place as in r1", "0"}},
		{0, 1, Move{"new", "not ranked in r1", ""}},
	} {
		if got := RankMove(c.then, c.now, "r1"); got != c.want {
			t.Errorf("RankMove(%d, %d) = %+v, want %+v", c.then, c.now, got, c.want)
		}
	}
}
