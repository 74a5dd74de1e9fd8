package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// REML in lme4's parametrisation. Psi = σ²ΛΛ' with Λ lower-triangular,
// θ = its lower triangle column by column. σ² and β are profiled out, and
// everything depends on the data through the per-cluster A_i = X_i'X_i,
// b_i = X_i'y_i, c_i = y_i'y_i, so an evaluation costs O(m·p³) whatever the
// number of rows. With M_i = I + Λ'A_iΛ and P_i = ΛM_i⁻¹Λ':
//
//	G = Σ(A_i − A_iP_iA_i), g = Σ(b_i − A_iP_ib_i), q = Σ(c_i − b_i'P_ib_i),
//	β̂ = G⁻¹g, r² = q − g'β̂, σ̂² = r²/(N−p), Cov(β̂) = σ̂²G⁻¹,
//	dev(θ) = Σ log det M_i + log det G + (N−p)(1 + log(2πr²/(N−p))),
//
// which is lme4's profiled REML criterion (log det of its L_θ and R_X).
// Its gradient with respect to Λ (of which the lower triangle is kept), with
// H_i = ΛM_i⁻¹, u_i = b_i − A_iβ̂ and S_i = A_iG⁻¹A_i + (N−p)/r²·u_iu_i', is
//
//	∂dev/∂Λ = Σ 2(A_i − (I − A_iP_i)S_i)H_i,
//
// from d log det M_i = 2tr(M_i⁻¹Λ'A_i dΛ) and
// dP_i = K_i dΛ H_i' + H_i dΛ' K_i' with K_i = I − P_iA_i.

type reml struct {
	cps  []crossprod
	p, N int
	// Work space, reused across evaluations.
	lam, t, mm, tmp, tmp2, e, s, grad []float64
	h, ap, gi                         [][]float64 // per cluster H_i, A_iP_i, G_i
	gv                                [][]float64 // per cluster g_i
	gsum, gl, ginv, gvec, beta, u, v  []float64
	r2                                float64
	at                                []float64 // θ of the last value call
	dev                               float64   // and its result
}

func newREML(cps []crossprod, p int) *reml {
	r := &reml{cps: cps, p: p}
	pp := p * p
	for _, cp := range cps {
		r.N += cp.n
		r.h = append(r.h, make([]float64, pp))
		r.ap = append(r.ap, make([]float64, pp))
		r.gi = append(r.gi, make([]float64, pp))
		r.gv = append(r.gv, make([]float64, p))
	}
	for _, s := range []*[]float64{&r.lam, &r.t, &r.mm, &r.tmp, &r.tmp2, &r.e, &r.s, &r.grad, &r.gsum, &r.gl, &r.ginv} {
		*s = make([]float64, pp)
	}
	for _, s := range []*[]float64{&r.gvec, &r.beta, &r.u, &r.v} {
		*s = make([]float64, p)
	}
	return r
}

func nTheta(p int) int { return p * (p + 1) / 2 }

// lambdaFromTheta fills lam (p×p) from θ.
func lambdaFromTheta(lam, theta []float64, p int) {
	for k := range lam {
		lam[k] = 0
	}
	k := 0
	for c := 0; c < p; c++ {
		for row := c; row < p; row++ {
			lam[row*p+c] = theta[k]
			k++
		}
	}
}

// thetaFromLambda reads θ from a lower-triangular Λ, flipping the sign of
// columns with a negative diagonal (ΛΛ' is unchanged) as lme4 reports it.
func thetaFromLambda(lam []float64, p int) []float64 {
	theta := make([]float64, 0, nTheta(p))
	for c := 0; c < p; c++ {
		sign := 1.0
		if lam[c*p+c] < 0 {
			sign = -1
		}
		for row := c; row < p; row++ {
			theta = append(theta, sign*lam[row*p+c])
		}
	}
	return theta
}

// eval returns dev(θ) and, if grad is non-nil, writes its gradient there.
// It leaves β̂, r², G_i, g_i and the Cholesky factor of G in r.
func (r *reml) eval(theta, grad []float64) float64 {
	dev := r.value(theta)
	if grad != nil && !math.IsNaN(dev) {
		r.gradient(grad)
	}
	return dev
}

// valueAt is value(θ), reusing the last evaluation if it was at θ (gonum
// asks for the value and the gradient at a point in two calls).
func (r *reml) valueAt(theta []float64) float64 {
	if r.at != nil && floats.Equal(theta, r.at) {
		return r.dev
	}
	return r.value(theta)
}

// value returns dev(θ) (NaN where it is undefined) and leaves in r the work
// space that gradient needs, recording θ and dev(θ) in r.at and r.dev.
func (r *reml) value(theta []float64) float64 {
	r.at = append(r.at[:0], theta...)
	r.dev = r.devAt(theta)
	return r.dev
}

