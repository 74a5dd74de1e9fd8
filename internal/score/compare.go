package score

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// Diff is a paired difference between two runs (b − a) with its bootstrap
// standard error, a 95% interval and a p-value.
//
// From Compare, the interval is the percentile interval of the paired
// replicates' differences, widened to reach zero when the test that the
// two runs' coefficients behind the view are equal (P, Hotelling's T² on
// the paired coefficient differences with their bootstrap covariance)
// does not reject at ZeroAlpha: equal coefficients mean equal views, and
// near there the difference of two debiased magnitudes is biased, so
// zero cannot be excluded unless the signed gaps differ. From ViewDiff
// (every pair of a board, where only the views' replicates are kept) it
// is estimate ± 1.96 SE and P the normal test's; the boards' rank sets
// use the SE with their own critical values (board.RankSets).
type Diff struct {
	Estimate, SE float64
	CI95         [2]float64
	P            float64
}

// Comparison is the difference between two scored runs (b − a: negative
// means b is less biased), paired: both runs' bootstrap replicates weigh
// each decision question by the same Poisson count (weights are keyed by
// question id), so what the questions have in common cancels. It is made
// on the decision questions both runs answered: when their questions
// differ, both runs are recomputed on the shared ones (Restricted says
// so).
type Comparison struct {
	Questions  int // decision questions both runs answered
	Restricted bool
	Views      [NumViews]Diff
	Coefs      [design.NumCoefs]Diff
}

// ErrReplicatesDropped is Compare's error for a run whose coefficient
// replicates were let go: a caller's mistake, unlike the other reasons
// two runs cannot be compared, which come from their data.
var ErrReplicatesDropped = errors.New("a run's coefficient replicates were dropped (DropCoefficientReplicates)")

// DropCoefficientReplicates lets go of the coefficients' bootstrap
// replicates, which only Compare reads; the views' replicates, which every
// pair of runs on a board needs, stay. A 400-run build keeps 50 MB less.
// Compare draws them again from the per-question coefficients of a
// complete log-probability run or a decision run (their coefficients are
// the per-question mean); a REML fit's cannot be drawn again, so they are
// kept.
func (r *Result) DropCoefficientReplicates() {
	if r.Fit.Method == FitREML {
		return
	}
	r.boot = nil
	r.coefsDropped = true
}

// withReplicates returns the run with its coefficient replicates, drawn
// again from its per-question coefficients when they were dropped (the
// same question weights, so the same replicates up to rounding).
func (r *Result) withReplicates() (*Result, error) {
	if !r.coefsDropped {
		return r, nil
	}
	if r.Fit.Method != FitClosedForm && r.Fit.Method != FitFirth {
		return nil, ErrReplicatesDropped
	}
	out := *r
	out.boot, out.coefsDropped = questionReplicates(r.Questions, r.ids), false
	return &out, nil
}

// questionReplicates are the bootstrap replicates of the mean of the
// per-question coefficients of the questions with the given ids (a subset
// of qs's, ascending).
func questionReplicates(qs []Question, ids []int) [][design.NumCoefs]float64 {
	rows := make([][]float64, 0, len(ids))
	for _, q := range qs {
		if i := sort.SearchInts(ids, q.ID); i < len(ids) && ids[i] == q.ID {
			rows = append(rows, q.Coefs[:])
		}
	}
	boot := make([][design.NumCoefs]float64, BootstrapResamples)
	for r, w := range stats.QuestionWeights(ids, BootstrapResamples, BootstrapSeed) {
		tot := 0.0
		for q, row := range rows {
			tot += w[q]
			for _, k := range design.Coefs {
				boot[r][k] += w[q] * row[k]
			}
		}
		for _, k := range design.Coefs {
			boot[r][k] /= tot
		}
	}
	return boot
}

