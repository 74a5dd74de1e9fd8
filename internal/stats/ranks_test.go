package stats_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

var (
	rankRuns   = flag.Int("rank-runs", 0, "runs per simulated board in TestRankSetCoverage (0: 25)")
	rankBoards = flag.Int("rank-boards", 0, "simulated boards in TestRankSetCoverage (0: 100, or 20 with -short)")
)

// simBoard is a simulated board: n runs of the 70 decision questions, run
// j's per-question scores θ_j + a_q + e_jq (a_q shared by every run, so
// that pairing matters; e_jq with a run's own SD), its estimate their
// mean and its replicates the means under stats.QuestionWeights, as a
// complete run's view. The SDs give a run's estimate a standard error of
// 0.0066–0.0114 (mean 0.009, the demo runs' composite) and a difference
// between two runs one of about 0.013 logit.
type simBoard struct {
	truth, est []float64
	reps, se   [][]float64
}

func newSimBoard(seed uint64, n, B int) *simBoard {
	r := rand.New(rand.NewPCG(seed, 77))
	ids := synth.DefaultQuestions()
	m := len(ids)
	w := stats.QuestionWeights(ids, B, 20231206)
	a := make([]float64, m)
	for q := range a {
		a[q] = 0.05 * r.NormFloat64()
	}
	s := &simBoard{truth: make([]float64, n), est: make([]float64, n), reps: make([][]float64, n), se: make([][]float64, n)}
	for j := range n {
		s.truth[j] = 0.05 + 0.6*r.Float64()
		sd := 0.055 + 0.04*r.Float64()
		x := make([]float64, m)
		for q := range x {
			x[q] = s.truth[j] + a[q] + sd*r.NormFloat64()
			s.est[j] += x[q] / float64(m)
		}
		s.reps[j] = make([]float64, B)
		for b := range B {
			tot, sum := 0.0, 0.0
			for q := range x {
				tot += w[b][q]
				sum += w[b][q] * x[q]
			}
			s.reps[j][b] = sum / tot
		}
	}
	for j := range n {
		s.se[j] = make([]float64, n)
	}
	for j := range n {
		for k := j + 1; k < n; k++ {
			var mu, ss float64
			for b := range B {
				mu += s.reps[j][b] - s.reps[k][b]
			}
			mu /= float64(B)
			for b := range B {
				d := s.reps[j][b] - s.reps[k][b] - mu
				ss += d * d
			}
			s.se[j][k] = math.Sqrt(ss / float64(B-1))
			s.se[k][j] = s.se[j][k]
		}
	}
	return s
}

// trueRanks are the ranks of the true values (distinct here).
func trueRanks(truth []float64) []int {
	order := make([]int, len(truth))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return truth[order[a]] < truth[order[b]] })
	rank := make([]int, len(truth))
	for i, j := range order {
		rank[j] = i + 1
	}
	return rank
}

