package stats_test

import (
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// With one binary covariate the model is saturated and Firth's estimate is
// exactly the log odds ratio with ½ added to every cell (Firth 1993):
// finite even when a cell is empty, where maximum likelihood diverges.
func TestFirthSaturatedIsHaldane(t *testing.T) {
	for _, tc := range []struct{ y0, n0, y1, n1 float64 }{
		{7, 363, 0, 22}, // no events in one group: separation
		{30, 60, 45, 60},
		{5, 5, 1, 9}, // every answer yes in one group
	} {
		X := []float64{1, 0, 1, 1}
		f, err := stats.Firth(X, 2, []float64{tc.y0, tc.y1}, []float64{tc.n0, tc.n1})
		if err != nil || !f.Converged {
			t.Fatalf("%+v: %v, converged %v", tc, err, f != nil && f.Converged)
		}
		logit := func(y, n float64) float64 { return math.Log((y + 0.5) / (n - y + 0.5)) }
		wantB0 := logit(tc.y0, tc.n0)
		wantB1 := logit(tc.y1, tc.n1) - wantB0
		if math.Abs(f.Beta[0]-wantB0) > 1e-9 || math.Abs(f.Beta[1]-wantB1) > 1e-9 {
			t.Errorf("%+v: β = %v, want %v, %v", tc, f.Beta, wantB0, wantB1)
		}
	}
}

// Also for a three-level factor, row by row (trials of one): the grouping of
// the answers must not matter.
func TestFirthUngroupedRows(t *testing.T) {
	var X, yes, trials []float64
	counts := [][2]int{{3, 10}, {9, 10}, {0, 10}} // yes of n per level
	for level, c := range counts {
		for i := 0; i < c[1]; i++ {
			row := []float64{1, 0, 0}
			if level > 0 {
				row[level] = 1
			}
			X = append(X, row...)
			y := 0.0
			if i < c[0] {
				y = 1
			}
			yes, trials = append(yes, y), append(trials, 1)
		}
	}
	f, err := stats.Firth(X, 3, yes, trials)
	if err != nil || !f.Converged {
		t.Fatal(err)
	}
	logit := func(c [2]int) float64 { return math.Log((float64(c[0]) + 0.5) / (float64(c[1]-c[0]) + 0.5)) }
	want := []float64{logit(counts[0]), logit(counts[1]) - logit(counts[0]), logit(counts[2]) - logit(counts[0])}
	for j := range want {
		if math.Abs(f.Beta[j]-want[j]) > 1e-9 {
			t.Errorf("β = %v, want %v", f.Beta, want)
			break
		}
	}
}

func TestFirthErrors(t *testing.T) {
	// Two identical columns.
	if _, err := stats.Firth([]float64{1, 1, 1, 1}, 2, []float64{1, 0}, []float64{2, 2}); err == nil {
		t.Error("collinear columns accepted")
	}
	if _, err := stats.Firth([]float64{1, 1}, 1, []float64{3, 0}, []float64{2, 2}); err == nil {
		t.Error("more yes than trials accepted")
	}
}

// One question of the decision fixture against R's brglm2 (Firth's
// bias-reduced logistic regression, type "AS_mean"): testdata/lme4/fit.R.
// The whole two-stage estimate is checked in internal/score.
func TestFirthMatchesBrglm2(t *testing.T) {
	ref := loadRef(t, "testdata/"+decisionFixture.name+".reference.json")
	rows := loadFixture(t, decisionFixture.name)
	// The question's rows, age standardised over the questions R kept
	// (all of them here: none is answered one way only).
	var obs []stats.Obs
	var yes, trials []float64
	for _, r := range rows {
		obs = append(obs, r.obs)
	}
	ids, cl, err := stats.Clusters(obs)
	if err != nil {
		t.Fatal(err)
	}
	if ids[0] != ref.FirstQuestion.ID {
		t.Fatalf("first question %d, R's %d", ids[0], ref.FirstQuestion.ID)
	}
	for _, r := range rows {
		if r.obs.Q == ids[0] {
			yes, trials = append(yes, r.obs.Y), append(trials, r.trials)
		}
	}
	f, err := stats.Firth(cl[0].X, p, yes, trials)
	if err != nil || !f.Converged {
		t.Fatalf("%v", err)
	}
	for _, c := range design.Coefs {
		want := ref.FirstQuestion.Coefficients[c.Name()]
		if got := f.Beta[1+c]; math.Abs(got-want) > 1e-8 {
			t.Errorf("%s: %.12f, brglm2 %.12f", c.Name(), got, want)
		}
	}
}
