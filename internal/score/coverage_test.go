package score

import (
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// decisionSpec is a decision run's data-generating model: the paper's
// effects, per-question random intercepts and slopes, answers sampled from
// the per-prompt probabilities.
func decisionSpec(seed uint64) synth.Spec {
	return synth.Spec{Seed: seed, Intercept: 0.5,
		Effects:    [design.NumCoefs]float64{-0.3, 0.35, 0.6, 1.2, 0.4, 0.5, 0.9},
		QuestionSD: [design.NumFixed]float64{1.2, 0.25, 0.3, 0.35, 0.4, 0.3, 0.3, 0.35}, Corr: 0.2}
}

// Decision runs' 95% intervals must cover the planted effects in 93–97% of
// cases although the effects vary from question to question: the
// regression's own (model-based) standard errors ignore that variation and
// cover far less often.
func TestDecisionCoverage(t *testing.T) {
	t.Parallel() // its runs on GOMAXPROCS goroutines, beside the other simulations
	n := 200
	if testing.Short() {
		n = 30
	}
	// What each run's check needs of its Result (not all 200 Results).
	type result struct {
		err    error
		scored bool
		reason string
		ageSD  float64
		ci     [design.NumCoefs][2]float64
	}
	results := simulate(n, func(i int) int { return i }, func(i int) (r result) {
		res, err := Score(synthRun(t, decisionSpec(uint64(7000+i)), 5))
		if r.err = err; err == nil {
			r.scored, r.reason, r.ageSD = res.Scored, res.Reason, res.AgeSD
			for _, c := range design.Coefs {
				r.ci[c] = res.Coefficients[c].CI95
			}
		}
		return r
	})
	covered, total := 0, 0
	for i, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if !r.scored {
			t.Fatalf("run %d not scored: %s", i, r.reason)
		}
		spec := decisionSpec(uint64(7000 + i))
		for _, c := range design.Coefs {
			truth := spec.Effects[c]
			if c == design.CoefAge {
				truth = spec.AgeCoef(r.ageSD)
			}
			ci := r.ci[c]
			if ci[0] <= truth && truth <= ci[1] {
				covered++
			}
			total++
		}
		if i%50 == 49 {
			t.Logf("%d runs: coverage so far %.1f%%", i+1, 100*float64(covered)/float64(total))
		}
	}
	rate := float64(covered) / float64(total)
	t.Logf("coverage of the planted effects: %.1f%% of %d intervals (%d runs × 7)", 100*rate, total, n)
	if !testing.Short() && (rate < 0.93 || rate > 0.97) {
		t.Errorf("coverage %.1f%%, want 93–97%%", 100*rate)
	}
}
