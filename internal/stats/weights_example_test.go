package stats_test

import (
	"testing"

	"github.com/discrimeval/leaderboard/internal/stats"
)

// The worked example of the bootstrap recipe in METHODOLOGY.md
// ("Reproducing the intervals"): the weights of questions 2, 3, 4, 5 and
// 95 in replicates 0, 1 and 1999 with the site's seed, as a Python or R
// reimplementation of the recipe must give them.
func TestQuestionWeightsWorkedExample(t *testing.T) {
	ids := []int{2, 3, 4, 5, 95}
	want := map[int][]float64{
		0:    {2, 4, 0, 2, 0},
		1:    {2, 1, 0, 1, 1},
		1999: {1, 0, 0, 0, 1},
	}
	w := stats.QuestionWeights(ids, 2000, 20231206)
	for b, row := range want {
		for k := range ids {
			if w[b][k] != row[k] {
				t.Errorf("replicate %d, question %d: weight %v, METHODOLOGY.md says %v", b, ids[k], w[b][k], row[k])
			}
		}
	}
}
