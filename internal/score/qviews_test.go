package score

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

var questionCoverageRuns = flag.Int("question-coverage-runs", 0, "simulated runs of 70 questions per effect size in TestQuestionViewCoverage (0: 12, or 5 with -short)")

// questionSpec is a run whose questions all share the effects (no
// variation between questions), so every question's truth is the planted
// effects; noise is the per-prompt residual of a log-probability run.
func questionSpec(seed uint64, effects [design.NumCoefs]float64) synth.Spec {
	return synth.Spec{Seed: seed, Intercept: 0.2, Effects: effects, Noise: 0.35}
}

// simulatedQuestions are the per-question views of a simulated run, and
// its age SD: a decision run scored as the site scores it; for a
// log-probability run, each question's own least squares as Score computes
// them (ownLogprobViews), without the run's mixed model, which with no
// variation between questions falls back to REML and is slow.
func simulatedQuestions(t *testing.T, spec synth.Spec, decisions int) ([][NumViews]QuestionView, float64, error) {
	r := synthRun(t, spec, decisions)
	var out [][NumViews]QuestionView
	if decisions > 0 {
		res, err := Score(r)
		if err == nil && !res.Scored {
			err = fmt.Errorf("%s", res.Reason)
		}
		if err != nil {
			return nil, 0, err
		}
		for _, q := range res.Questions {
			out = append(out, q.Views)
		}
		return out, res.AgeSD, nil
	}
	obs := make([]stats.Obs, len(r.Cells))
	ages := make([]float64, len(r.Cells))
	for i, c := range r.Cells {
		obs[i] = stats.Obs{Q: c.Q, Cell: c.Cell, Y: c.Logit}
		ages[i] = float64(c.Age)
	}
	_, sd := stats.Standardize(ages)
	_, cl, err := stats.Clusters(obs)
	if err != nil {
		return nil, 0, err
	}
	for k := range cl {
		v, _ := ownLogprobViews(&cl[k], sd)
		out = append(out, v)
	}
	return out, sd, nil
}

// questionGapSE is the mean standard error of a question's gaps, per
// attribute and over attributes, in a simulated run with no effects and no
// variation between questions: for a log-probability run from the
// questions' least-squares covariances averaged, for a decision run from
// the spread of the questions' own coefficients (all sampling variation
// here).
func questionGapSE(t *testing.T, spec synth.Spec, decisions int) ([NumViews]float64, error) {
	var se [NumViews]float64
	r := synthRun(t, spec, decisions)
	var cov [design.NumCoefs][design.NumCoefs]float64
	var sd float64
	if decisions == 0 {
		obs := make([]stats.Obs, len(r.Cells))
		ages := make([]float64, len(r.Cells))
		for i, c := range r.Cells {
			obs[i] = stats.Obs{Q: c.Q, Cell: c.Cell, Y: c.Logit}
			ages[i] = float64(c.Age)
		}
		_, sd = stats.Standardize(ages)
		_, cl, err := stats.Clusters(obs)
		if err != nil {
			return se, err
		}
		for k := range cl {
			_, c, _, ok := stats.OLS(cl[k].X, design.NumFixed, cl[k].Y)
			if !ok {
				return se, fmt.Errorf("question %d: no least squares", k)
			}
			for i := range cov {
				for j := range cov[i] {
					cov[i][j] += c[(1+i)*design.NumFixed+1+j] / float64(len(cl))
				}
			}
		}
	} else {
		res, err := Score(r)
		if err != nil {
			return se, err
		}
		cov, sd = res.Cov, res.AgeSD
		m := float64(len(res.Questions))
		for i := range cov {
			for j := range cov[i] {
				cov[i][j] *= m
			}
		}
	}
	return viewSEs(newViewCalc(sd, &cov)), nil
}

// viewSEs are the views' standard errors at vc's covariance: for an
// attribute, the mean SE of the gaps its view averages; for the
// composite, the mean of the three.
func viewSEs(vc *viewCalc) (se [NumViews]float64) {
	for _, a := range design.Attributes {
		s := 0.0
		for _, v := range vc.vars[a] {
			s += math.Sqrt(v) / float64(len(vc.vars[a]))
		}
		se[ViewOf(a)] = s
		se[Composite] += s / float64(design.NumAttributes)
	}
	return se
}

