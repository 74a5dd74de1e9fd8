package stats

import (
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// synthCrossprods generates a run and returns its clusters' cross products.
func synthCrossprods(t *testing.T, s synth.Spec) []crossprod {
	t.Helper()
	rows, err := synth.Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	obs := make([]Obs, len(rows))
	for i, r := range rows {
		obs[i] = Obs{Q: r.Q, Cell: r.Cell, Y: r.Logit}
	}
	_, cl, err := Clusters(obs)
	if err != nil {
		t.Fatal(err)
	}
	cps, err := crossprods(cl, design.NumFixed)
	if err != nil {
		t.Fatal(err)
	}
	return cps
}

var internalSpec = synth.Spec{
	Seed: 3, Questions: synth.DefaultQuestions()[:30], Intercept: 0.5,
	Effects:    [design.NumCoefs]float64{-0.3, 0.3, 0.5, 1, 0.4, 0.5, 0.9},
	QuestionSD: [design.NumFixed]float64{1, 0.3, 0.3, 0.4, 0.4, 0.3, 0.3, 0.4},
	Corr:       0.2, Noise: 0.5, Drop: 0.2,
}

// The analytic gradient of the REML criterion agrees with central
// differences, at the starting point and at a perturbed, non-symmetric Λ.
func TestREMLGradient(t *testing.T) {
	cps := synthCrossprods(t, internalSpec)
	p := design.NumFixed
	r := newREML(cps, p)
	base := r.start()
	for _, shift := range []float64{0, 0.3} {
		theta := append([]float64(nil), base...)
		for k := range theta {
			theta[k] += shift * math.Sin(float64(3*k+1)) // deterministic, all signs
		}
		grad := make([]float64, len(theta))
		r.eval(theta, grad)
		for k := range theta {
			h := 1e-5 * math.Max(1, math.Abs(theta[k]))
			th := append([]float64(nil), theta...)
			th[k] = theta[k] + h
			fp := r.eval(th, nil)
			th[k] = theta[k] - h
			fm := r.eval(th, nil)
			fd := (fp - fm) / (2 * h)
			// Rounding of a criterion of order 1e4 over 2h is about 1e-7; truncation
			// (h²) about the same.
			if math.Abs(fd-grad[k]) > 1e-5*math.Max(1, math.Abs(grad[k])) {
				t.Errorf("shift %v, θ[%d]: analytic %.9g, central difference %.9g", shift, k, grad[k], fd)
			}
		}
	}
}

// Started far from the optimum (Λ = I), the optimiser reaches the fit
// FitMixed gives: the moment-started REML fit on incomplete data, and the
// closed form on complete data (where FitREML alone would start at it).
func TestREMLFromIdentity(t *testing.T) {
	p := design.NumFixed
	for _, drop := range []float64{0, 0.2} {
		spec := internalSpec
		spec.Drop = drop
		cps := synthCrossprods(t, spec)
		ref, ok := closedForm(cps, p)
		if !ok {
			var err error
			if ref, err = fitREML(cps, p); err != nil {
				t.Fatal(err)
			}
		}
		if want := map[bool]string{true: "closed-form", false: "reml"}[drop == 0]; ref.Method != want {
			t.Fatalf("drop %v: reference fit is %s, want %s", drop, ref.Method, want)
		}
		f, err := fitREMLFrom(cps, p, thetaFromLambda(identity(p), p), maxIter)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Converged || !ref.Converged {
			t.Fatalf("drop %v: converged: from identity %v, reference %v", drop, f.Converged, ref.Converged)
		}
		t.Logf("drop %v: %d iterations from Λ = I, %d from the moment estimate", drop, f.Iterations, ref.Iterations)
		for j := range f.Beta {
			if d := math.Abs(f.Beta[j] - ref.Beta[j]); d > 1e-8 {
				t.Errorf("drop %v, β[%d]: %v vs %v", drop, j, f.Beta[j], ref.Beta[j])
			}
			if d := math.Abs(f.SE[j] - ref.SE[j]); d > 1e-8 {
				t.Errorf("drop %v, SE[%d]: %v vs %v", drop, j, f.SE[j], ref.SE[j])
			}
		}
		if d := math.Abs(f.REMLCrit - ref.REMLCrit); d > 1e-8 {
			t.Errorf("drop %v, criterion %v vs %v", drop, f.REMLCrit, ref.REMLCrit)
		}
	}
}

// An optimiser stopped early says so rather than passing its last point off
// as the fit.
func TestREMLNonConvergenceReported(t *testing.T) {
	cps := synthCrossprods(t, internalSpec)
	p := design.NumFixed
	f, err := fitREMLFrom(cps, p, thetaFromLambda(identity(p), p), 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.Converged {
		t.Errorf("two iterations from Λ = I reported as converged (criterion %v)", f.REMLCrit)
	}
	if f.Iterations != 2 {
		t.Errorf("iterations %d, want 2", f.Iterations)
	}
}
