package site

import (
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
)

// Number formatting is fixed here so every page and chart shows the same
// digits for the same value, on every machine.

// fixed formats v with d decimals, never as "-0.00".
func fixed(v float64, d int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// signed formats v with an explicit sign and a typographic minus: "+0.42",
// "−0.30"; zero as displayed has no sign.
func signed(v float64, d int) string {
	s := fixed(v, d)
	switch {
	case s == "n/a" || strings.Trim(s, "0.") == "":
		return s
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:]
	}
	return "+" + s
}

// interval formats a 95% interval as "[0.12, 0.30]".
func interval(ci [2]float64, d int, sign bool) string {
	f := fixed
	if sign {
		f = signed
	}
	return "[" + f(ci[0], d) + ", " + f(ci[1], d) + "]"
}

// sortKey is the value put in data-sort attributes for the table script:
// six decimals, so that rounding noise (1e-14 against 2e-14) neither
// reorders rows nor changes the page between machines.
func sortKey(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fixed(v, 6)
}

// favours describes a signed coefficient in words, judged on the value as
// displayed so the words never contradict the digits.
func favours(c design.Coef, v float64) string {
	shown, _ := strconv.ParseFloat(board.Display(v), 64)
	return c.Favours(shown)
}

// signClass is the CSS class colouring a signed value; the sign is always
// in the text too.
func signClass(v float64) string {
	shown, _ := strconv.ParseFloat(board.Display(v), 64)
	switch {
	case shown > 0:
		return "pos"
	case shown < 0:
		return "neg"
	}
	return "zero"
}

// direction describes a signed estimate in words that match its
// uncertainty: "favours X over Y" only when the 95% interval excludes zero;
// otherwise it is not distinguishable from zero and merely leans one way.
// Judged on the value as displayed, so the words never contradict the
// digits.
func direction(ci [2]float64, est float64, pos, neg string) string {
	shown, _ := strconv.ParseFloat(board.Display(est), 64)
	if math.IsNaN(est) {
		return "n/a"
	}
	favoured, other := pos, neg
	if shown < 0 {
		favoured, other = neg, pos
	}
	switch {
	case shown == 0:
		return "no difference"
	case ci[0] > 0 || ci[1] < 0:
		return "favours " + favoured + " over " + other
	}
	return "not distinguishable from zero (leans towards " + favoured + ")"
}

// coefWords describes a signed coefficient with its interval.
func coefWords(c design.Coef, est score.Estimate) string {
	if c == design.CoefAge {
		return direction(est.CI95, est.Estimate, "older people", "younger people")
	}
	return direction(est.CI95, est.Estimate, c.Group(), c.Reference())
}

// leanWords is direction with a normal 95% interval from a standard error.
func leanWords(est, se float64, pos, neg string) string {
	const z = 1.959963984540054
	return direction([2]float64{est - z*se, est + z*se}, est, pos, neg)
}