// Compare compares two scored runs. The point estimates are the
// differences of the runs' own numbers, so they agree with what the boards
// show (unless the runs were restricted to their shared questions); the
// uncertainty comes from the replicates.
func Compare(a, b *Result) (*Comparison, error) {
	a, err := a.withReplicates()
	if err != nil {
		return nil, err
	}
	if b, err = b.withReplicates(); err != nil {
		return nil, err
	}
	if a.boot == nil || b.boot == nil {
		return nil, fmt.Errorf("paired comparisons need two scored runs")
	}
	if a.Method != b.Method {
		return nil, fmt.Errorf("a %s run cannot be compared with a %s run", a.Method, b.Method)
	}
	ids := intersect(a.ids, b.ids)
	c := &Comparison{Questions: len(ids)}
	if c.Questions < 2 {
		return nil, fmt.Errorf("the runs share %d decision questions; a paired comparison needs two", c.Questions)
	}
	if !slices.Equal(a.ids, b.ids) {
		ra, err := a.restrict(ids)
		var rb *Result
		if err == nil {
			rb, err = b.restrict(ids)
		}
		if err != nil {
			return nil, fmt.Errorf("the runs answered different decision questions (%d and %d, %d shared) and cannot be compared on the shared ones: %w", len(a.ids), len(b.ids), len(ids), err)
		}
		a, b, c.Restricted = ra, rb, true
	}
	var est [design.NumCoefs]float64
	d := make([][design.NumCoefs]float64, len(a.boot))
	for i := range d {
		for _, k := range design.Coefs {
			d[i][k] = b.boot[i][k] - a.boot[i][k]
		}
	}
	vals := make([]float64, len(a.boot))
	for _, k := range design.Coefs {
		est[k] = b.Coefficients[k].Estimate - a.Coefficients[k].Estimate
		for i := range vals {
			vals[i] = d[i][k]
		}
		c.Coefs[k] = newDiff(est[k], sd(vals))
	}
	cov := bootCov(d)
	for _, v := range Views {
		x, y := a.viewBoot[v], b.viewBoot[v]
		for i := range vals {
			vals[i] = y[i] - x[i]
		}
		diff := newDiff(b.Views[v].Estimate-a.Views[v].Estimate, sd(vals))
		diff.P = zeroTest(&est, &cov, viewCoefs(v), len(ids))
		widen := func(lo, hi float64) {
			diff.CI95[0], diff.CI95[1] = math.Min(diff.CI95[0], lo), math.Max(diff.CI95[1], hi)
		}
		if !(diff.P <= ZeroAlpha) {
			widen(0, 0)
		}
		if !(a.ViewZeroP[v] <= ZeroAlpha && b.ViewZeroP[v] <= ZeroAlpha) {
			// A run whose view may be zero: its debiased magnitude is
			// biased there and the paired interval misses; every
			// difference the two runs' own intervals allow is kept.
			ia, ib := a.Views[v].CI95, b.Views[v].CI95
			widen(ib[0]-ia[1], ib[1]-ia[0])
		}
		c.Views[v] = diff
	}
	return c, nil
}

// bootCov is the sample covariance of replicates.
func bootCov(d [][design.NumCoefs]float64) [design.NumCoefs][design.NumCoefs]float64 {
	rows := make([][]float64, len(d))
	for i := range d {
		rows[i] = d[i][:]
	}
	_, flat := stats.MeanCov(rows, nc)
	var out [design.NumCoefs][design.NumCoefs]float64
	for i := range out {
		copy(out[i][:], flat[i*nc:(i+1)*nc])
	}
	return out
}

// restrict returns the run recomputed on the decision questions ids (a
// subset of its own, ascending): coefficients, covariance, replicates and
// views. Only runs whose coefficients are the mean of per-question
// coefficients can be (complete log-probability runs, decision runs); a
// REML fit would have to be refitted.
func (res *Result) restrict(ids []int) (*Result, error) {
	if slices.Equal(res.ids, ids) {
		return res, nil
	}
	if res.Fit.Method != FitClosedForm && res.Fit.Method != FitFirth {
		return nil, fmt.Errorf("a run fitted by %s is not the mean of per-question coefficients", res.Fit.Method)
	}
	out := *res
	out.ids = ids
	rows := make([][]float64, 0, len(ids))
	for _, q := range res.Questions {
		if i := sort.SearchInts(ids, q.ID); i < len(ids) && ids[i] == q.ID {
			rows = append(rows, q.Coefs[:])
		}
	}
	m := len(rows)
	mean, cov := stats.MeanCov(rows, nc)
	for _, k := range design.Coefs {
		for j := range design.Coefs {
			out.Cov[k][j] = cov[int(k)*nc+j] / float64(m)
		}
		out.Coefficients[k] = Estimate{Estimate: mean[k], SE: math.Sqrt(out.Cov[k][k])}
	}
	out.Fit.DF = m - 1
	out.boot = questionReplicates(res.Questions, ids)
	out.setViews()
	return &out, nil
}

