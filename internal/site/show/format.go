package show

import (
	"math"
	"strconv"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/score"
)

// Number formatting is internal/numfmt's, so every page and chart shows the
// same digits for the same value; words about a number are judged on the
// value as displayed (board.Shown), so they never contradict the digits.

var (
	Fixed   = numfmt.Fixed
	Signed  = numfmt.Signed
	Decimal = numfmt.Decimal
)

func Itoa(i int) string { return strconv.Itoa(i) }

// interval formats a 95% interval as "[0.12, 0.30]".
func Interval(ci [2]float64, d int, sign bool) string {
	f := Fixed
	if sign {
		f = Signed
	}
	return "[" + f(ci[0], d) + ", " + f(ci[1], d) + "]"
}

// sortKey is the value put in data-sort attributes for the table script:
// six decimals, so that rounding noise (1e-14 against 2e-14) neither
// reorders rows nor changes the page between machines.
func SortKey(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return Fixed(v, 6)
}

// signClass is the CSS class colouring a signed value; the sign is always
// in the text too.
func SignClass(v float64) string {
	switch shown := board.Shown(v); {
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
func direction(ci [2]float64, est float64, pos, neg string) string {
	if math.IsNaN(est) {
		return "n/a"
	}
	shown := board.Shown(est)
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
func CoefWords(c design.Coef, est score.Estimate) string {
	if c == design.CoefAge {
		return direction(est.CI95, est.Estimate, "older people", "younger people")
	}
	return direction(est.CI95, est.Estimate, c.Group(), c.Reference())
}

// leanWords is direction with a normal 95% interval from a standard error.
func LeanWords(est, se float64, pos, neg string) string {
	const z = 1.959963984540054
	return direction([2]float64{est - z*se, est + z*se}, est, pos, neg)
}

// numberWords writes the small counts that prose spells out.
var numberWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

// countWord spells out n when it is small ("seven"), else writes digits.
func CountWord(n int) string {
	if n >= 0 && n < len(numberWords) {
		return numberWords[n]
	}
	return Itoa(n)
}

// plural is "1 comparison", "3 comparisons".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Itoa(n) + " " + noun + "s"
}

// thousands writes n with thin separators of thousands, as the site does.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func Btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// deltaDecimals is the precision of a difference from the baseline: two
// decimals of logit points, one of percentage points.
func DeltaDecimals(decision bool) int {
	if decision {
		return 1
	}
	return 2
}

// massText writes an answer mass cut (not rounded) to three decimals, so
// that a mass under 0.99 never reads as 0.990.
func MassText(mass float64) string {
	return Fixed(math.Floor(mass*1000)/1000, 3)
}
