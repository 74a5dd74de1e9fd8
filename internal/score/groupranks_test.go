package score

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

var groupBoards = flag.Int("group-boards", 0, "simulated boards of each kind in TestCoefRankSetsCoverage (0: 100, or 40 with -short)")

// One coefficient's board: runs whose 70 questions' Black coefficient is
// the run's true coefficient β plus a question effect every run of the
// board shares (SD 0.2 logit) and the run's own noise (SD 0.25), scored
// as a complete run is (the per-question mean, its t interval, the
// replicates drawn from the questions when a board asks: the replicates
// were dropped, as a build drops them).
type coefBoardSim struct {
	m          int
	ids        []int
	shared, sd float64
}

func newCoefBoardSim() *coefBoardSim {
	s := &coefBoardSim{m: 70, shared: 0.2, sd: 0.25}
	for q := range s.m {
		s.ids = append(s.ids, q+1)
	}
	return s
}

// se is the standard error of one run's coefficient.
func (s *coefBoardSim) se() float64 {
	return math.Hypot(s.shared, s.sd) / math.Sqrt(float64(s.m))
}

// board scores one board of runs with true coefficients beta.
func (s *coefBoardSim) board(rng *rand.Rand, beta []float64) []*Result {
	u := make([]float64, s.m)
	for q := range u {
		u[q] = s.shared * rng.NormFloat64()
	}
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.m - 1)}.Quantile(0.975)
	rs := make([]*Result, len(beta))
	for j, b := range beta {
		qs := make([]Question, s.m)
		vals := make([]float64, s.m)
		for q := range qs {
			qs[q].ID = s.ids[q]
			vals[q] = b + u[q] + s.sd*rng.NormFloat64()
			qs[q].Coefs[design.CoefBlack] = vals[q]
		}
		mean, se := 0.0, sd(vals)/math.Sqrt(float64(s.m))
		for _, v := range vals {
			mean += v
		}
		mean /= float64(s.m)
		r := &Result{Scored: true, CoefsValid: true, Fit: Fit{Method: FitClosedForm, Converged: true, DF: s.m - 1}, ids: s.ids, Questions: qs, AgeSD: 25.82, coefsDropped: true}
		r.Coefficients[design.CoefBlack] = Estimate{Estimate: mean, SE: se, CI95: [2]float64{mean - tq*se, mean + tq*se}}
		rs[j] = r
	}
	return rs
}