// The rank sets on simulated boards: the simultaneous sets must hold every
// true rank at once on at least 95% of boards less two binomial SEs, each
// run's marginal set its true rank for 95% of runs less two SEs, and
// true differences of 0.03–0.06 logit must be told apart (beyond doubt
// in the run's marginal family) at least half the time. Also measured,
// for comparison: Holm's procedure over all pairs, which the boards used
// before. 100 boards of 25 runs by default (20 with -short); the 400-run
// figures in METHODOLOGY.md: -args -rank-runs=400 -rank-boards=40.
func TestRankSetCoverage(t *testing.T) {
	t.Parallel() // own seeds: beside TestCoverage
	n, boards := 25, 100
	if testing.Short() {
		boards = 20
	}
	if *rankRuns > 0 {
		n = *rankRuns
	}
	if *rankBoards > 0 {
		boards = *rankBoards
	}
	const B = 2000
	var simCovered, margCovered, margTotal int
	var near, nearMarg, nearSim, nearSimOne, nearHolm int
	var setWidth float64
	for bi := range boards {
		s := newSimBoard(uint64(500+bi), n, B)
		rk := stats.RankSets(s.est, s.reps, s.se, 0.05, nil)
		truth := trueRanks(s.truth)
		all := true
		for j := range n {
			all = all && in(rk.Simultaneous[j], truth[j])
			if in(rk.Marginal[j], truth[j]) {
				margCovered++
			}
			margTotal++
			setWidth += float64(rk.Marginal[j].Hi-rk.Marginal[j].Lo+1) / float64(n)
		}
		if all {
			simCovered++
		}
		// Holm over all pairs, as the boards did.
		var ps []float64
		for j := range n {
			for k := j + 1; k < n; k++ {
				ps = append(ps, stats.TwoSidedP(s.est[j]-s.est[k], s.se[j][k]))
			}
		}
		adj := stats.Holm(ps)
		i := 0
		for j := range n {
			for k := j + 1; k < n; k++ {
				d := math.Abs(s.truth[j] - s.truth[k])
				tt := (s.est[j] - s.est[k]) / s.se[j][k]
				if d >= 0.03 && d <= 0.06 {
					// Both directions: j's family and k's.
					near += 2
					for _, x := range [2]int{j, k} {
						if math.Abs(tt) > rk.MarginalCrit[x] {
							nearMarg++
						}
						if st := rk.Step(j, k, tt); st >= 0 {
							nearSim++
							if st == 0 {
								nearSimOne++
							}
						}
						if adj[i] <= 0.05 {
							nearHolm++
						}
					}
				}
				i++
			}
		}
	}
	simRate := float64(simCovered) / float64(boards)
	margRate := float64(margCovered) / float64(margTotal)
	power := func(k int) float64 { return float64(k) / float64(near) }
	t.Logf("%d boards of %d runs: simultaneous sets hold every true rank on %.1f%% of boards; marginal sets hold the run's true rank for %.1f%% of runs (mean width %.1f ranks)",
		boards, n, 100*simRate, 100*margRate, setWidth/float64(boards))
	t.Logf("true differences of 0.03–0.06 logit (%d ordered pairs) told apart: %.1f%% by the marginal sets, %.1f%% by the simultaneous sets (%.1f%% by their first step alone), %.1f%% by Holm over all pairs",
		near, 100*power(nearMarg), 100*power(nearSim), 100*power(nearSimOne), 100*power(nearHolm))
	if floor := 0.95 - 2*math.Sqrt(0.05*0.95/float64(boards)); simRate < floor {
		t.Errorf("simultaneous coverage %.1f%%, want ≥ %.1f%%", 100*simRate, 100*floor)
	}
	if floor := 0.95 - 2*math.Sqrt(0.05*0.95/float64(boards)); margRate < floor {
		t.Errorf("marginal coverage %.1f%%, want ≥ %.1f%%", 100*margRate, 100*floor)
	}
	if p := power(nearMarg); p < 0.5 {
		t.Errorf("differences of 0.03–0.06 told apart %.1f%% of the time, want ≥ 50%%", 100*p)
	}
}

func in(s stats.RankSet, r int) bool { return s.Lo <= r && r <= s.Hi }

// The sets of a toy board by hand: three runs far apart are ranked
// exactly; two of them equal in truth share their ranks.
func TestRankSetsToy(t *testing.T) {
	const B = 400
	ids := synth.DefaultQuestions()
	w := stats.QuestionWeights(ids, B, 1)
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(mu float64) ([]float64, float64) {
		x := make([]float64, len(ids))
		est := 0.0
		for q := range x {
			x[q] = mu + 0.05*r.NormFloat64()
			est += x[q] / float64(len(x))
		}
		reps := make([]float64, B)
		for b := range B {
			tot := 0.0
			for q := range x {
				reps[b] += w[b][q] * x[q]
				tot += w[b][q]
			}
			reps[b] /= tot
		}
		return reps, est
	}
	var est []float64
	var reps [][]float64
	for _, mu := range []float64{0.1, 0.5, 0.5, 0.9} {
		rp, e := mk(mu)
		est, reps = append(est, e), append(reps, rp)
	}
	se := make([][]float64, len(est))
	for j := range se {
		se[j] = make([]float64, len(est))
		for k := range se[j] {
			d := make([]float64, B)
			for b := range d {
				d[b] = reps[j][b] - reps[k][b]
			}
			se[j][k] = sdOf(d)
		}
	}
	rk := stats.RankSets(est, reps, se, 0.05, nil)
	want := []stats.RankSet{{1, 1}, {2, 3}, {2, 3}, {4, 4}}
	for j := range want {
		if rk.Marginal[j] != want[j] || rk.Simultaneous[j] != want[j] {
			t.Errorf("run %d: marginal %v, simultaneous %v, want %v", j, rk.Marginal[j], rk.Simultaneous[j], want[j])
		}
	}
}

