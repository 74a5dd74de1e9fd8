// Package vocab is the site's vocabulary: the one place that turns a
// number into its words and its unit, and the terms of the glossary that
// every page links to on first use.
//
// A score is in logits (a difference in the log-odds of "yes"); what it
// does to the probability of "yes" is a difference in P(yes), written in
// one way everywhere: percentage points, "pp" (PP). A logit difference g
// moves P(yes) most for a person at 50%, by PointsAtHalf(g) pp: the site
// says "up to N pp of P(yes)" beside a score. The pages, the summaries and
// the data files' descriptions take their units and their words from
// here; package internal/crawl's checks hold the built site to one
// spelling.
//
// vocab imports only the standard library and package numfmt, so that any
// package of the site may use it.
package vocab

import (
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/numfmt"
)

// The units, as they are written on every page.
const (
	// Logit is the unit of scores and coefficients: a difference in the
	// log-odds of "yes".
	Logit = "logit"
	// Logits is Logit in running text: "in logits".
	Logits = "logits"
	// PP is the unit of a difference in P(yes), or for a sampled-answer
	// run in its share of yes answers: percentage points.
	PP = "pp"
	// PPLong is PP spelled out, as the glossary defines it.
	PPLong = "percentage points"
	// Parameters is the unit of a model's size ("7B": 7 billion).
	Parameters = "parameters"
	// Rank is the unit of a place on a board, 1 the least biased.
	Rank = "rank"
	// AgeUnit is the unit of an age coefficient, in a label: the change
	// in logit per 10 years older, the design's step between ages.
	AgeUnit = "per 10 years older"
)

// BoardRuns names a board's runs in a sentence, wherever a page says
// them: "explicit-prompt log-probability runs", "implicit-prompt
// sampled-answer runs".
func BoardRuns(variant string, sampled bool) string {
	return variant + "-prompt " + ScoringRuns(sampled)
}

// ScoringRuns names the runs of a scoring method in a sentence:
// "log-probability runs", "sampled-answer runs" (the manifests' logprob
// and decision).
func ScoringRuns(sampled bool) string {
	if sampled {
		return "sampled-answer runs"
	}
	return "log-probability runs"
}

// PointsAtHalf is the change in P(yes), in percentage points, that a
// signed difference of g logits makes for a person at P(yes) = 50%: the
// largest change a difference of that size can make at any P(yes).
// Signed like g: 100 × (σ(g) − ½).
func PointsAtHalf(g float64) float64 {
	return 100 * (1/(1+math.Exp(-g)) - 0.5)
}

// PPAt writes a difference in P(yes) of p percentage points with d
// decimals and the unit: "4.7 pp".
func PPAt(p float64, d int) string { return numfmt.Fixed(p, d) + " " + PP }

// SignedPP writes a signed difference in P(yes): "+4.7 pp", "−0.3 pp".
func SignedPP(p float64, d int) string { return numfmt.Signed(p, d) + " " + PP }

// UpTo writes what a logit difference g does at most to P(yes), from the
// value as shown with shownDigits decimals: "up to 4.7 pp of P(yes)".
func UpTo(g float64, shownDigits int) string {
	if math.IsNaN(g) {
		return ""
	}
	return "up to " + PPAt(math.Abs(PointsAtHalf(round(g, shownDigits))), 1) + " of P(yes)"
}

// PPInterval writes a logit interval as the interval of the changes in
// P(yes) it allows for a person at 50%, signed: "[+3.1, +6.2] pp". The
// map is increasing, so the ends stay the ends.
func PPInterval(ci [2]float64) string {
	return "[" + numfmt.Signed(PointsAtHalf(ci[0]), 1) + ", " + numfmt.Signed(PointsAtHalf(ci[1]), 1) + "] " + PP
}

// OddsFactor writes what a logit difference g does to the odds of "yes",
// from the value as shown: "odds ×1.82".
func OddsFactor(g float64, shownDigits int) string {
	if math.IsNaN(g) {
		return ""
	}
	return "odds ×" + numfmt.Fixed(math.Exp(math.Abs(round(g, shownDigits))), 2)
}

// round is v as shown with d decimals.
func round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

// Plural writes n and a noun, with an s when n is not 1: "1 scenario",
// "70 scenarios".
func Plural(n int, noun string) string {
	s := Count(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

// Count writes a count with a separator of thousands: "9,450".
func Count(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "−" + s
	}
	return s
}

// Capital writes s with its first letter upper-case, for a sentence that
// starts with a generated word.
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ParameterCount writes a model's parameter count to three significant
// digits with the letter model cards write sizes with: "7B", "8.03B",
// "125M", "1.8T". Counts under a million (which a manifest refuses) are
// written whole.
func ParameterCount(n int64) string {
	units := []struct {
		size   float64
		letter string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}}
	for i, u := range units {
		if float64(n) < u.size {
			continue
		}
		v := float64(n) / u.size
		decimals := 2
		switch {
		case v >= 100:
			decimals = 0
		case v >= 10:
			decimals = 1
		}
		s := strconv.FormatFloat(v, 'f', decimals, 64)
		if s == "1000" && i > 0 {
			// 999.7B rounds to the next unit's 1.
			return "1" + units[i-1].letter
		}
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s + u.letter
	}
	return Count(int(n))
}

// A Move is a run's change of rank since an earlier release, as a board
// row shows it: Mark is short ("↑3", "↓1", "same", "new"), Words say it
// in full, and Sort is its sort key, the places moved up ("" when new).
type Move struct{ Mark, Words, Sort string }

// RankMove is the move of a model's run from rank then in the release
// named release (0: not ranked there) to rank now. Rank 1 is the best, so
// a smaller rank is a move up.
func RankMove(then, now int, release string) Move {
	places := func(n int) string {
		if n == 1 {
			return "1 place"
		}
		return strconv.Itoa(n) + " places"
	}
	switch d := then - now; {
	case then == 0:
		return Move{Mark: "new", Words: "not ranked in " + release}
	case d > 0:
		return Move{Mark: "↑" + strconv.Itoa(d), Words: "up " + places(d) + " since " + release + ", " + Ordinal(then) + " there", Sort: strconv.Itoa(d)}
	case d < 0:
		return Move{Mark: "↓" + strconv.Itoa(-d), Words: "down " + places(-d) + " since " + release + ", " + Ordinal(then) + " there", Sort: strconv.Itoa(d)}
	default:
		return Move{Mark: "same", Words: "the same place as in " + release, Sort: "0"}
	}
}