// The rank sets of a group board (CoefRankSets, by |coefficient|) hold
// the true ranks at the stated rate: on boards of 10 runs, effect-free
// (every true coefficient 0, so every true rank 1), near zero (three
// effect-free, seven at ±0–1.5 SE) and with real effects (±0–8 SE), each
// board's simultaneous sets must hold every run's true rank (1 + the runs
// with a smaller true |β|: tied runs share the best of their ranks) on at
// least 95% of boards, and the marginal sets each run's on at least 95%
// of runs. Also measured, as power: the mean width of the marginal sets
// and the share of ordered pairs 2–4 SE and over 4 SE apart in true |β|
// that the board's simultaneous sets tell apart. Seeded (seed 20261203);
// the figures in METHODOLOGY.md are from -args -group-boards=1000.
func TestCoefRankSetsCoverage(t *testing.T) {
	t.Parallel()
	boards := 100
	if testing.Short() {
		boards = 40
	}
	if *groupBoards > 0 {
		boards = *groupBoards
	}
	sim := newCoefBoardSim()
	se := sim.se()
	const n = 10
	type tally struct {
		sim, marg, width int
		near, nearOf     int // pairs 2–4 SE apart: told apart, of
		far, farOf       int // pairs over 4 SE apart
	}
	var b strings.Builder
	fmt.Fprintf(&b, "group boards of %d runs by |black coefficient|, %d boards each (seed 20261203; a run's SE %.4f logit):\n", n, boards, se)
	for ki, kind := range []string{"effect-free", "near zero", "real effects"} {
		out := simulate(boards, func(i int) int { return i }, func(i int) (o tally) {
			rng := rand.New(rand.NewPCG(20261203, uint64(ki)<<32|uint64(i)))
			beta := make([]float64, n)
			for j := range beta {
				k := 0.0
				switch {
				case kind == "near zero" && j >= 3:
					k = 1.5 * rng.Float64()
				case kind == "real effects":
					k = 8 * rng.Float64()
				}
				if rng.IntN(2) == 0 {
					k = -k
				}
				beta[j] = k * se
			}
			rs := sim.board(rng, beta)
			rk, err := CoefRankSets(rs, design.CoefBlack, 0.05, nil)
			if err != nil {
				panic(err)
			}
			trueRank := func(j int) int {
				r := 1
				for k := range n {
					if math.Abs(beta[k]) < math.Abs(beta[j])-1e-12 {
						r++
					}
				}
				return r
			}
			held := func(sets []stats.RankSet) (all bool, each int) {
				all = true
				for j := range n {
					if tr := trueRank(j); sets[j].Lo <= tr && tr <= sets[j].Hi {
						each++
					} else {
						all = false
					}
				}
				return all, each
			}
			all, _ := held(rk.Simultaneous)
			o.sim = b2i(all)
			_, o.marg = held(rk.Marginal)
			for j := range n {
				o.width += rk.Marginal[j].Hi - rk.Marginal[j].Lo + 1
				for k := range n {
					gap := (math.Abs(beta[k]) - math.Abs(beta[j])) / se
					if k == j || gap < 2 {
						continue
					}
					// j is truly lower by gap SE: told apart when the
					// board's step-down decides the pair.
					d := rs[j].CoefMagnitude(design.CoefBlack) - rs[k].CoefMagnitude(design.CoefBlack)
					told := 0
					if d < 0 && rk.Step(j, k, d/pairSE(rs[j], rs[k])) >= 0 {
						told = 1
					}
					if gap < 4 {
						o.near, o.nearOf = o.near+told, o.nearOf+1
					} else {
						o.far, o.farOf = o.far+told, o.farOf+1
					}
				}
			}
			return o
		})
		var tl tally
		for _, o := range out {
			tl.sim += o.sim
			tl.marg += o.marg
			tl.width += o.width
			tl.near += o.near
			tl.nearOf += o.nearOf
			tl.far += o.far
			tl.farOf += o.farOf
		}
		pb := 100 * float64(tl.sim) / float64(boards)
		pr := 100 * float64(tl.marg) / float64(boards*n)
		share := func(k, of int) string {
			if of == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f%% of %d", 100*float64(k)/float64(of), of)
		}
		fmt.Fprintf(&b, "%-12s simultaneous sets hold every true rank on %5.1f%% of boards, marginal sets the run's on %5.1f%% of runs (mean width %.1f ranks); pairs told apart: 2–4 SE %s, over 4 SE %s\n",
			kind, pb, pr, float64(tl.width)/float64(boards*n), share(tl.near, tl.nearOf), share(tl.far, tl.farOf))
		if pb < 95 {
			t.Errorf("%s boards: the simultaneous sets held every true rank on %.1f%% of %d boards, want ≥ 95%%", kind, pb, boards)
		}
		if pr < 95 {
			t.Errorf("%s boards: the marginal sets held the true rank of %.1f%% of %d runs, want ≥ 95%%", kind, pr, boards*n)
		}
		if kind == "real effects" && tl.far*2 < tl.farOf {
			t.Errorf("real effects: the simultaneous sets told apart %s of the pairs over 4 SE apart, want at least half", share(tl.far, tl.farOf))
		}
	}
	t.Log(b.String())
}

// pairSE is the standard error of the difference of two runs' black
// magnitudes, as CoefRankSets computes it.
func pairSE(a, b *Result) float64 {
	x, errA := a.coefColumn(design.CoefBlack)
	y, errB := b.coefColumn(design.CoefBlack)
	if errA != nil || errB != nil {
		panic(fmt.Sprint(errA, errB))
	}
	for i := range x {
		x[i], y[i] = math.Abs(x[i]), math.Abs(y[i])
	}
	return pairedSD(y, x)
}

// A coefficient's replicates drawn again from the questions are the ones
// a run keeps, to the bit: a group board ranks with the same replicates
// whether or not the build let them go.
func TestCoefColumnRedrawn(t *testing.T) {
	sim := newCoefBoardSim()
	rng := rand.New(rand.NewPCG(1, 2))
	r := sim.board(rng, []float64{0.1})[0]
	kept := *r
	kept.coefsDropped = false
	kept.boot = questionReplicates(r.Questions, r.ids)
	a, err := r.coefColumn(design.CoefBlack)
	if err != nil {
		t.Fatal(err)
	}
	b, err := kept.coefColumn(design.CoefBlack)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != BootstrapResamples || len(b) != len(a) {
		t.Fatalf("%d and %d replicates, want %d", len(a), len(b), BootstrapResamples)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("replicate %d: drawn again %v, kept %v", i, a[i], b[i])
		}
	}
	reml := *r
	reml.Fit.Method = FitREML
	if _, err := reml.coefColumn(design.CoefBlack); err != ErrReplicatesDropped {
		t.Errorf("a REML run with its replicates dropped: error %v, want ErrReplicatesDropped", err)
	}
}