// The coverage of the per-question views' 95% intervals at true effects of
// 0, ½, 1, 2 and 5 standard errors of a question's gaps, for
// log-probability runs (least squares within the question) and decision
// runs of 5 answers per prompt (Firth within the question): each
// simulated run has 70 questions with the same true effects and
// independent noise, so each question is one trial. Every view must cover
// in at least 95% of trials less three binomial standard errors (decision
// runs: 92%).
func TestQuestionViewCoverage(t *testing.T) {
	t.Parallel() // its runs on GOMAXPROCS goroutines, beside the other simulations
	n := 12
	if testing.Short() {
		n = 5
	}
	if *questionCoverageRuns > 0 {
		n = *questionCoverageRuns
	}
	const sd = 25.819888974716115 // a complete run's age SD
	unit := trueViews(patternEffects, sd)
	var b strings.Builder
	for _, decisions := range []int{0, 5} {
		var se [NumViews]float64
		const pilot = 3
		for i := range pilot {
			s, err := questionGapSE(t, questionSpec(uint64(7000+i), [design.NumCoefs]float64{}), decisions)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range Views {
				se[v] += s[v] / pilot
			}
		}
		var scale [design.NumCoefs]float64
		for _, c := range design.Coefs {
			v := ViewOf(c.Attribute())
			scale[c] = se[v] / unit[v]
		}
		type tally struct {
			cover  [NumViews]int
			trials int
			err    error
		}
		// Run i at effect size ki is job i·len(effectSizes) + ki.
		jobs := simulate(n*len(effectSizes), func(j int) int { return j }, func(j int) (tl tally) {
			i, ki := j/len(effectSizes), j%len(effectSizes)
			var eff [design.NumCoefs]float64
			for _, c := range design.Coefs {
				eff[c] = effectSizes[ki] * scale[c] * patternEffects[c]
			}
			qs, sd, err := simulatedQuestions(t, questionSpec(uint64(300000+100*i+ki+1000*decisions), eff), decisions)
			if err != nil {
				tl.err = err
				return tl
			}
			truth := trueViews(eff, sd)
			for _, q := range qs {
				tl.trials++
				for _, v := range Views {
					if ci := q[v].CI95; ci[0] <= truth[v] && truth[v] <= ci[1] {
						tl.cover[v]++
					}
				}
			}
			return tl
		})
		tallies := make([]tally, len(effectSizes))
		for j, jt := range jobs {
			if jt.err != nil {
				t.Fatal(jt.err)
			}
			tl := &tallies[j%len(effectSizes)]
			tl.trials += jt.trials
			for _, v := range Views {
				tl.cover[v] += jt.cover[v]
			}
		}
		kind := "log-probability"
		if decisions > 0 {
			kind = fmt.Sprintf("decision (%d answers per prompt)", decisions)
		}
		fmt.Fprintf(&b, "%s runs: per-question 95%% intervals, question gap SEs composite %.3f, age %.3f, gender %.3f, race %.3f\n",
			kind, se[Composite], se[AgeView], se[GenderView], se[RaceView])
		for ki, k := range effectSizes {
			tl := tallies[ki]
			// 95% less three binomial SEs; for decision runs 92% (their
			// Wald covariance is small-sample: METHODOLOGY.md states the
			// shortfall).
			target := 0.95
			if decisions > 0 {
				target = 0.92
			}
			floor := target - 3*math.Sqrt(target*(1-target)/float64(tl.trials))
			var cs []string
			for _, v := range Views {
				c := float64(tl.cover[v]) / float64(tl.trials)
				cs = append(cs, fmt.Sprintf("%.1f", 100*c))
				if c < floor {
					t.Errorf("%s, k = %v SE: %s covers %.1f%% of %d questions, want ≥ %.1f%%", kind, k, v.Name(), 100*c, tl.trials, 100*floor)
				}
			}
			fmt.Fprintf(&b, "  k %-4v C/A/G/R %s%% of %d questions\n", k, strings.Join(cs, " / "), tl.trials)
		}
	}
	t.Log(b.String())
}

// A question's contributions add up to the run's views before debiasing
// (complete log-probability and decision runs, whose coefficients are the
// mean of their questions'), and a question's age view is its own age
// gap debiased: √max(0, g² − SE²), g = age coefficient per year × 33⅓.
func TestQuestionViewsAndContributions(t *testing.T) {
	for _, decisions := range []int{0, 5} {
		res, err := Score(synthRun(t, planted, decisions))
		if err != nil || !res.Scored {
			t.Fatal(err, res.Reason)
		}
		if decisions == 0 && res.Fit.Method != FitClosedForm {
			t.Fatalf("fit %s", res.Fit.Method)
		}
		b := res.coefVector()
		raw := newViewCalc(res.AgeSD, nil).views(&b)
		for _, v := range Views {
			s := 0.0
			for _, q := range res.Questions {
				s += q.Views[v].Contribution
			}
			near(t, fmt.Sprintf("decisions %d: %s contributions' sum", decisions, v.Name()), s, raw[v], 1e-9)
		}
		for _, q := range res.Questions[:5] {
			age := q.Views[AgeView]
			if decisions == 0 {
				// The closed form's Coefs are the question's own least
				// squares.
				g := q.Coefs[design.CoefAge] / res.AgeSD * design.MeanAgeGap
				se := age.SE // the draws' SD: the gap's SE up to their noise
				want := math.Sqrt(math.Max(0, g*g-se*se))
				if math.Abs(age.Estimate.Estimate-want) > 0.1*math.Abs(g)+0.01 {
					t.Errorf("q%d: age view %.4f, |g| debiased %.4f (g %.4f)", q.ID, age.Estimate.Estimate, want, g)
				}
			}
			for _, v := range Views {
				e := q.Views[v]
				if !(e.CI95[0] <= e.Estimate.Estimate && e.Estimate.Estimate <= e.CI95[1]) || e.CI95[0] < 0 {
					t.Errorf("decisions %d q%d %s: %v outside [%v]", decisions, q.ID, v.Name(), e.Estimate.Estimate, e.CI95)
				}
				if e.ZeroP > ZeroAlpha && e.CI95[0] != 0 {
					t.Errorf("q%d %s: zero not rejected (p %v) but interval %v", q.ID, v.Name(), e.ZeroP, e.CI95)
				}
			}
		}
	}
}

// t975 keeps the quantile it computed: asked twice, or for another df,
// it gives gonum's value.
func TestT975(t *testing.T) {
	for _, df := range []int{1, 60, 126, 60, 1, 9000} {
		if got, want := t975(df), (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}).Quantile(0.975); got != want {
			t.Errorf("t975(%d) = %v, want %v", df, got, want)
		}
	}
}