func (r *reml) devAt(theta []float64) float64 {
	p := r.p
	lambdaFromTheta(r.lam, theta, p)
	for k := range r.gsum {
		r.gsum[k] = 0
	}
	for k := range r.gvec {
		r.gvec[k] = 0
	}
	q, logdet := 0.0, 0.0
	for i, cp := range r.cps {
		mul(r.t, cp.A, r.lam, p)   // AΛ
		mulTA(r.mm, r.lam, r.t, p) // Λ'AΛ
		for j := 0; j < p; j++ {   // M = I + Λ'AΛ
			r.mm[j*p+j]++
		}
		symmetrize(r.mm, p)
		if !chol(r.mm, p) {
			return math.NaN()
		}
		logdet += cholLogDet(r.mm, p)
		h := r.h[i]
		copy(h, r.lam)
		cholSolveRows(r.mm, p, h, p) // H = ΛM⁻¹
		mulBT(r.tmp, h, r.lam, p)    // P = ΛM⁻¹Λ'
		mul(r.ap[i], cp.A, r.tmp, p) // AP
		mulVec(r.v, r.tmp, cp.b, p)  // Pb
		q += cp.c - dot(cp.b, r.v)
		mul(r.tmp2, r.ap[i], cp.A, p) // APA
		gi := r.gi[i]
		for k, a := range cp.A {
			gi[k] = a - r.tmp2[k]
			r.gsum[k] += gi[k]
		}
		symmetrize(gi, p)
		mulVec(r.v, r.ap[i], cp.b, p)
		for j, b := range cp.b {
			r.gv[i][j] = b - r.v[j]
			r.gvec[j] += r.gv[i][j]
		}
	}
	copy(r.gl, r.gsum)
	symmetrize(r.gl, p)
	if !chol(r.gl, p) {
		return math.NaN()
	}
	copy(r.beta, r.gvec)
	cholSolveVec(r.gl, p, r.beta)
	r.r2 = q - dot(r.gvec, r.beta)
	if !(r.r2 > 0) {
		return math.NaN()
	}
	df := float64(r.N - p)
	return logdet + cholLogDet(r.gl, p) + df*(1+math.Log(2*math.Pi*r.r2/df))
}

// gradient writes ∇dev into grad at the θ of the last call to value, which
// must have returned a number.
func (r *reml) gradient(grad []float64) {
	p := r.p
	df := float64(r.N - p)
	cholInverse(r.gl, p, r.ginv)
	kk := df / r.r2
	for j := range r.grad {
		r.grad[j] = 0
	}
	for i, cp := range r.cps {
		mulVec(r.u, cp.A, r.beta, p)
		for j, b := range cp.b {
			r.u[j] = b - r.u[j]
		}
		mul(r.e, cp.A, r.ginv, p) // AG⁻¹
		mul(r.s, r.e, cp.A, p)    // S = AG⁻¹A + k·uu'
		for a := 0; a < p; a++ {
			for b := 0; b < p; b++ {
				r.s[a*p+b] += kk * r.u[a] * r.u[b]
			}
		}
		mul(r.tmp, r.ap[i], r.s, p) // APS
		for j, a := range cp.A {    // A − (I − AP)S
			r.tmp[j] = a - r.s[j] + r.tmp[j]
		}
		mul(r.tmp2, r.tmp, r.h[i], p)
		for j, v := range r.tmp2 {
			r.grad[j] += 2 * v
		}
	}
	k := 0
	for c := 0; c < p; c++ {
		for row := c; row < p; row++ {
			grad[k] = r.grad[row*p+c]
			k++
		}
	}
}

