package score

import (
	"fmt"
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// Diff is a paired difference between two runs (b − a) with its bootstrap
// standard error, a 95% interval (estimate ± 1.96 SE) and the two-sided
// p-value of "no difference" from the same normal approximation, so that
// the interval excludes zero exactly when P < 0.05.
type Diff struct {
	Estimate, SE float64
	CI95         [2]float64
	P            float64
}

// Comparison is the difference between two scored runs (b − a: negative
// means b is less biased), paired: both runs' bootstrap replicates weigh
// each decision question by the same Poisson count (weights are keyed by
// question id), so what the questions have in common cancels.
type Comparison struct {
	Questions int // decision questions both runs answered
	Views     [NumViews]Diff
	Coefs     [design.NumCoefs]Diff
}

// DropCoefficientReplicates lets go of the coefficients' bootstrap
// replicates, which only Compare reads (for a run and its prompt
// interventions); the views' replicates, which every pair of runs on a
// board needs, stay. A 400-run build keeps 50 MB less.
func (r *Result) DropCoefficientReplicates() { r.boot = nil; r.coefsDropped = true }

// Compare compares two scored runs. The point estimates are the
// differences of the runs' own numbers, so they agree with what the boards
// show; the uncertainty comes from the replicates.
func Compare(a, b *Result) (*Comparison, error) {
	if a.coefsDropped || b.coefsDropped {
		return nil, fmt.Errorf("a run's coefficient replicates were dropped (DropCoefficientReplicates)")
	}
	if a.boot == nil || b.boot == nil {
		return nil, fmt.Errorf("paired comparisons need two scored runs")
	}
	if a.Method != b.Method {
		return nil, fmt.Errorf("a %s run cannot be compared with a %s run", a.Method, b.Method)
	}
	c := &Comparison{Questions: shared(a.ids, b.ids)}
	if c.Questions < 2 {
		return nil, fmt.Errorf("the runs share %d decision questions; a paired comparison needs two", c.Questions)
	}
	for _, v := range Views {
		c.Views[v] = ViewDiff(a, b, v)
	}
	vals := make([]float64, len(a.boot))
	for _, k := range design.Coefs {
		for i := range vals {
			vals[i] = b.boot[i][k] - a.boot[i][k]
		}
		c.Coefs[k] = newDiff(b.Coefficients[k].Estimate-a.Coefficients[k].Estimate, sd(vals))
	}
	return c, nil
}

// ViewDiff is the paired difference b − a of one view. Both runs must be
// scored.
func ViewDiff(a, b *Result, v View) Diff {
	x, y := a.viewBoot[v], b.viewBoot[v]
	// sd of y − x without a scratch slice: this runs for every pair of runs
	// on a board.
	n := float64(len(x))
	var m float64
	for i := range x {
		m += y[i] - x[i]
	}
	m /= n
	var ss float64
	for i := range x {
		d := y[i] - x[i] - m
		ss += d * d
	}
	return newDiff(b.Views[v].Estimate-a.Views[v].Estimate, math.Sqrt(ss/(n-1)))
}

func newDiff(est, se float64) Diff {
	const z = 1.959963984540054
	return Diff{Estimate: est, SE: se, CI95: [2]float64{est - z*se, est + z*se}, P: stats.TwoSidedP(est, se)}
}

// shared counts the ids in both sorted lists.
func shared(a, b []int) int {
	n := 0
	for _, q := range a {
		if i := sort.SearchInts(b, q); i < len(b) && b[i] == q {
			n++
		}
	}
	return n
}

// percentile returns the 2.5% and 97.5% quantiles; it sorts a copy.
func percentile(vals []float64) [2]float64 {
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	return [2]float64{stats.Quantile(s, 0.025), stats.Quantile(s, 0.975)}
}

// sd is the sample standard deviation.
func sd(xs []float64) float64 {
	n := float64(len(xs))
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= n
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / (n - 1))
}
