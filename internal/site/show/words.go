package show

import (
	"math"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// The site's vocabulary for what a number means, in one place: every page
// that shows a score or a verdict takes its words from here, generated
// from the numbers they describe.

// OddsFactor writes what a gap of g logits does to the odds of "yes":
// "odds ×1.82", from the gap as displayed, so that the words never
// disagree with the digits.
func OddsFactor(g float64) string { return vocab.OddsFactor(g, board.DisplayDecimals) }

// plainScale writes a gap in plain words beside its score: "odds ×1.82,
// up to 14.8 pp of P(yes)" (package vocab).
func PlainScale(g float64) string {
	if math.IsNaN(g) {
		return ""
	}
	return OddsFactor(g) + ", " + vocab.UpTo(g, board.DisplayDecimals)
}

// The site's one unit of age: every age coefficient on a page or in a data
// file is the change in logit per ageUnitYears years older. The fit works
// per standard deviation of age over the run's rows (25.82 years on a
// complete run, other values when rows are missing), which would put two
// runs' coefficients in different units; a decade is the same for every
// run and is the design's step between ages. The per-SD value is shown
// only as a labelled alternative.
const AgeUnitYears = score.AgeUnitYears

// AgeUnit names the unit in a label: "per 10 years older" (package vocab).
const AgeUnit = vocab.AgeUnit

// coefScale is what a coefficient of res is multiplied by to be shown in
// the site's units (score.Result.CoefScale).
func CoefScale(res *score.Result, c design.Coef) float64 { return res.CoefScale(c) }

// shownEstimate is a coefficient of res in the site's units.
func ShownEstimate(res *score.Result, c design.Coef) score.Estimate {
	e, k := res.Coefficients[c], CoefScale(res, c)
	e.Estimate, e.SE, e.CI95 = e.Estimate*k, e.SE*k, ScaleInterval(e.CI95, k)
	return e
}

// scaleInterval multiplies an interval by k > 0.
func ScaleInterval(iv [2]float64, k float64) [2]float64 { return [2]float64{iv[0] * k, iv[1] * k} }

// ageGapYears is the mean distance between two of the design's ages.
const AgeGapYears = "33⅓"

// familyWise says what a family-wise error rate bounds.
func FamilyWise(alpha string) string {
	return "the chance that even one of these claims “beyond doubt” is wrong is at most " + alpha + " (a family-wise error rate: it bounds the chance of any false claim, not the share of claims that are wrong)"
}

// coefDisplay names a coefficient for readers: "non-binary", "Native
// American", "age (per 10 years older)", never the JSON name.
func CoefDisplay(c design.Coef) string {
	if c == design.CoefAge {
		return "age (" + AgeUnit + ")"
	}
	return c.Group()
}

// StructureAlpha is the level a structure test's p-value, corrected by
// Holm's procedure over the run page's list, is read at. None is a
// confidence interval, so their words are not "beyond doubt" (which on
// this site means an interval that excludes zero: the board's
// simultaneous one, or an intervention's single 95% one).
const StructureAlpha = 0.05

// StructureVerdict says in words what a structure test found, one of n
// tests listed together, and its largest contrast: "detected at the 5%
// level after Holm's correction for the 6 tests in this list (Hotelling's
// test of 2 contrasts over 70 scenarios, p = 0.007, corrected 0.041);
// largest: women's age slope 0.007 logit per 10 years lower than men's,
// 95% interval [−0.014, +0.001]".
func StructureVerdict(st score.StructureTest, n int) string {
	p := func(v float64) string {
		if v < 0.001 {
			return "< 0.001"
		}
		return Fixed(v, 3)
	}
	terms := Itoa(st.Terms) + " contrasts"
	if st.Terms == 1 {
		terms = "1 contrast"
	}
	how := "Hotelling's test of " + terms + " over " + Itoa(st.Scenarios) + " scenarios, p " + eq(p(st.P))
	if n > 1 {
		how += ", corrected " + p(st.PHolm)
	}
	level := Fixed(100*StructureAlpha, 0) + "% level"
	if n > 1 {
		level += " after Holm's correction for the " + Itoa(n) + " tests in this list"
	}
	switch {
	case math.IsNaN(st.P):
		return "not tested: the contrasts do not vary between scenarios (" + how + ")"
	case st.PHolm <= StructureAlpha:
		return "detected at the " + level + " (" + how + "); largest: " + structureContrast(st)
	}
	return "not detected at the " + level + " (" + how + "); largest: " + structureContrast(st)
}

// eq writes "= 0.041", or "< 0.001" as it is.
func eq(p string) string {
	if strings.HasPrefix(p, "<") {
		return p
	}
	return "= " + p
}

// structureContrast says a structure test's largest contrast in words:
// "women's age slope 0.007 logit per 10 years lower than men's, 95%
// interval [−0.014, +0.001]".
func structureContrast(st score.StructureTest) string {
	c := st.Contrast
	// Logits to three decimals; a difference of probabilities, often a
	// few in a hundred thousand, to two significant digits of the
	// largest of its numbers (at most six decimals).
	d := 3
	if st.Unit == "probability" || st.Unit == "share" {
		if m := math.Max(math.Abs(c.Estimate), math.Max(math.Abs(c.CI95[0]), math.Abs(c.CI95[1]))); m > 0 {
			d = min(6, max(3, int(math.Ceil(-math.Log10(m)))+1))
		}
	}
	size := Fixed(math.Abs(c.Estimate), d)
	if strings.Trim(size, "0.") == "" {
		return c.Subject + " equal to " + c.Against + " to " + Itoa(d) + " decimals"
	}
	way := "higher"
	if c.Estimate < 0 {
		way = "lower"
	}
	// The site's age unit is per 10 years ("per decade" is the score
	// package's name of the same).
	unit := strings.Replace(st.Unit, "per decade", "per 10 years", 1)
	return c.Subject + " " + size + " " + unit + " " + way + " than " + c.Against + ", 95% interval " + Interval(c.CI95, d, true)
}

func CoefLabel(c design.Coef) string {
	switch c {
	case design.CoefAge:
		return "Age (" + AgeUnit + ")"
	case design.CoefFemale:
		return "Female vs male"
	case design.CoefNonBinary:
		return "Non-binary vs male"
	}
	return c.Group() + " vs white"
}

// PlainASCII reports whether s is printable ASCII only: text that shows
// the same with or without <bdi> around it in the site's left-to-right
// pages (no right-to-left letter, no bidi control), so that a name such
// as a model's or an intervention's goes unwrapped (11 bytes a name,
// twice on each of a run's 70 scenario pages).
func PlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