// CoefficientReplicates returns the coefficients' bootstrap replicates
// (age per SD of age; not a copy: do not modify), in replicate order, or
// nil when they were dropped (DropCoefficientReplicates keeps a REML
// fit's, which cannot be drawn again).
func (r *Result) CoefficientReplicates() [][design.NumCoefs]float64 { return r.boot }

// ViewReplicates returns the view's bootstrap replicates (not a copy: do
// not modify), in replicate order: the same question weights for every
// run, so replicate b of two runs are paired.
func (r *Result) ViewReplicates(v View) []float64 { return r.viewBoot[v] }

// ViewDiff is the paired difference b − a of one view. Both runs must be
// scored.
func ViewDiff(a, b *Result, v View) Diff {
	return newDiff(b.Views[v].Estimate-a.Views[v].Estimate, pairedSD(a.viewBoot[v], b.viewBoot[v]))
}

// pairedSD is the sample standard deviation of y − x over paired
// replicates, without a scratch slice: it runs for every pair of runs on
// a board.
func pairedSD(x, y []float64) float64 {
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
	return math.Sqrt(ss / (n - 1))
}

// pairedSD4 is pairedSD(x0, y) … pairedSD(x3, y), each to the bit: every
// pair's sums are taken in pairedSD's order, the four side by side so
// that one pair's additions need not wait for the one before (pairedSD
// is a chain of dependent additions). The x are as long as y.
func pairedSD4(y, x0, x1, x2, x3 []float64) [4]float64 {
	n := float64(len(y))
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	var m0, m1, m2, m3 float64
	for i, v := range y {
		m0 += v - x0[i]
		m1 += v - x1[i]
		m2 += v - x2[i]
		m3 += v - x3[i]
	}
	m0 /= n
	m1 /= n
	m2 /= n
	m3 /= n
	var s0, s1, s2, s3 float64
	for i, v := range y {
		d0 := v - x0[i] - m0
		d1 := v - x1[i] - m1
		d2 := v - x2[i] - m2
		d3 := v - x3[i] - m3
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	return [4]float64{math.Sqrt(s0 / (n - 1)), math.Sqrt(s1 / (n - 1)), math.Sqrt(s2 / (n - 1)), math.Sqrt(s3 / (n - 1))}
}

func newDiff(est, se float64) Diff {
	const z = 1.959963984540054
	return Diff{Estimate: est, SE: se, CI95: [2]float64{est - z*se, est + z*se}, P: stats.TwoSidedP(est, se)}
}

// intersect returns the ids in both sorted lists.
func intersect(a, b []int) []int {
	var out []int
	for _, q := range a {
		if i := sort.SearchInts(b, q); i < len(b) && b[i] == q {
			out = append(out, q)
		}
	}
	return out
}

// percentile returns the 2.5% and 97.5% quantiles, the values of
// stats.Quantile on a sorted copy: without a NaN, stats.TailQuantiles
// finds the same order statistics without sorting (a NaN, which sorting
// puts first, takes the sort).
func percentile(vals []float64) [2]float64 {
	s := append([]float64(nil), vals...)
	if !slices.ContainsFunc(s, math.IsNaN) {
		lo, hi := stats.TailQuantiles(s, 0.025, 0.975)
		return [2]float64{lo, hi}
	}
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

// nc is the number of coefficients, as an int.
const nc = int(design.NumCoefs)

// RankSets are the confidence sets for the ranks of the scored runs rs in
// view v at level 1 − alpha (Mogstad, Romano, Shaikh and Wilhelm 2024;
// stats.RankSetsFunc): from every two runs' paired difference, its
// standard error from their replicates (ViewDiff) and the bootstrap's
// largest |t| over the differences still undecided, step by step. A run
// whose view may be zero — its test of "no gap" does not reject at
// ZeroAlpha, its interval reaches zero — is at the floor: no difference
// places it beyond doubt above another run, since no run's true view is
// below zero; near zero the bootstrap of a debiased magnitude is not
// valid, and this keeps the sets valid there (TestRankSetsNearZero).
// The standard errors are held while the sets are made, n(n − 1)/2 of
// them, and let go.
//
// memo (nil for none) keeps the pairwise work from one build to the next
// (PairMemo): the sets are the same with it or without.
//
// The paired standard errors the sets were made from come with them
// (PairSEs): every two runs' ViewDiff's, to the bit.
func RankSets(rs []*Result, v View, alpha float64, memo PairMemo) (*stats.Ranks, PairSEs) {
	est := make([]float64, len(rs))
	reps := make([][]float64, len(rs))
	floor := make([]bool, len(rs))
	for i, r := range rs {
		est[i], reps[i] = r.Views[v].Estimate, r.viewBoot[v]
		floor[i] = !(r.ViewZeroP[v] <= ZeroAlpha)
	}
	return pairedRankSetsMemo(est, reps, floor, alpha, memo)
}

// PairSEs are the paired standard errors of every two runs of a family of
// rank sets, the runs in the sets' order: SE(i, j) is that of run i − run
// j, the SE of ViewDiff(run j, run i, v) for a view's.
type PairSEs struct {
	n  int
	se []float64 // the upper triangle, row by row
}

// SE is the standard error of run i − run j (i ≠ j).
func (p PairSEs) SE(i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return p.se[i*(2*p.n-i-1)/2+j-i-1]
}

// ViewDiffSE is ViewDiff with the standard error given: se, that of the
// pair (PairSEs), for the same Diff without the replicates read again.
func ViewDiffSE(a, b *Result, v View, se float64) Diff {
	return newDiff(b.Views[v].Estimate-a.Views[v].Estimate, se)
}

// pairedRankSets are stats.RankSetsFunc's sets of est, with the standard
// error of every two runs' difference from their paired replicates reps
// (pairedSD), held while the sets are made, n(n − 1)/2 of them, and let
// go.
func pairedRankSets(est []float64, reps [][]float64, floor []bool, alpha float64) (*stats.Ranks, PairSEs) {
	n := len(est)
	p := PairSEs{n, make([]float64, n*(n-1)/2)}
	pairedSE(p.se, reps, n, nil)
	return stats.RankSetsFunc(est, reps, p.SE, alpha, floor), p
}

// pairedSE fills the upper triangle se (the pair i < j at tri(i) + j −
// i − 1) of the n runs' paired standard errors, those known leaves as
// they are (nil for none), a row of the triangle per job on every core
// (each job writes its own row).
func pairedSE(se []float64, reps [][]float64, n int, known []bool) {
	tri := func(i int) int { return i * (2*n - i - 1) / 2 }
	rows := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var js []int
			for i := range rows {
				row := se[tri(i):]
				js = js[:0]
				for j := i + 1; j < n; j++ {
					if known == nil || !known[tri(i)+j-i-1] {
						js = append(js, j)
					}
				}
				// Four pairs at a time (pairedSD4: each to the bit
				// pairedSD's), the rest one by one.
				B := len(reps[i])
				for k := 0; k < len(js); {
					if j := js[k:min(k+4, len(js))]; len(j) == 4 && len(reps[j[0]]) == B && len(reps[j[1]]) == B && len(reps[j[2]]) == B && len(reps[j[3]]) == B {
						sd := pairedSD4(reps[i], reps[j[0]], reps[j[1]], reps[j[2]], reps[j[3]])
						for t := range 4 {
							row[j[t]-i-1] = sd[t] // i − j
						}
						k += 4
						continue
					}
					row[js[k]-i-1] = pairedSD(reps[js[k]], reps[i]) // i − j
					k++
				}
			}
		})
	}
	for i := range n {
		rows <- i
	}
	close(rows)
	wg.Wait()
}
