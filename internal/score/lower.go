package score

import (
	"fmt"
	"math"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// A view's interval starts at the smallest view the data allow: the test
// of "no gap" is inverted. Its coefficients' confidence ellipsoid (the
// coefficients that the test behind ViewZeroP, at ZeroAlpha, does not
// reject as the truth) holds the true coefficients with probability 0.95
// whatever they are, so the smallest view over it is below the true view
// as often (stats.SeminormMin): a lower end valid at zero and beside it,
// where no bootstrap of a magnitude is. It is above 0 exactly when the
// test rejects: the interval excludes zero when, and only when, the data
// exclude "no gap at all".
//
// A run just past the test's critical value is there in good part by
// noise: among runs with a small true gap, those the test picks are the
// ones the noise pushed up, and a lower end that grows with the evidence
// at full rate would be above their truth too often (the runs the page
// calls beyond doubt would be covered less than 95% of the time). The
// lower end therefore starts at 0 at the critical value and grows to the
// test inversion's as the evidence does: it is that bound times
// 1 − exp(−((d − r)/SoftStart)²), d the estimate's distance from zero in
// the test's metric (√T²) and r the critical radius. Being at most the
// test inversion's bound, it keeps its guarantee.

// SoftStart is the distance past the test's critical radius (in the
// test's metric: standard errors, for one coefficient) over which a view's
// lower end grows into the test inversion's: the bound is multiplied by
// 1 − exp(−((d − r)/SoftStart)²), 0.22 one SoftStart/2 past, 0.63 at one
// SoftStart, 0.98 at two. Chosen by simulation
// (TestViewIntervalsGivenBeyondDoubt): the intervals that exclude zero
// must cover the truth at least 90% of the time from 0.5 to 1 SE for
// every view, the age view (one coefficient) included, where the bound at
// full rate covers 66% at 0.5 SE and 85% at 1 SE (with a known SE); the
// square in the exponent keeps the bound near zero just past the critical
// value, where that is needed, and lets it reach the test inversion's by
// four standard errors past it (1 − exp(−(d − r)/3) covered the age view
// as well at 0.5 SE but was 19% short of the bound five SEs past).
const SoftStart = 2.0

// viewRows are the gaps of view v as rows acting on the view's own
// coefficients (viewCoefs(v), age per SD of age sd), each weighted by its
// share of the view, so that the view before debiasing is Σ_g |row_g·b|.
func viewRows(v View, sd float64) [][]float64 {
	cs := viewCoefs(v)
	attrs := design.Attributes[:]
	if a, ok := v.Attribute(); ok {
		attrs = []design.Attribute{a}
	}
	var rows [][]float64
	for _, a := range attrs {
		for _, g := range viewGaps[a] {
			row := make([]float64, len(cs))
			for i, c := range cs {
				w := g.W[c]
				if c == design.CoefAge {
					w /= sd
				}
				row[i] = w / float64(len(viewGaps[a])) / float64(len(attrs))
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// viewLower is the lower end of view v's 95% interval at the view's
// coefficients est with covariance c (k×k, viewCoefs(v); age per SD of
// age sd), r the critical radius of the view's test of no gap (rejected
// when √T² > r), point the view's estimate: 0 when the test does not
// reject, otherwise the test inversion's bound shrunk near the critical
// value (above), and never above the estimate. A covariance that is not
// positive definite, or an iteration that fails, gives 0: an interval
// that starts at 0 is valid whatever the truth.
func viewLower(est, c []float64, v View, sd, r, point float64) float64 {
	d := math.Sqrt(stats.T2(est, c))
	if !(d > r) {
		return 0
	}
	low, ok := stats.SeminormMin(est, c, viewRows(v, sd), r)
	if !ok {
		return 0
	}
	x := (d - r) / SoftStart
	low *= 1 - math.Exp(-x*x)
	return math.Max(0, math.Min(low, point))
}

// viewCIText says how a run's views' intervals were obtained, for its
// data file.
func viewCIText() string {
	return fmt.Sprintf("upper end: Poisson bootstrap over decision questions (weights keyed by question id), %d resamples, seed %d, the 97.5%% percentile scaled to t(m − 1); lower end: 0 unless the test that the view's gaps are all zero rejects at %v, then the smallest view over the coefficients the test does not reject, times 1 − exp(−((d − r)/%v)²) near its critical value r", BootstrapResamples, BootstrapSeed, ZeroAlpha, SoftStart)
}