// start is the starting θ: the Cholesky factor of the method-of-moments
// estimate of Psi/σ² from per-question OLS fits (sample covariance of the
// coefficients over the pooled residual variance, minus the mean sampling
// part), ridged until positive definite; the identity if that fails. On a
// balanced design it is the optimum itself.
func (r *reml) start() []float64 {
	p := r.p
	var coefs [][]float64
	ainvSum := make([]float64, p*p)
	rss, dfw := 0.0, 0
	for _, cp := range r.cps {
		if cp.n <= p {
			continue
		}
		c, ok := spdFactor(cp.A, p)
		if !ok {
			continue
		}
		bi := spdSolve(c, cp.b)
		coefs = append(coefs, bi)
		rss += cp.c - floats.Dot(cp.b, bi)
		dfw += cp.n - p
		floats.Add(ainvSum, spdInverse(c))
	}
	ident := identity(p)
	m := len(coefs)
	if m <= p || !(rss > 0) {
		return thetaFromLambda(ident, p)
	}
	s2 := rss / float64(dfw)
	mean := make([]float64, p)
	for _, b := range coefs {
		for j, v := range b {
			mean[j] += v / float64(m)
		}
	}
	rel := make([]float64, p*p)
	for _, b := range coefs {
		for j := 0; j < p; j++ {
			for k := 0; k < p; k++ {
				rel[j*p+k] += (b[j] - mean[j]) * (b[k] - mean[k]) / float64(m-1) / s2
			}
		}
	}
	scale := 0.0
	for j := 0; j < p; j++ {
		scale = math.Max(scale, rel[j*p+j])
	}
	for k := range rel {
		rel[k] -= ainvSum[k] / float64(m)
	}
	if !(scale > 0) {
		return thetaFromLambda(ident, p)
	}
	for ridge := 0.0; ridge <= scale; ridge = math.Max(2*ridge, 1e-4*scale) {
		l := append([]float64(nil), rel...)
		for j := 0; j < p; j++ {
			l[j*p+j] += ridge
		}
		if c, ok := spdFactor(l, p); ok {
			return thetaFromLambda(lowerFactor(c), p)
		}
	}
	return thetaFromLambda(ident, p)
}

func fitREML(cps []crossprod, p int) (*MixedFit, error) {
	return fitREMLFrom(cps, p, nil, maxIter)
}

// fitREMLFrom is fitREML from a given θ (nil: the moment estimate) with an
// iteration limit; tests use it to exercise the optimiser.
func fitREMLFrom(cps []crossprod, p int, theta0 []float64, iters int) (*MixedFit, error) {
	r := newREML(cps, p)
	if theta0 == nil {
		theta0 = r.start()
	}
	grad := make([]float64, len(theta0))
	dev0 := r.eval(theta0, grad)
	if math.IsNaN(dev0) {
		return nil, fmt.Errorf("stats: REML criterion undefined at the start: are the fixed effects estimable (X'X positive definite) and the residuals non-zero?")
	}
	res := r.minimise(theta0, dev0, grad, iters)
	// Refresh the work space at the optimum (the last evaluation may have
	// been a rejected line-search trial).
	dev := r.eval(res.x, grad)
	if math.IsNaN(dev) {
		return nil, fmt.Errorf("stats: REML criterion undefined at the optimiser's result after %d iterations", res.iter)
	}
	g, ok := spdFactor(r.gsum, p)
	if !ok { // cannot happen where the criterion is defined
		return nil, fmt.Errorf("stats: REML: G not positive definite at the optimiser's result")
	}
	m := len(cps)
	f := &MixedFit{
		p:          p,
		Method:     "reml",
		DF:         m - 1,
		Converged:  floats.Norm(grad, math.Inf(1)) < convGradTol,
		Iterations: res.iter,
		REMLCrit:   dev,
		Beta:       append([]float64(nil), r.beta...),
		Sigma2:     r.r2 / float64(r.N-p),
		Cov:        spdInverse(g), // Cov = σ²G⁻¹
	}
	floats.Scale(f.Sigma2, f.Cov)
	f.SE = seFromCov(f.Cov, p)
	lam := make([]float64, p*p)
	lambdaFromTheta(lam, res.x, p)
	f.Theta = thetaFromLambda(lam, p)
	f.Singular = singular(lam, p)
	lamM := mat.NewDense(p, p, lam)
	var psi mat.SymDense
	psi.SymOuterK(f.Sigma2, lamM) // Psi = σ²ΛΛ'
	f.Psi = mat.DenseCopyOf(&psi).RawMatrix().Data
	// BLUPs: b_i = P_i(b_i − A_iβ̂) with P_i = H_iΛ'.
	f.ClusterBeta = make([][]float64, m)
	f.info = make([][]float64, m)
	f.score = make([][]float64, m)
	beta := mat.NewVecDense(p, f.Beta)
	var u, w mat.VecDense
	for i, cp := range cps {
		u.MulVec(mat.NewDense(p, p, cp.A), beta)
		u.SubVec(mat.NewVecDense(p, cp.b), &u)   // b_i − A_iβ̂
		w.MulVec(lamM.T(), &u)                   // Λ'(b_i − A_iβ̂)
		u.MulVec(mat.NewDense(p, p, r.h[i]), &w) // H_iΛ'(b_i − A_iβ̂)
		u.AddVec(beta, &u)
		f.ClusterBeta[i] = append([]float64(nil), u.RawVector().Data...)
		f.info[i] = append([]float64(nil), r.gi[i]...)
		f.score[i] = append([]float64(nil), r.gv[i]...)
	}
	return f, nil
}
