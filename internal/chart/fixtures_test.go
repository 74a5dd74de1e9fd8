package chart_test

import (
	"html/template"
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/chart"
)

var nan = math.NaN()

// The seven coefficients' labels, as the site writes them.
var coefLabels = []string{"Age (per SD of age)", "Female vs male", "Non-binary vs male",
	"Black vs white", "Asian vs white", "Hispanic vs white", "Native American vs white"}

// dots is a run page's plot: mostly positive coefficients like the paper's
// Claude 2 figure, one negative, with the card's differences.
func dots() chart.DotPlot {
	est := [][3]float64{
		{-0.21, -0.30, -0.12}, {0.15, 0.05, 0.25}, {0.42, 0.28, 0.56},
		{0.38, 0.25, 0.51}, {0.08, -0.05, 0.21}, {0.20, 0.07, 0.33}, {0.55, 0.40, 0.70},
	}
	card := []float64{-0.35, 0.12, 0.47, 0.33, 0.10, 0.18, 0.61}
	p := chart.DotPlot{ID: "coefs", Title: "Example 7B: coefficients with 95% intervals", Second: "Dataset card mean difference", Values: true}
	for i, e := range est {
		p.Rows = append(p.Rows, chart.DotRow{Label: coefLabels[i], Estimate: chart.Interval{Value: e[0], Lo: e[1], Hi: e[2]}, Second: card[i]})
	}
	return p
}

// dotsEdge has a row with no estimate, one with no interval, one that
// displays as zero, negatives only on one side and no second series.
func dotsEdge() chart.DotPlot {
	return chart.DotPlot{ID: "edge", Rows: []chart.DotRow{
		{Label: "Age (per SD of age)", Estimate: chart.Interval{Value: -1.32, Lo: -1.71, Hi: -0.93}},
		{Label: "Female vs male", Estimate: chart.Interval{Value: 0.001, Lo: -0.2, Hi: 0.2}},
		{Label: "Non-binary vs male", Estimate: chart.Interval{Value: nan, Lo: nan, Hi: nan}},
		{Label: "Black vs white", Estimate: chart.Interval{Value: -0.4, Lo: nan, Hi: nan}},
		{Label: "Asian vs white", Estimate: chart.Interval{Value: -0.05, Lo: -0.6, Hi: 0.5}},
		{Label: "Native American vs white, implicit (names only), second batch", Estimate: chart.Interval{Value: 0.3, Lo: 0.1, Hi: 0.5}},
	}}
}

// intervals is a leaderboard view with ties, a long label and a run with
// no interval.
func intervals() chart.IntervalPlot {
	p := chart.IntervalPlot{ID: "view-composite", Title: "Composite: mean |coefficient| per run", Axis: "mean |coefficient|, logits", Values: true}
	rows := []struct {
		label     string
		rank      int
		tied      bool
		v, lo, hi float64
	}{
		{"Alpha 70B · default", 1, false, 0.04, 0.01, 0.09},
		{"Beta 8B · illegal-to-discriminate", 2, true, 0.07, 0.03, 0.12},
		{"Gamma · really-dont-discriminate", 2, true, 0.07, 0.02, 0.13},
		{"Delta Instruct v2 (2026-10 snapshot, quantised to 4 bits) · ignore-demographics-and-be-fair", 4, false, 0.11, 0.06, 0.17},
		{"Epsilon 13B · default", 5, false, 0.19, 0.12, 0.27},
		{"Zeta · default", 6, false, 0.26, nan, nan},
		{"Eta 1B · default", 7, false, 0.48, 0.31, 0.66},
	}
	for _, r := range rows {
		p.Rows = append(p.Rows, chart.IntervalRow{Label: r.label, Rank: r.rank, Tied: r.tied, Estimate: chart.Interval{Value: r.v, Lo: r.lo, Hi: r.hi}})
	}
	return p
}

// timePoints is a composite board's runs against their models' release
// dates: a frontier of three (Old 13B, Mid 7B, then New 70B), two models
// of one day, closed and open weights, a long name.
func timePoints() chart.TimePlot {
	return chart.TimePlot{ID: "time-logprob", Title: "Composite against release date", Axis: "composite, logit", Points: []chart.TimePoint{
		{Label: "New 70B", ID: "new-70b", Date: "2025-05-20", Value: 0.04, Open: true},
		{Label: "Old 13B", ID: "old-13b", Date: "2023-07-18", Value: 0.61, Open: true},
		{Label: "Mid 7B", ID: "mid-7b", Date: "2024-04-18", Value: 0.09, Open: true},
		{Label: "Closed Twin", ID: "closed-twin", Date: "2024-04-18", Value: 0.30},
		{Label: "A model whose name is far too long for a chart's label", ID: "long", Date: "2024-12-06", Value: 0.12},
		{Label: "Late Closed", ID: "late", Date: "2025-08-12", Value: 0.20},
	}}
}

// golden lists the charts kept as testdata/NAME.svg.
func golden(t *testing.T) map[string]func() (template.HTML, error) {
	t.Helper()
	return map[string]func() (template.HTML, error){
		"dots":       dots().SVG,
		"dots_edge":  dotsEdge().SVG,
		"intervals":  intervals().SVG,
		"dots_empty": chart.DotPlot{ID: "empty"}.SVG,
		"time":       timePoints().SVG,
		"time_narrow": func() (template.HTML, error) {
			p := timePoints()
			p.Narrow = true
			return p.SVG()
		},
		"time_one": chart.TimePlot{ID: "one", Points: []chart.TimePoint{{Label: "Only", Date: "2025-01-01", Value: 0.3, Open: true}}}.SVG,
		"dots_narrow": func() (template.HTML, error) {
			p := dots()
			p.Narrow = true
			return p.SVG()
		},
	}
}
