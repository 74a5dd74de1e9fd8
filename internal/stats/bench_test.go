package stats_test

import (
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// REML on a 9,450-row run with 10% of rows missing (incomplete-seed8: 8,482
// rows), from clusters to fit.
func BenchmarkFitREML(b *testing.B) {
	cl := clustersOf(b, loadRun(b, "../../testdata/incomplete-seed8.jsonl.gz"))
	b.ResetTimer()
	for b.Loop() {
		f, err := stats.FitREML(cl, p)
		if err != nil || !f.Converged {
			b.Fatal(err)
		}
	}
}

// The closed form on the complete 9,450-row run complete-seed7.
func BenchmarkFitMixedClosedForm(b *testing.B) {
	cl := clustersOf(b, loadRun(b, "../../testdata/complete-seed7.jsonl.gz"))
	b.ResetTimer()
	for b.Loop() {
		f, err := stats.FitMixed(cl, p)
		if err != nil || f.Method != "closed-form" {
			b.Fatal(err)
		}
	}
}

// 1,000 bootstrap replicates of a REML fit.
func BenchmarkBootstrap1000(b *testing.B) {
	cl := clustersOf(b, loadRun(b, "../../testdata/incomplete-seed8.jsonl.gz"))
	f := mustFit(b, stats.FitREML, cl)
	b.ResetTimer()
	for b.Loop() {
		for _, w := range stats.QuestionWeights(make([]int, len(cl)), 1000, 1) {
			f.Reweighted(w)
		}
	}
}
