package stats_test

import (
	"errors"
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

const p = design.NumFixed

// compareCoefs checks the seven coefficients of f against a reference.
func compareCoefs(t *testing.T, what string, f *stats.MixedFit, ref map[string]estimate, estTol, seTol float64) {
	t.Helper()
	for _, c := range design.Coefs {
		r := ref[c.Name()]
		j := 1 + int(c)
		if d := math.Abs(f.Beta[j] - r.Estimate); !(d <= estTol) {
			t.Errorf("%s %s: estimate %.12g, reference %.12g (off by %.2g, tolerance %.0g)", what, c.Name(), f.Beta[j], r.Estimate, d, estTol)
		}
		if d := math.Abs(f.SE[j] - r.SE); !(d <= seTol) {
			t.Errorf("%s %s: SE %.12g, reference %.12g (off by %.2g, tolerance %.0g)", what, c.Name(), f.SE[j], r.SE, d, seTol)
		}
	}
}

// Complete run: every question has the same design, so FitMixed uses the
// closed form. lme4's estimates equal it to rounding (it is OLS), its SEs to
// lme4's own optimiser tolerance (about 1e-6).
func TestCompleteSeed7(t *testing.T) {
	cl := clustersOf(t, loadRun(t, "../../testdata/complete-seed7.jsonl.gz"))
	ref := loadRef(t, "../../testdata/complete-seed7.reference.json")
	cf := mustFit(t, stats.FitMixed, cl)
	if cf.Method != "closed-form" || !cf.Converged || cf.Singular || cf.DF != len(cl)-1 {
		t.Fatalf("method %q converged %v singular %v df %d, want closed-form, true, false, %d", cf.Method, cf.Converged, cf.Singular, cf.DF, len(cl)-1)
	}
	compareCoefs(t, "closed form vs lme4", cf, ref.Coefs, 1e-9, 1e-5)

	// REML on the same data. On a balanced design β̂ = mean of the
	// per-question OLS fits for every value of the variance parameters, so
	// the estimates agree to rounding; the SEs depend on those parameters,
	// so they agree to the optimiser's tolerance (the closed form is REML's
	// stationary point: the optimiser, checking the analytic gradient, stays
	// there).
	rf := mustFit(t, stats.FitREML, cl)
	if rf.Method != "reml" || !rf.Converged {
		t.Fatalf("FitREML: method %q converged %v", rf.Method, rf.Converged)
	}
	for j := 0; j < p; j++ {
		if d := math.Abs(rf.Beta[j] - cf.Beta[j]); d > 1e-9 {
			t.Errorf("β[%d]: REML %.12g, closed form %.12g", j, rf.Beta[j], cf.Beta[j])
		}
		if d := math.Abs(rf.SE[j] - cf.SE[j]); d > 1e-7 {
			t.Errorf("SE[%d]: REML %.12g, closed form %.12g", j, rf.SE[j], cf.SE[j])
		}
	}
	if d := math.Abs(rf.Sigma2 - cf.Sigma2); d > 1e-9*cf.Sigma2 {
		t.Errorf("σ²: REML %.12g, closed form %.12g", rf.Sigma2, cf.Sigma2)
	}
	if d := math.Abs(rf.REMLCrit - cf.REMLCrit); d > 1e-6 {
		t.Errorf("criterion: REML %.12g, closed form %.12g", rf.REMLCrit, cf.REMLCrit)
	}
	for k := range cf.Psi {
		if d := math.Abs(rf.Psi[k] - cf.Psi[k]); d > 1e-7 {
			t.Errorf("Ψ[%d]: REML %.12g, closed form %.12g", k, rf.Psi[k], cf.Psi[k])
		}
	}
}

// Incomplete run: a real REML fit, compared with lme4.
func TestIncompleteSeed8(t *testing.T) {
	cl := clustersOf(t, loadRun(t, "../../testdata/incomplete-seed8.jsonl.gz"))
	ref := loadRef(t, "../../testdata/incomplete-seed8.reference.json")
	f := mustFit(t, stats.FitMixed, cl)
	if f.Method != "reml" || !f.Converged || f.Singular {
		t.Fatalf("method %q converged %v singular %v, want reml, true, false", f.Method, f.Converged, f.Singular)
	}
	compareCoefs(t, "REML vs lme4", f, ref.Coefs, 1e-5, 5e-5)
}

// Synthetic runs with other seeds, drop rates (5–40%), effect sizes and
// random-effect structures, fitted by lme4 with testdata/lme4/fit.R.
func TestSyntheticVsLme4(t *testing.T) {
	for _, fx := range logitFixtures {
		t.Run(fx.name, func(t *testing.T) {
			cl := clustersOf(t, fixtureObs(loadFixture(t, fx.name)))
			ref := loadRef(t, "testdata/"+fx.name+".reference.json")
			f := mustFit(t, stats.FitMixed, cl)
			if f.Method != "reml" || !f.Converged {
				t.Fatalf("method %q converged %v, want reml, true", f.Method, f.Converged)
			}
			compareCoefs(t, "REML vs lme4", f, ref.Coefs, 1e-5, 5e-5)
			if d := math.Abs(f.Beta[0] - ref.Intercept.Estimate); d > 1e-5 {
				t.Errorf("intercept %.12g, lme4 %.12g", f.Beta[0], ref.Intercept.Estimate)
			}
			if d := math.Abs(f.Sigma2 - ref.Sigma2); d > 1e-5*ref.Sigma2 {
				t.Errorf("σ² %.12g, lme4 %.12g", f.Sigma2, ref.Sigma2)
			}
			// Same optimum, and ours no worse: lme4 stops at a looser
			// tolerance.
			if f.REMLCrit > ref.REMLCrit+1e-6 || f.REMLCrit < ref.REMLCrit-1e-3 {
				t.Errorf("REML criterion %.10f, lme4 %.10f", f.REMLCrit, ref.REMLCrit)
			}
			// Where lme4 converged cleanly it must agree on singularity
			// (one fixture stops lme4 short of a boundary optimum, with a
			// convergence warning: there we only require a lower criterion).
			clean := true
			for _, m := range ref.Messages {
				if m != "boundary (singular) fit: see help('isSingular')" {
					clean = false
				}
			}
			if clean && f.Singular != ref.Singular {
				t.Errorf("singular %v, lme4 %v", f.Singular, ref.Singular)
			}
		})
	}
}

// A complete run whose between-question covariance falls short of the
// within-question sampling variance in one direction (a slope without
// question variation) has its REML optimum on the boundary: the closed form
// does not apply and FitMixed must use REML, with the same β̂.
func TestClosedFormFallsBackOnBoundary(t *testing.T) {
	spec := synth.Spec{Seed: 5, Questions: synth.DefaultQuestions()[:25], Effects: paperEffects,
		QuestionSD: [design.NumFixed]float64{1, 0.2, 0.3, 0, 0.3, 0.2, 0.3, 0.3}, Noise: 0.8}
	cl := synthClusters(t, spec)
	f := mustFit(t, stats.FitMixed, cl)
	if f.Method != "reml" || !f.Singular || !f.Converged {
		t.Fatalf("method %q singular %v converged %v, want reml, true, true", f.Method, f.Singular, f.Converged)
	}
	mean := make([]float64, p)
	for _, b := range f.ClusterBeta {
		for j := range b {
			mean[j] += b[j] / float64(len(cl))
		}
	}
	// With a balanced design the BLUPs average to zero and β̂ is OLS.
	ols := olsMean(t, cl)
	for j := range mean {
		if math.Abs(f.Beta[j]-ols[j]) > 1e-9 || math.Abs(mean[j]-ols[j]) > 1e-9 {
			t.Errorf("β[%d] %.12g, mean of cluster β %.12g, mean of per-question OLS %.12g", j, f.Beta[j], mean[j], ols[j])
		}
	}
}

// Planted effects are recovered within a few standard errors, for complete
// and incomplete runs.
func TestRecoversPlantedEffects(t *testing.T) {
	for _, drop := range []float64{0, 0.3} {
		spec := synth.Spec{Seed: 9, Intercept: 0.5, Effects: paperEffects,
			QuestionSD: [design.NumFixed]float64{1, 0.3, 0.3, 0.4, 0.4, 0.3, 0.3, 0.4}, Corr: 0.3, Noise: 0.5, Drop: drop}
		rows, err := synth.Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		cl := synthClusters(t, spec)
		f := mustFit(t, stats.FitMixed, cl)
		truth := plantedCoefs(spec, rows)
		for j := 1; j < p; j++ {
			want := truth[j]
			if z := (f.Beta[j] - want) / f.SE[j]; math.Abs(z) > 4 {
				t.Errorf("drop %v, %s: estimate %.4f ± %.4f, planted %.4f (z = %.1f)", drop, design.Coefs[j-1].Name(), f.Beta[j], f.SE[j], want, z)
			}
		}
	}
}

func TestFitErrors(t *testing.T) {
	one := []stats.Cluster{{X: make([]float64, 2*p), Y: make([]float64, 2)}}
	if _, err := stats.FitMixed(one, p); !errors.Is(err, stats.ErrTooFewClusters) {
		t.Errorf("one cluster: %v, want ErrTooFewClusters", err)
	}
	bad := []stats.Cluster{one[0], {X: make([]float64, 3), Y: make([]float64, 2)}}
	if _, err := stats.FitREML(bad, p); err == nil {
		t.Error("mismatched X and Y accepted")
	}
	nan := []stats.Cluster{one[0], {X: make([]float64, p), Y: []float64{math.NaN()}}}
	if _, err := stats.FitMixed(nan, p); err == nil {
		t.Error("NaN response accepted")
	}
}

// synthClusters generates a run and builds its clusters.
func synthClusters(t testing.TB, s synth.Spec) []stats.Cluster {
	t.Helper()
	rows, err := synth.Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	return clustersOf(t, synthObs(rows))
}

func synthObs(rows []synth.Row) []stats.Obs {
	obs := make([]stats.Obs, len(rows))
	for i, r := range rows {
		obs[i] = stats.Obs{Q: r.Q, Cell: r.Cell, Y: r.Logit}
	}
	return obs
}

// plantedCoefs returns the true values of the seven coefficients (indexed
// by design column; [0] unused) a fit of rows estimates: the age effect is
// rescaled to the standard deviation of the ages present.
func plantedCoefs(s synth.Spec, rows []synth.Row) [design.NumFixed]float64 {
	ages := make([]float64, len(rows))
	for i, r := range rows {
		ages[i] = float64(r.Cell.Age)
	}
	_, sd := stats.Standardize(ages)
	var out [design.NumFixed]float64
	for k, e := range s.Effects {
		out[1+k] = e
	}
	out[1+design.CoefAge] = s.AgeCoef(sd)
	return out
}

// olsMean is the mean over clusters of the per-cluster OLS coefficients,
// computed independently of the package (normal equations by Gauss–Jordan).
func olsMean(t testing.TB, cl []stats.Cluster) []float64 {
	t.Helper()
	mean := make([]float64, p)
	for _, c := range cl {
		b := ols(t, c)
		for j := range b {
			mean[j] += b[j] / float64(len(cl))
		}
	}
	return mean
}

func ols(t testing.TB, c stats.Cluster) []float64 {
	t.Helper()
	// Augmented normal equations [X'X | X'y].
	a := make([][]float64, p)
	for j := range a {
		a[j] = make([]float64, p+1)
	}
	for r, y := range c.Y {
		x := c.X[r*p : (r+1)*p]
		for j := 0; j < p; j++ {
			for k := 0; k < p; k++ {
				a[j][k] += x[j] * x[k]
			}
			a[j][p] += x[j] * y
		}
	}
	for col := 0; col < p; col++ {
		piv := col
		for r := col + 1; r < p; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		if a[col][col] == 0 {
			t.Fatal("singular per-question design")
		}
		for r := 0; r < p; r++ {
			if r == col {
				continue
			}
			m := a[r][col] / a[col][col]
			for k := col; k <= p; k++ {
				a[r][k] -= m * a[col][k]
			}
		}
	}
	b := make([]float64, p)
	for j := range b {
		b[j] = a[j][p] / a[j][j]
	}
	return b
}
