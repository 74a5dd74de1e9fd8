package stats

import (
	"math"
	"runtime"
	"sort"
	"sync"
)

// RankSet is a set of ranks {Lo, …, Hi}, 1 the best.
type RankSet struct{ Lo, Hi int }

// Ranks holds confidence sets for the ranks of n estimates (lower is
// better), after Mogstad, Romano, Shaikh and Wilhelm, "Inference for
// Ranks with Applications to Mobility across Neighbourhoods and Academic
// Achievement across Countries" (Review of Economic Studies, 2024).
type Ranks struct {
	// Marginal[j] holds run j's true rank with probability at least
	// 1 − α: {1 + the runs better than j, …, n − the runs worse than j},
	// "better" and "worse" decided by simultaneous 1 − α intervals for
	// the n − 1 differences between j and the others. MarginalCrit[j] is
	// their critical value.
	Marginal     []RankSet
	MarginalCrit []float64
	// Simultaneous holds every run's true rank at once with probability
	// at least 1 − α: the same with simultaneous intervals for all
	// n(n − 1)/2 differences, critical value SimCrit (single step: the
	// intervals est ± SimCrit·se hold together).
	Simultaneous []RankSet
	SimCrit      float64
}

// RankSets computes the marginal and simultaneous confidence sets for the
// ranks of est (lower is better) at level 1 − alpha. reps[j] are
// bootstrap replicates of est[j], drawn with the same weights for every j
// (a paired bootstrap: stats.QuestionWeights), and se[j][k] the standard
// error of est[j] − est[k]. The critical values are bootstrap quantiles of
// the largest |t| over the family, t the centred replicate difference
// over its standard error; a run's own family is refined step-down
// (Romano and Wolf 2005): the differences found at one step are removed
// from the maximum at the next, until no more are found. A difference with a zero standard error is
// beyond doubt when its estimate is not zero. The result is a
// deterministic function of the inputs.
func RankSets(est []float64, reps [][]float64, se [][]float64, alpha float64) *Ranks {
	return RankSetsFunc(est, reps, func(j, k int) float64 { return se[j][k] }, alpha)
}

// RankSetsFunc is RankSets with the standard errors given by a function,
// se(j, k) that of est[j] − est[k], so that a caller need not hold them
// as an n × n matrix.
func RankSetsFunc(est []float64, reps [][]float64, seOf func(j, k int) float64, alpha float64) *Ranks {
	n := len(est)
	r := &Ranks{Marginal: make([]RankSet, n), MarginalCrit: make([]float64, n), Simultaneous: make([]RankSet, n)}
	if n == 0 {
		return r
	}
	B := len(reps[0])
	// Centred replicates and inverse standard errors.
	z := make([][]float64, n)
	for j := range reps {
		m := 0.0
		for _, v := range reps[j] {
			m += v
		}
		m /= float64(B)
		z[j] = make([]float64, B)
		for b, v := range reps[j] {
			z[j][b] = v - m
		}
	}
	tstat := func(j, k int) float64 {
		d := est[j] - est[k]
		se := seOf(j, k)
		if se == 0 {
			if d == 0 {
				return 0
			}
			return math.Copysign(math.Inf(1), d)
		}
		return d / se
	}
	// active[j][k]: the difference j − k is still in the maximum.
	// maxInto folds |z_j − z_k| / se over the active k into t (length B).
	maxInto := func(t []float64, j int, active []bool) {
		zj := z[j]
		for k := range n {
			if k == j || !active[k] {
				continue
			}
			se := seOf(j, k)
			if se == 0 {
				continue
			}
			inv := 1 / se
			zk := z[k]
			for b := range t {
				if v := math.Abs(zj[b]-zk[b]) * inv; v > t[b] {
					t[b] = v
				}
			}
		}
	}
	crit := func(t []float64) float64 {
		s := append([]float64(nil), t...)
		sort.Float64s(s)
		return Quantile(s, 1-alpha)
	}
	// Marginal sets, a run per job; each job also keeps its first step's
	// maxima for the simultaneous family's first step.
	first := make([][]float64, n)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			t := make([]float64, B)
			for j := range jobs {
				active := make([]bool, n)
				for k := range active {
					active[k] = k != j
				}
				c := 0.0
				for step := 0; ; step++ {
					clear(t)
					maxInto(t, j, active)
					if step == 0 {
						first[j] = append([]float64(nil), t...)
					}
					c = crit(t)
					found := false
					for k := range n {
						if active[k] && math.Abs(tstat(j, k)) > c {
							active[k], found = false, true
						}
					}
					if !found {
						break
					}
				}
				r.MarginalCrit[j] = c
				r.Marginal[j] = rankSet(n, j, c, tstat)
			}
		})
	}
	for j := range n {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	// Simultaneous, in a single step (its intervals are shown, and a
	// step-down refinement would decide some differences that its
	// intervals do not exclude): the maximum over all pairs is the
	// maximum of the runs' own first steps.
	t := make([]float64, B)
	for j := range n {
		for b, v := range first[j] {
			t[b] = math.Max(t[b], v)
		}
	}
	c := crit(t)
	r.SimCrit = c
	for j := range n {
		r.Simultaneous[j] = rankSet(n, j, c, tstat)
	}
	return r
}

// rankSet is run j's set of ranks when the differences with |t| > c are
// beyond doubt.
func rankSet(n, j int, c float64, tstat func(j, k int) float64) RankSet {
	s := RankSet{Lo: 1, Hi: n}
	for k := range n {
		if k == j {
			continue
		}
		switch t := tstat(j, k); {
		case t > c: // j − k > 0: k is better
			s.Lo++
		case t < -c:
			s.Hi--
		}
	}
	return s
}
