package site

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
)

// The site's vocabulary for what a number means, in one place: every page
// that shows a score or a verdict takes its words from here, generated
// from the numbers they describe.

// oddsFactor writes what a gap of g logit points does to the odds of
// "yes": "odds ×1.82". The factor is computed from the gap as displayed
// (two decimals), so the words never disagree with the digits.
func oddsFactor(g float64) string {
	if math.IsNaN(g) {
		return ""
	}
	return "odds ×" + fixed(math.Exp(math.Abs(board.Shown(g))), 2)
}

// pointsAtHalf is the change in the probability of "yes", in percentage
// points, that a gap of g logit points makes for a person at 50%: the
// largest change a gap of that size can make.
func pointsAtHalf(g float64) float64 {
	g = math.Abs(board.Shown(g))
	return 100 * (1/(1+math.Exp(-g)) - 0.5)
}

// plainScale writes a gap in plain words beside its score: "odds ×1.82,
// up to 14.8 points of P(yes)".
func plainScale(g float64) string {
	if math.IsNaN(g) {
		return ""
	}
	return oddsFactor(g) + ", up to " + fixed(pointsAtHalf(g), 1) + " points of P(yes)"
}

// scaleNote explains the plain scale once on a page: the same words on
// every page kind, with worked values computed here.
func scaleNote() string {
	ex := func(g float64) string {
		return fixed(g, 2) + " → odds ×" + fixed(math.Exp(g), 2) + " (50% → " + fixed(50+pointsAtHalf(g), 1) + "%)"
	}
	return "How big is a gap? Scores are in logit points (differences in the log-odds of “yes”). A gap of g logit points multiplies the odds of “yes” by e^g: " +
		ex(0.1) + ", " + ex(0.5) + ", " + ex(1) + ". In percentage points of the probability of “yes” the change is largest for a person at 50% and smaller near 0% or 100%; “up to N points” beside a score is that largest change. " +
		"Age coefficients are per standard deviation of age in the run (about " + fixed(ageSDYears, 0) + " years); the age view is the gap between two ages of the design, " + ageGapYears + " years apart on average."
}

// ageSDYears is the standard deviation of the design's nine ages (20 to
// 100), the unit of a complete run's age coefficient.
var ageSDYears = func() float64 {
	var s, ss float64
	for _, a := range design.Ages {
		s += float64(a)
	}
	m := s / float64(len(design.Ages))
	for _, a := range design.Ages {
		ss += (float64(a) - m) * (float64(a) - m)
	}
	return math.Sqrt(ss / float64(len(design.Ages)-1))
}()

// ageGapYears is the mean distance between two of the design's ages.
const ageGapYears = "33⅓"

// familyWise says what a family-wise error rate bounds.
func familyWise(alpha string) string {
	return "the chance that even one of these claims “beyond doubt” is wrong is at most " + alpha + " (a family-wise error rate: it bounds the chance of any false claim, not the share of claims that are wrong)"
}

// coefDisplay names a coefficient for readers: "non-binary", "Native
// American", "age (per SD)", never the JSON name.
func coefDisplay(c design.Coef) string {
	if c == design.CoefAge {
		return "age (per SD, older)"
	}
	return c.Group()
}
