package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

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

// minimiseWith runs minimise from the moment estimate with each line search
// replaced by ls(the usual one).
func minimiseWith(cps []crossprod, p int, ls func(optimize.Linesearcher) optimize.Linesearcher) (*reml, optResult) {
	saved := newLinesearcher
	newLinesearcher = func() optimize.Linesearcher { return ls(saved()) }
	defer func() { newLinesearcher = saved }()
	r := newREML(cps, p)
	theta0 := r.start()
	g0 := make([]float64, len(theta0))
	f0 := r.eval(theta0, g0)
	return r, r.minimise(theta0, f0, g0, maxIter)
}

// failingLinesearch fails the 3rd, 8th and 20th line searches it is used
// for, after one trial step.
type failingLinesearch struct {
	optimize.Linesearcher
	inits *int
}

func (f failingLinesearch) Init(v, g, step float64) optimize.Operation {
	*f.inits++
	return f.Linesearcher.Init(v, g, step)
}

func (f failingLinesearch) Iterate(v, g float64) (optimize.Operation, float64, error) {
	if n := *f.inits; n == 3 || n == 8 || n == 20 {
		return optimize.NoOperation, 0, optimize.ErrLinesearcherFailure
	}
	return f.Linesearcher.Iterate(v, g)
}

// A failed line search restarts BFGS from the best point, and the restarts
// reach the same optimum.
func TestREMLRestartsAfterLinesearchFailure(t *testing.T) {
	cps := synthCrossprods(t, internalSpec)
	p := design.NumFixed
	ref, err := fitREML(cps, p)
	if err != nil {
		t.Fatal(err)
	}
	inits := 0
	r, res := minimiseWith(cps, p, func(usual optimize.Linesearcher) optimize.Linesearcher {
		return failingLinesearch{Linesearcher: usual, inits: &inits}
	})
	if res.err != nil {
		t.Fatalf("after %d iterations and %d line searches: %v", res.iter, inits, res.err)
	}
	if inits < 20 {
		t.Fatalf("%d line searches: not all three failures were exercised", inits)
	}
	t.Logf("%d iterations, %d line searches", res.iter, inits)
	grad := make([]float64, len(res.x))
	if dev := r.eval(res.x, grad); math.Abs(dev-ref.REMLCrit) > 1e-8 {
		t.Errorf("criterion %v, uninterrupted fit %v", dev, ref.REMLCrit)
	}
	if g := floats.Norm(grad, math.Inf(1)); g >= gradTol {
		t.Errorf("largest gradient component %v", g)
	}
	for j := range r.beta {
		if d := math.Abs(r.beta[j] - ref.Beta[j]); d > 1e-8 {
			t.Errorf("β[%d]: %v vs %v", j, r.beta[j], ref.Beta[j])
		}
	}
}

// Why approxWolfe exists: gonum's own line search, in the same BFGS, stops
// once the criterion is flat to rounding, with the gradient still well above
// gradTol. If a gonum release fixes this, approxWolfe can go.
func TestGonumLinesearchAloneStopsShort(t *testing.T) {
	cps := synthCrossprods(t, internalSpec)
	p := design.NumFixed
	r, res := minimiseWith(cps, p, func(optimize.Linesearcher) optimize.Linesearcher {
		return &optimize.MoreThuente{DecreaseFactor: 1e-4}
	})
	grad := make([]float64, len(res.x))
	r.eval(res.x, grad)
	g := floats.Norm(grad, math.Inf(1))
	t.Logf("stopped after %d iterations: %v; largest gradient component %.3g", res.iter, res.err, g)
	if res.err == nil || g < gradTol {
		t.Errorf("gonum's MoreThuente alone reached gradTol (%.3g): approxWolfe may no longer be needed", g)
	}
}

// approxWolfe accepts a step on the derivative alone where f is flat to
// rounding, leaves other steps to the inner search, and backs off from a
// point where f is undefined.
func TestApproxWolfe(t *testing.T) {
	a := &approxWolfe{Linesearcher: &optimize.MoreThuente{DecreaseFactor: 1e-4}}
	const f0, g0 = 1e4, -1e-12
	if op := a.Init(f0, g0, 1); op != optimize.FuncEvaluation|optimize.GradEvaluation {
		t.Fatalf("Init: %v", op)
	}
	// f up by rounding, φ' halved: MoreThuente's Armijo test fails, the
	// approximate Wolfe conditions hold.
	if op, _, err := a.Iterate(f0+1e-12, g0/2); op != optimize.MajorIteration || err != nil {
		t.Errorf("flat f, φ' halved: %v, %v", op, err)
	}
	a.Init(f0, g0, 1)
	// f up by more than rounding: not accepted.
	if op, _, err := a.Iterate(f0+1e-6, g0/2); op == optimize.MajorIteration || err != nil {
		t.Errorf("f up by 1e-6: %v, %v", op, err)
	}
	a.Init(f0, g0, 1)
	// φ' hardly changed (0.95φ'(0)): the curvature condition fails.
	if op, _, _ := a.Iterate(f0, 0.95*g0); op == optimize.MajorIteration {
		t.Error("φ'(α) = 0.95φ'(0) accepted")
	}
	a.Init(f0, g0, 1)
	if op, step, err := a.Iterate(math.Inf(1), math.NaN()); op != optimize.FuncEvaluation|optimize.GradEvaluation || step != 0.5 || err != nil {
		t.Errorf("undefined f: %v at step %v, %v; want a new evaluation at step 0.5", op, step, err)
	}
}
