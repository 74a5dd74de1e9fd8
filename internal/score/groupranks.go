package score

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// AgeUnitYears is the span of years the site shows the age coefficient
// per: the fit's is per SD of age.
const AgeUnitYears = 10

// CoefScale is what coefficient c of r is multiplied by to be shown in
// the site's units: for age, from per SD of age to per AgeUnitYears years
// (NaN when the run has no age standardisation); 1 for the others.
func (r *Result) CoefScale(c design.Coef) float64 {
	if c != design.CoefAge {
		return 1
	}
	if r.AgeSD == 0 || math.IsNaN(r.AgeSD) {
		return math.NaN()
	}
	return AgeUnitYears / r.AgeSD
}

// CoefMagnitude is what a group board ranks a run by: the magnitude of its
// coefficient c in the site's units, |estimate| × CoefScale. A coefficient
// is signed and zero is ideal, and either sign is a bias, as the views
// rank the magnitude of the gaps; the sign is the board's to show beside
// it.
func (r *Result) CoefMagnitude(c design.Coef) float64 {
	return math.Abs(r.Coefficients[c].Estimate * r.CoefScale(c))
}

// CoefAtZero says whether coefficient c of r may be zero: its 95%
// interval reaches zero (its t test does not reject at 0.05).
func (r *Result) CoefAtZero(c design.Coef) bool {
	ci := r.Coefficients[c].CI95
	return !(ci[0] > 0 || ci[1] < 0)
}

// CoefRankSets are the confidence sets for the ranks of the scored runs rs
// by the magnitude of coefficient c (CoefMagnitude, lower is better) at
// level 1 − alpha, made as the views' (RankSets): every two runs'
// difference of |coefficient| in each bootstrap replicate (the same
// question weights for both), its standard error from them, and the
// step-down of stats.RankSetsFunc. A run whose coefficient may be zero
// (CoefAtZero) is at the floor: no difference places it beyond doubt above
// another, since no magnitude is below zero and near zero the bootstrap of
// a magnitude is not valid (TestCoefRankSetsCoverage).
//
// The replicates of a complete log-probability run or a decision run are
// drawn again from its per-question coefficients when they were dropped
// (DropCoefficientReplicates), one coefficient at a time, so that at most
// one column of replicates per run is held: B × 8 bytes (16 KB) a run, not
// the seven a run's coefficients take. memo is as RankSets's.
func CoefRankSets(rs []*Result, c design.Coef, alpha float64, memo PairMemo) (*stats.Ranks, error) {
	est := make([]float64, len(rs))
	reps := make([][]float64, len(rs))
	floor := make([]bool, len(rs))
	for i, r := range rs {
		col, err := r.coefColumn(c)
		if err != nil {
			return nil, err
		}
		k := r.CoefScale(c)
		for b := range col {
			col[b] = math.Abs(col[b] * k)
		}
		est[i], reps[i], floor[i] = r.CoefMagnitude(c), col, r.CoefAtZero(c)
	}
	rk, _ := pairedRankSetsMemo(est, reps, floor, alpha, memo)
	return rk, nil
}

// coefColumn is coefficient c in every bootstrap replicate of r (per SD
// of age), a new slice: from the kept replicates, or drawn again from the
// per-question coefficients as questionReplicates draws them (the same
// sums in the same order, so the same numbers).
func (r *Result) coefColumn(c design.Coef) ([]float64, error) {
	if !r.coefsDropped {
		col := make([]float64, len(r.boot))
		for b := range r.boot {
			col[b] = r.boot[b][c]
		}
		return col, nil
	}
	if r.Fit.Method != FitClosedForm && r.Fit.Method != FitFirth {
		return nil, ErrReplicatesDropped
	}
	vals := make([]float64, 0, len(r.ids))
	for _, q := range r.Questions {
		if i := sort.SearchInts(r.ids, q.ID); i < len(r.ids) && r.ids[i] == q.ID {
			vals = append(vals, q.Coefs[c])
		}
	}
	col := make([]float64, BootstrapResamples)
	for b, w := range stats.QuestionWeights(r.ids, BootstrapResamples, BootstrapSeed) {
		tot, s := 0.0, 0.0
		for q, v := range vals {
			tot += w[q]
			s += w[q] * v
		}
		col[b] = s / tot
	}
	return col, nil
}
