package stats

import "math"

// A small BFGS minimiser. gonum/optimize would do, but it pulls in
// golang.org/x/tools through its CMA-ES code, a module this project does not
// otherwise need; the REML problem (36 smooth parameters, analytic gradient)
// needs only this much.

type optResult struct {
	x, grad   []float64
	f         float64
	iter      int
	converged bool // the gradient's largest component fell below the tolerance
}

// bfgs minimises fg (which returns f(x) and writes ∇f(x) into grad) from x0
// until the largest gradient component is below gradTol, for at most maxIter
// iterations. The line search accepts the Armijo condition or, once f no
// longer changes beyond rounding, Hager and Zhang's approximate Wolfe
// conditions on the directional derivative, so convergence is not limited by
// the rounding of an f of order N. NaN values of f count as infinite.
func bfgs(fg func(x, grad []float64) float64, x0 []float64, gradTol float64, maxIter int) optResult {
	n := len(x0)
	x := append([]float64(nil), x0...)
	g := make([]float64, n)
	f := fg(x, g)
	hinv := identity(n)
	fresh := true // hinv is the identity: the first curvature pair rescales it
	d := make([]float64, n)
	xn := make([]float64, n)
	gn := make([]float64, n)
	s := make([]float64, n)
	y := make([]float64, n)
	hy := make([]float64, n)
	res := optResult{}
	for res.iter = 0; res.iter < maxIter; res.iter++ {
		if maxAbs(g) < gradTol {
			res.converged = true
			break
		}
		mulVec(d, hinv, g, n)
		for i := range d {
			d[i] = -d[i]
		}
		slope := dot(g, d)
		if !(slope < 0) { // lost positive definiteness: restart
			hinv, fresh = identity(n), true
			for i := range d {
				d[i] = -g[i]
			}
			slope = dot(g, d)
		}
		alpha, fn, ok := 1.0, 0.0, false
		if fresh {
			// Unscaled steepest descent: keep the first step modest.
			alpha = math.Min(1, 1/math.Sqrt(dot(g, g)))
		}
		for try := 0; try < 60; try++ {
			for i := range xn {
				xn[i] = x[i] + alpha*d[i]
			}
			fn = fg(xn, gn)
			if !math.IsNaN(fn) && !math.IsInf(fn, 0) {
				slopeN := dot(gn, d)
				armijo := fn <= f+1e-4*alpha*slope
				approxWolfe := fn <= f+1e-12*math.Abs(f) && slopeN <= -0.8*slope && slopeN >= 0.9*slope
				if armijo || approxWolfe {
					ok = true
					break
				}
			}
			alpha /= 2
		}
		if !ok {
			if fresh {
				break // even a tiny steepest-descent step fails: stop here
			}
			hinv, fresh = identity(n), true
			continue
		}
		for i := range s {
			s[i] = xn[i] - x[i]
			y[i] = gn[i] - g[i]
		}
		copy(x, xn)
		copy(g, gn)
		f = fn
		sy := dot(s, y)
		if !(sy > 1e-12*math.Sqrt(dot(s, s)*dot(y, y))) {
			continue // no usable curvature information
		}
		if fresh {
			// Scale the initial inverse Hessian (Nocedal & Wright 6.20).
			scale := sy / dot(y, y)
			for i := range hinv {
				hinv[i] *= scale
			}
			fresh = false
		}
		// H ← (I − ρsy')H(I − ρys') + ρss', expanded.
		rho := 1 / sy
		mulVec(hy, hinv, y, n)
		yhy := dot(y, hy)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				hinv[i*n+j] += -rho*(s[i]*hy[j]+hy[i]*s[j]) + (rho*rho*yhy+rho)*s[i]*s[j]
			}
		}
	}
	res.x, res.grad, res.f = x, g, f
	if maxAbs(g) < gradTol {
		res.converged = true
	}
	return res
}

func identity(n int) []float64 {
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		a[i*n+i] = 1
	}
	return a
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
