package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// decisionData loads the sampled-decision fixture as a design with a fixed
// effect per question, and its yes and trial counts in the same row order.
func decisionData(t *testing.T) (X []float64, q int, yes, trials []float64) {
	t.Helper()
	rows := loadFixture(t, decisionFixture.name)
	obs := fixtureObs(rows)
	cl := clustersOf(t, obs)
	for i := range obs {
		obs[i].Y = rows[i].trials
	}
	// Same question ids and row order: Clusters depends only on Q and Cell.
	tcl := clustersOf(t, obs)
	X, q = stats.StackQuestions(cl, p)
	for k := range cl {
		yes = append(yes, cl[k].Y...)
		trials = append(trials, tcl[k].Y...)
	}
	return X, q, yes, trials
}

// Against R: glm(cbind(yes, trials − yes) ~ age_z + gender + race + factor(q),
// family = binomial), fitted by testdata/lme4/fit.R with a tight tolerance.
// Both are the same maximum to about 1e-12; the tolerance leaves room for
// other platforms.
func TestLogisticVsGLM(t *testing.T) {
	X, q, yes, trials := decisionData(t)
	ref := loadRef(t, "testdata/"+decisionFixture.name+".reference.json")
	f, err := stats.Logistic(X, q, yes, trials)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Converged || f.Separated {
		t.Fatalf("converged %v separated %v after %d iterations", f.Converged, f.Separated, f.Iterations)
	}
	if q != p+69 {
		t.Fatalf("%d columns, want %d", q, p+69)
	}
	for _, c := range design.Coefs {
		r := ref.GLM[c.Name()]
		j := 1 + int(c)
		if d := math.Abs(f.Beta[j] - r.Estimate); d > 1e-8 {
			t.Errorf("%s: estimate %.12g, glm %.12g", c.Name(), f.Beta[j], r.Estimate)
		}
		if d := math.Abs(f.SE[j] - r.SE); d > 1e-8 {
			t.Errorf("%s: SE %.12g, glm %.12g", c.Name(), f.SE[j], r.SE)
		}
	}
	if d := math.Abs(f.Deviance - ref.GLMDeviance); d > 1e-9*ref.GLMDeviance {
		t.Errorf("deviance %.10f, glm %.10f", f.Deviance, ref.GLMDeviance)
	}
}

// A question answered yes every time (or no every time) has no finite
// fixed effect: Logistic must say so and name that column, while the
// demographic coefficients stay finite and close to the unseparated fit.
func TestLogisticSeparation(t *testing.T) {
	X, q, yes, trials := decisionData(t)
	base, err := stats.Logistic(X, q, yes, trials)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		col    int // question indicator column forced
		allYes bool
	}{{"question 5 always yes", p + 4, true}, {"question 40 always no", p + 39, false}} {
		y := slices.Clone(yes)
		for i := range y {
			if X[i*q+c.col] == 1 {
				y[i] = 0
				if c.allYes {
					y[i] = trials[i]
				}
			}
		}
		f, err := stats.Logistic(X, q, y, trials)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Separated || f.Converged {
			t.Errorf("%s: separated %v converged %v, want true, false", c.name, f.Separated, f.Converged)
			continue
		}
		if !slices.Equal(f.Diverging, []int{c.col}) {
			t.Errorf("%s: diverging columns %v, want [%d]", c.name, f.Diverging, c.col)
		}
		if sign := math.Copysign(1, f.Beta[c.col]); (sign > 0) != c.allYes || math.Abs(f.Beta[c.col]) < 10 {
			t.Errorf("%s: its coefficient is %v", c.name, f.Beta[c.col])
		}
		for j := 1; j < p; j++ {
			if d := math.Abs(f.Beta[j] - base.Beta[j]); d > 5*base.SE[j] || math.IsNaN(f.SE[j]) {
				t.Errorf("%s: coefficient %d moved from %.4f to %.4f (SE %.4f)", c.name, j, base.Beta[j], f.Beta[j], f.SE[j])
			}
		}
	}
	// Complete separation on a continuous predictor.
	xs := []float64{1, -2, 1, -1, 1, -0.5, 1, 0.5, 1, 1, 1, 2}
	f, err := stats.Logistic(xs, 2, []float64{0, 0, 0, 3, 3, 3}, []float64{3, 3, 3, 3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Separated || !slices.Contains(f.Diverging, 1) {
		t.Errorf("complete separation: separated %v, diverging %v", f.Separated, f.Diverging)
	}
}

func TestLogisticErrors(t *testing.T) {
	x := []float64{1, 0, 1, 1}
	for _, c := range []struct {
		name        string
		yes, trials []float64
	}{
		{"more yes than trials", []float64{2, 1}, []float64{1, 1}},
		{"negative", []float64{-1, 1}, []float64{1, 1}},
		{"NaN", []float64{math.NaN(), 1}, []float64{1, 1}},
		{"length", []float64{1}, []float64{1}},
	} {
		if _, err := stats.Logistic(x, 2, c.yes, c.trials); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	// Collinear columns.
	if _, err := stats.Logistic([]float64{1, 1, 1, 1}, 2, []float64{1, 2}, []float64{3, 3}); err == nil {
		t.Error("collinear design accepted")
	}
}
