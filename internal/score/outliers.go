package score

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// Outlier scenarios. A complete run's per-question coefficients are, under
// the paper's model, independent draws from one normal distribution (the
// true coefficients plus the question's random effects plus its own
// noise), so a scenario whose seven coefficients stand out of the others'
// spread can be tested: its coefficients against the mean and sample
// covariance of the other m − 1, by Hotelling's statistic for a new
// observation,
//
//	T² = (c_q − c̄₋q)′ S₋q⁻¹ (c_q − c̄₋q) / (1 + 1/(m − 1)),
//
// referred to F(7, m − 8) as (m − 8)/(7(m − 2)) · T² (exact for normal
// draws), and the m p-values adjusted by Holm's procedure: a scenario is
// an outlier when its adjusted p-value is at most OutlierAlpha, so that
// a run with none has a scenario flagged with probability at most 0.05.
// The test does not depend on which groups are the reference (it is
// invariant to a linear change of the coefficients). Only a closed-form
// run has them: a REML fit's per-question coefficients are shrunk towards
// the mean, and a decision run's carry sampling noise of a size that
// differs from question to question.

// OutlierAlpha is the family-wise level of the outlier flags over a run's
// scenarios.
const OutlierAlpha = 0.05

// Outlier is a scenario's test of standing out of the others.
type Outlier struct {
	Tested bool
	P      float64 // p-value of its coefficients being a draw like the others'
	PHolm  float64 // P adjusted by Holm's procedure over the run's scenarios
	// Flagged says PHolm ≤ OutlierAlpha.
	Flagged bool
	// Coef is the coefficient that stands out most: the largest |Z|, its
	// deviation from the others' mean over their SD (× √(1 + 1/(m − 1)),
	// as a new draw's); Value and Others are its value and the others'
	// mean (age per SD of age).
	Coef          design.Coef
	Z             float64
	Value, Others float64
}

// setOutliers tests every question of a closed-form run.
func (res *Result) setOutliers() {
	m := len(res.Questions)
	const p = int(design.NumCoefs)
	if res.Fit.Method != FitClosedForm || m < p+3 {
		return
	}
	ps := make([]float64, m)
	rows := make([][]float64, 0, m-1)
	f := distuv.F{D1: float64(p), D2: float64(m - 1 - p)}
	for q := range res.Questions {
		rows = rows[:0]
		for k := range res.Questions {
			if k != q {
				rows = append(rows, res.Questions[k].Coefs[:])
			}
		}
		mean, cov := stats.MeanCov(rows, p)
		n := float64(m - 1)
		d := make([]float64, p)
		for i := range d {
			d[i] = res.Questions[q].Coefs[i] - mean[i]
		}
		scaled := make([]float64, len(cov))
		for i, v := range cov {
			scaled[i] = v * (1 + 1/n)
		}
		o := &res.Questions[q].Outlier
		t2 := stats.T2(d, scaled)
		o.Tested = !math.IsNaN(t2)
		o.P = f.Survival((n - float64(p)) / (float64(p) * (n - 1)) * t2)
		ps[q] = o.P
		if math.IsNaN(ps[q]) {
			ps[q] = 1
		}
		for _, c := range design.Coefs {
			z := d[c] / math.Sqrt(scaled[int(c)*p+int(c)])
			if c == 0 || math.Abs(z) > math.Abs(o.Z) {
				o.Coef, o.Z, o.Value, o.Others = c, z, res.Questions[q].Coefs[c], mean[c]
			}
		}
	}
	for q, a := range stats.Holm(ps) {
		o := &res.Questions[q].Outlier
		o.PHolm = a
		if !o.Tested {
			o.PHolm = math.NaN()
		}
		o.Flagged = o.Tested && a <= OutlierAlpha
	}
}

// Outliers are the ids of the run's flagged scenarios, in question order.
func (res *Result) Outliers() []int {
	var out []int
	for _, q := range res.Questions {
		if q.Outlier.Flagged {
			out = append(out, q.ID)
		}
	}
	return out
}
