package stats

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// The REML criterion is minimised by gonum's BFGS with gonum's More–Thuente
// line search, to which approxWolfe adds the one acceptance test that no
// gonum setting provides (see there for why it is needed).

// Optimiser settings. The criterion is of order N; a largest gradient
// component below gradTol puts the estimates far closer to the optimum than
// lme4's own stopping rule does. A final gradient above convGradTol (the
// scale of lme4's convergence warning) means the optimiser failed.
const (
	gradTol     = 1e-7
	convGradTol = 1e-3
	maxIter     = 2000
	// maxRestarts bounds the fresh BFGS runs after a line search fails.
	maxRestarts = 5
)

// newLinesearcher is the line search for each BFGS run (a variable so that
// a test can make it fail).
var newLinesearcher = func() optimize.Linesearcher {
	return &approxWolfe{Linesearcher: &optimize.MoreThuente{DecreaseFactor: 1e-4}}
}

type optResult struct {
	x    []float64
	iter int // BFGS iterations over all runs
	// err is the last run's error (a line search that failed) if the
	// gradient did not reach gradTol, else nil.
	err error
}

// minimise runs gonum's BFGS on the REML criterion from θ0, at whose value
// f0 and gradient g0 have been computed, until the gradient's largest
// component is below gradTol, for at most iters iterations. The only
// stopping rules are the gradient and the iteration limit: gonum's default
// converger (FunctionConverge) would stop on a function value that no longer
// falls, which happens long before the gradient is small (see approxWolfe).
// A failed line search restarts BFGS, with its inverse Hessian reset, from
// the best point, as long as the failed run made progress.
func (r *reml) minimise(theta0 []float64, f0 float64, g0 []float64, iters int) optResult {
	prob := optimize.Problem{
		Func: func(x []float64) float64 {
			if f := r.valueAt(x); !math.IsNaN(f) {
				return f
			}
			return math.Inf(1) // outside the domain: the line search backs off
		},
		Grad: func(grad, x []float64) {
			if math.IsNaN(r.valueAt(x)) {
				for i := range grad {
					grad[i] = math.NaN()
				}
				return
			}
			r.gradient(grad)
		},
	}
	res := optResult{x: append([]float64(nil), theta0...)}
	f, g := f0, append([]float64(nil), g0...)
	for run := 0; run <= maxRestarts && res.iter < iters; run++ {
		settings := &optimize.Settings{
			InitValues:        &optimize.Location{F: f, Gradient: g},
			GradientThreshold: gradTol,
			Converger:         optimize.NeverTerminate{},
			// gonum counts the starting point as a major iteration.
			MajorIterations: iters - res.iter + 1,
		}
		method := &optimize.BFGS{Linesearcher: newLinesearcher(), GradStopThreshold: gradTol}
		out, err := optimize.Minimize(prob, res.x, settings, method)
		if out == nil {
			res.err = err
			break
		}
		done := max(out.MajorIterations-1, 0)
		res.iter += done
		copy(res.x, out.X)
		f = out.F
		copy(g, out.Gradient)
		res.err = err
		if err == nil || done == 0 || floats.Norm(g, math.Inf(1)) < gradTol {
			break
		}
	}
	if floats.Norm(g, math.Inf(1)) < gradTol {
		res.err = nil
	}
	return res
}

// approxWolfe adds to a gonum line search (MoreThuente: it evaluates f and
// the directional derivative φ' at every trial step) the approximate Wolfe
// conditions of Hager and Zhang (2005): a step is also accepted where f has
// not risen beyond rounding and 0.9φ'(0) ≤ φ'(α) ≤ −0.8φ'(0).
//
// gonum's line searches accept a step only if f does not rise (MoreThuente,
// Bisection) or falls enough (Backtracking). Near the optimum a step lowers
// f by about g²/2λ, far below the rounding of an f of order 10⁴ (its ulp is
// 1.8e-12), so they fail with "linesearch: failed to converge" or "no change
// in location" once f is flat to rounding. Measured on the lme4 fixtures:
// MoreThuente, Bisection and Backtracking, whatever the converger, stopped
// at a largest gradient component of 1e-6 to 6e-5 (gradTol is 1e-7), and
// Backtracking ran into the iteration limit on one. With the approximate
// Wolfe test the same BFGS reaches gradTol on every fixture, at about one
// evaluation per iteration. The curvature half (φ'(α) ≥ 0.9φ'(0)) keeps
// s'y > 0, so the BFGS update stays positive definite. This is what the
// hand-written line search did before.
//
// A trial step where f is undefined (+Inf, see minimise) restarts the inner
// search from half that step.
type approxWolfe struct {
	optimize.Linesearcher
	f0, g0, step float64
}

func (a *approxWolfe) Init(f, g, step float64) optimize.Operation {
	a.f0, a.g0, a.step = f, g, step
	return a.Linesearcher.Init(f, g, step)
}

func (a *approxWolfe) Iterate(f, g float64) (optimize.Operation, float64, error) {
	if math.IsInf(f, 1) || math.IsNaN(g) {
		a.step /= 2
		return a.Linesearcher.Init(a.f0, a.g0, a.step), a.step, nil
	}
	if f <= a.f0+1e-12*math.Abs(a.f0) && g >= 0.9*a.g0 && g <= -0.8*a.g0 {
		return optimize.MajorIteration, a.step, nil
	}
	op, step, err := a.Linesearcher.Iterate(f, g)
	a.step = step
	return op, step, err
}
