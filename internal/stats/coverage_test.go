package stats_test

import (
	"testing"
	"time"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// Coverage of CI95 in simulated runs with known effects: 240 runs of 70
// questions, half complete (closed form), half with 10–40% of rows missing
// (REML), pooled over the seven coefficients (1,680 intervals; the binomial
// standard error of the pooled rate is about 0.5 points). Skipped under
// -short: it fits 120 REML models (a few seconds).
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation: 240 fits")
	}
	t.Parallel() // own seeds: beside TestRankSetCoverage
	start := time.Now()
	drops := []float64{0, 0.1, 0, 0.25, 0, 0.4}
	const runs = 240
	var covered, total [2]int // [complete, incomplete]
	singular := 0
	for r := range runs {
		spec := synth.Spec{
			Seed: uint64(1000 + r), Intercept: 0.3, Effects: paperEffects,
			QuestionSD: [design.NumFixed]float64{1, 0.25, 0.3, 0.35, 0.4, 0.3, 0.3, 0.35},
			Corr:       0.25, Noise: 0.6, Drop: drops[r%len(drops)],
		}
		rows, err := synth.Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		f, err := stats.FitMixed(clustersOf(t, synthObs(rows)), p)
		if err != nil {
			t.Fatalf("run %d: %v", r, err)
		}
		if !f.Converged {
			t.Errorf("run %d (drop %v): not converged", r, spec.Drop)
		}
		if f.Singular {
			singular++
		}
		g := 0
		if spec.Drop > 0 {
			g = 1
			if f.Method != "reml" {
				t.Fatalf("run %d: incomplete run fitted by %s", r, f.Method)
			}
		}
		truth := plantedCoefs(spec, rows)
		for j := 1; j < p; j++ {
			ci := f.CI95(j)
			if ci[0] <= truth[j] && truth[j] <= ci[1] {
				covered[g]++
			}
			total[g]++
		}
	}
	rate := func(g ...int) float64 {
		c, n := 0, 0
		for _, i := range g {
			c, n = c+covered[i], n+total[i]
		}
		return float64(c) / float64(n)
	}
	t.Logf("coverage %.1f%% (complete %.1f%%, incomplete %.1f%%) over %d intervals; %d singular fits; %v",
		100*rate(0, 1), 100*rate(0), 100*rate(1), total[0]+total[1], singular, time.Since(start).Round(time.Millisecond))
	if c := rate(0, 1); c < 0.93 || c > 0.97 {
		t.Errorf("pooled coverage %.1f%%, want 93–97%%", 100*c)
	}
	for g, name := range []string{"complete", "incomplete"} {
		if c := rate(g); c < 0.92 || c > 0.98 {
			t.Errorf("%s runs: coverage %.1f%%, want 92–98%%", name, 100*c)
		}
	}
}
