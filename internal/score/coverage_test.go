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
	t.Parallel() // one goroutine, own seeds: beside the other such simulations, GOMAXPROCS at a time
	n := 200
	if testing.Short() {
		n = 30
	}
	covered, total := 0, 0
	for i := range n {
		spec := decisionSpec(uint64(7000 + i))
		res, err := Score(synthRun(t, spec, 5))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Scored {
			t.Fatalf("run %d not scored: %s", i, res.Reason)
		}
		for _, c := range design.Coefs {
			truth := spec.Effects[c]
			if c == design.CoefAge {
				truth = spec.AgeCoef(res.AgeSD)
			}
			ci := res.Coefficients[c].CI95
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