func sdOf(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// A 400-run board's rank sets in one view, 2,000 replicates: the build
// computes four of these.
func BenchmarkRankSets400(b *testing.B) {
	s := newSimBoard(1, 400, 2000)
	for b.Loop() {
		stats.RankSets(s.est, s.reps, s.se, 0.05, nil)
	}
}

// A 1,000-run board's rank sets in one view, the standard errors read
// from a triangle through a function as the board gives them: with
// -benchmem, what RankSetsFunc allocates besides its inputs.
func BenchmarkRankSets1000(b *testing.B) {
	s := newSimBoard(1, 1000, 2000)
	n := len(s.est)
	tri := make([]float64, 0, n*(n-1)/2)
	start := make([]int, n)
	for j := range n {
		start[j] = len(tri) - j - 1
		tri = append(tri, s.se[j][j+1:]...)
	}
	s.se = nil
	seOf := func(j, k int) float64 {
		if j > k {
			j, k = k, j
		}
		return tri[start[j]+k]
	}
	b.ReportAllocs()
	for b.Loop() {
		stats.RankSetsFunc(s.est, s.reps, seOf, 0.05, nil)
	}
}

// rankSetsNaive is RankSetsFunc without its shortcuts (firstMaxima, the
// step-downs' partial recomputation): every undecided difference folded
// in again at every step, for each run's family and for all pairs.
// TestRankSetsAsNaive holds the faster one to its numbers.
func rankSetsNaive(est []float64, reps [][]float64, seOf func(j, k int) float64, alpha float64, floor []bool) (marg []stats.RankSet, margCrit []float64, sim []stats.RankSet, simCrits []float64) {
	n := len(est)
	marg, margCrit, sim = make([]stats.RankSet, n), make([]float64, n), make([]stats.RankSet, n)
	if n == 0 {
		return
	}
	B := len(reps[0])
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
	decides := func(j, k int, c float64) bool {
		t := tstat(j, k)
		return t > c && !(floor != nil && floor[j]) || t < -c && !(floor != nil && floor[k])
	}
	// maxInto folds the ordered pair (j, k) into t.
	maxInto := func(t []float64, j, k int) {
		se := seOf(j, k)
		if se == 0 {
			return
		}
		inv := 1 / se
		zj, zk := z[j], z[k]
		for b := range t {
			if v := math.Abs(zj[b]-zk[b]) * inv; v > t[b] {
				t[b] = v
			}
		}
	}
	crit := func(t []float64) float64 {
		s := append([]float64(nil), t...)
		sort.Float64s(s)
		return stats.Quantile(s, 1-alpha)
	}
	rankSet := func(j int, c float64) stats.RankSet {
		s := stats.RankSet{Lo: 1, Hi: n}
		for k := range n {
			if k != j && decides(j, k, c) {
				if tstat(j, k) > 0 {
					s.Lo++
				} else {
					s.Hi--
				}
			}
		}
		return s
	}
	t := make([]float64, B)
	for j := range n {
		active := make([]bool, n)
		for k := range active {
			active[k] = k != j
		}
		c := 0.0
		for {
			clear(t)
			for k := range n {
				if active[k] {
					maxInto(t, j, k)
				}
			}
			c = crit(t)
			found := false
			for k := range n {
				if active[k] && decides(j, k, c) {
					active[k], found = false, true
				}
			}
			if !found {
				break
			}
		}
		margCrit[j] = c
		marg[j] = rankSet(j, c)
	}
	decided := make([]bool, n*n)
	for {
		clear(t)
		for j := range n {
			for k := range n {
				if k != j && !decided[j*n+k] {
					maxInto(t, j, k)
				}
			}
		}
		c := crit(t)
		simCrits = append(simCrits, c)
		found := false
		for j := range n {
			for k := j + 1; k < n; k++ {
				if !decided[j*n+k] && decides(j, k, c) {
					decided[j*n+k], decided[k*n+j], found = true, true, true
				}
			}
		}
		if !found {
			break
		}
	}
	for j := range n {
		sim[j] = rankSet(j, simCrits[len(simCrits)-1])
	}
	return marg, margCrit, sim, simCrits
}

// TestRankSetsAsNaive: RankSets gives the sets and critical values of
// rankSetsNaive to the bit, on simulated boards of 1 to 120 runs and of
// 400, with and without runs at the floor, and on boards with what real
// ones rarely hold: runs with the same replicates (zero differences and
// zero standard errors), a standard error matrix that is not symmetric,
// NaN, infinite and zero standard errors, and a NaN replicate.
func TestRankSetsAsNaive(t *testing.T) {
	t.Parallel()
	same := func(name string, est []float64, reps [][]float64, se [][]float64, floor []bool) {
		t.Helper()
		seOf := func(j, k int) float64 { return se[j][k] }
		got := stats.RankSetsFunc(est, reps, seOf, 0.05, floor)
		marg, margCrit, sim, simCrits := rankSetsNaive(est, reps, seOf, 0.05, floor)
		if len(got.SimCrits) != len(simCrits) {
			t.Errorf("%s: simultaneous critical values %v, want %v", name, got.SimCrits, simCrits)
		} else {
			for i := range simCrits {
				if math.Float64bits(got.SimCrits[i]) != math.Float64bits(simCrits[i]) {
					t.Errorf("%s: simultaneous critical values %v, want %v", name, got.SimCrits, simCrits)
					break
				}
			}
		}
		for j := range est {
			if math.Float64bits(got.MarginalCrit[j]) != math.Float64bits(margCrit[j]) || got.Marginal[j] != marg[j] || got.Simultaneous[j] != sim[j] {
				t.Errorf("%s: run %d: marginal %v (critical value %v), simultaneous %v; want %v (%v), %v", name, j,
					got.Marginal[j], got.MarginalCrit[j], got.Simultaneous[j], marg[j], margCrit[j], sim[j])
			}
		}
	}
	sizes := []int{1, 2, 3, 5, 8, 13, 25, 47, 120}
	if !testing.Short() {
		sizes = append(sizes, 400)
	}
	for _, n := range sizes {
		s := newSimBoard(uint64(900+n), n, 2000)
		same(fmt.Sprintf("%d runs", n), s.est, s.reps, s.se, nil)
		if n > 120 {
			continue
		}
		// About a third of the runs, the lowest, at the floor.
		floor := make([]bool, n)
		for j := range floor {
			floor[j] = s.est[j] < 0.25
		}
		same(fmt.Sprintf("%d runs, %d at the floor", n, count(floor)), s.est, s.reps, s.se, floor)
	}
	// Runs 3 and 4 the same as run 2 (zero differences, zero standard
	// errors), run 5 the same estimate with other replicates.
	s := newSimBoard(7, 12, 500)
	for _, j := range []int{3, 4} {
		s.est[j], s.reps[j] = s.est[2], slices.Clone(s.reps[2])
		for k := range s.se {
			s.se[j][k], s.se[k][j] = s.se[2][k], s.se[k][2]
		}
		s.se[j][2], s.se[2][j] = 0, 0
	}
	s.se[3][4], s.se[4][3] = 0, 0
	s.est[5] = s.est[2]
	same("duplicated runs", s.est, s.reps, s.se, nil)
	// Not symmetric, and standard errors of every odd kind.
	s = newSimBoard(8, 15, 500)
	for j := range s.se {
		for k := range s.se[j] {
			if j != k && (j*7+k*3)%5 == 0 {
				s.se[j][k] *= 0.7
			}
		}
	}
	s.se[1][2], s.se[2][6], s.se[6][1], s.se[9][10] = math.NaN(), math.Inf(1), 0, 1e-310
	s.reps[4][17] = math.NaN()
	same("odd standard errors", s.est, s.reps, s.se, nil)
}

func count(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// TestExtendFirst: the first step of a board made from an earlier
// board's (the runs of a subset of it) and ExtendFirst is FirstMaxima's to
// the bit, every Arg a run its maximum comes from, and the sets and
// critical values made from it are RankSetsFunc's: with one run added at
// the end, in the middle and at the start, with several added, and on a
// board with duplicated runs and odd standard errors.
func TestExtendFirst(t *testing.T) {
	t.Parallel()
	check := func(name string, s *simBoard, added []bool, floor []bool) {
		t.Helper()
		n := len(s.est)
		seOf := func(j, k int) float64 { return s.se[j][k] }
		z := stats.Centred(s.reps)
		// The earlier board: the runs not added, in the same order.
		var old []int
		for j := range n {
			if !added[j] {
				old = append(old, j)
			}
		}
		oz := make([][]float64, len(old))
		for i, j := range old {
			oz[i] = z[j]
		}
		prev := stats.FirstMaxima(oz, func(i, k int) float64 { return s.se[old[i]][old[k]] })
		B := len(z[0])
		fs := stats.FirstStep{Max: make([][]float64, n), Arg: make([][]int32, n)}
		for j := range n {
			fs.Max[j], fs.Arg[j] = make([]float64, B), make([]int32, B)
			for b := range B {
				fs.Max[j][b], fs.Arg[j][b] = 12345, 7 // any: overwritten
			}
		}
		for i, j := range old {
			copy(fs.Max[j], prev.Max[i])
			for b, k := range prev.Arg[i] {
				fs.Arg[j][b] = -1
				if k >= 0 {
					fs.Arg[j][b] = int32(old[k])
				}
			}
		}
		stats.ExtendFirst(fs, z, seOf, added)
		want := stats.FirstMaxima(z, seOf)
		for j := range n {
			for b := range B {
				if math.Float64bits(fs.Max[j][b]) != math.Float64bits(want.Max[j][b]) {
					t.Fatalf("%s: run %d replicate %d: first step %v, want %v", name, j, b, fs.Max[j][b], want.Max[j][b])
				}
				k := fs.Arg[j][b]
				if (k < 0) != (want.Arg[j][b] < 0) {
					t.Fatalf("%s: run %d replicate %d: from %d, want %d", name, j, b, k, want.Arg[j][b])
				}
				if k >= 0 {
					if v := math.Abs(z[j][b]-z[k][b]) * (1 / s.se[j][k]); math.Float64bits(v) != math.Float64bits(fs.Max[j][b]) || k == int32(j) {
						t.Fatalf("%s: run %d replicate %d: from %d", name, j, b, k)
					}
				}
			}
		}
		got := stats.RankSetsFirst(s.est, z, seOf, 0.05, floor, fs)
		ref := stats.RankSetsFunc(s.est, s.reps, seOf, 0.05, floor)
		if !slices.Equal(got.Marginal, ref.Marginal) || !slices.Equal(got.Simultaneous, ref.Simultaneous) ||
			!bitsEqual(got.MarginalCrit, ref.MarginalCrit) || !bitsEqual(got.SimCrits, ref.SimCrits) {
			t.Errorf("%s: the sets from the extended first step differ from RankSetsFunc's", name)
		}
	}
	s := newSimBoard(41, 60, 700)
	at := func(n int, js ...int) []bool {
		a := make([]bool, n)
		for _, j := range js {
			a[j] = true
		}
		return a
	}
	check("one added at the end", s, at(60, 59), nil)
	check("one added in the middle", s, at(60, 31), nil)
	check("one added first", s, at(60, 0), nil)
	check("five added", s, at(60, 3, 4, 17, 40, 58), nil)
	check("all added", s, at(60, slices.Collect(func(yield func(int) bool) {
		for j := range 60 {
			if !yield(j) {
				return
			}
		}
	})...), nil)
	floor := make([]bool, 60)
	for j := range floor {
		floor[j] = s.est[j] < 0.25
	}
	check("one added, runs at the floor", s, at(60, 22), floor)
	d := newSimBoard(7, 12, 500)
	for _, j := range []int{3, 4} {
		d.est[j], d.reps[j] = d.est[2], slices.Clone(d.reps[2])
		for k := range d.se {
			d.se[j][k], d.se[k][j] = d.se[2][k], d.se[k][2]
		}
		d.se[j][2], d.se[2][j] = 0, 0
	}
	d.se[3][4], d.se[4][3] = 0, 0
	d.se[1][5], d.se[5][8], d.se[8][1], d.se[9][10] = math.NaN(), math.Inf(1), 0, 1e-310
	d.reps[6][17] = math.NaN()
	check("duplicated runs, odd standard errors, one added", d, at(12, 4), nil)
	check("duplicated runs, odd standard errors, two added", d, at(12, 3, 8), nil)
}

func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
