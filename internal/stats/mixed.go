package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"
)

// MixedFit is a fit of the linear mixed model
//
//	y_i = X_i β + X_i b_i + ε_i,  b_i ~ N(0, Psi),  ε_i ~ N(0, Sigma2·I)
//
// with one cluster i per decision question and a random effect on every
// column of X (the paper's model: random intercept and random slopes on all
// seven terms, unstructured covariance).
type MixedFit struct {
	// Beta are the fixed effects, SE their standard errors and Cov their p×p
	// covariance (row-major), as lme4's fixef, sqrt(diag(vcov)) and vcov.
	Beta, SE []float64
	Cov      []float64
	// DF is the degrees of freedom of the t intervals of CI95: the number of
	// questions minus one. Every coefficient has a random slope, so its
	// information comes from the spread of the questions' own effects; on
	// complete data Beta is the mean of m independent per-question estimates
	// and Beta ± t(m−1)·SE is the exact interval for that mean. With rows
	// missing the questions weigh slightly differently but the information
	// still comes from m of them, so we keep m−1 (a containment-style
	// choice, not Satterthwaite's); the coverage simulation, with up to 40%
	// of rows missing, checks the intervals.
	DF int
	// Method is "closed-form" or "reml".
	Method string
	// Converged reports that REML's optimiser stopped at a stationary point
	// (always true for the closed form). A false value must be shown, not
	// hidden: the estimates are then the optimiser's last point.
	Converged bool
	// Singular is lme4's isSingular: some diagonal element of the relative
	// covariance factor Λ is below 1e-4 in absolute value, i.e. Psi is
	// (nearly) rank-deficient and the fit is on the boundary.
	Singular bool
	// Iterations counts the optimiser's iterations (0 for the closed form).
	Iterations int
	// Sigma2 is the residual variance, Psi the p×p random-effects covariance.
	Sigma2 float64
	Psi    []float64
	// Theta is lme4's θ: the lower triangle of Λ (Psi = Sigma2·ΛΛ'), column
	// by column, with a non-negative diagonal.
	Theta []float64
	// REMLCrit is the REML criterion (−2 × restricted log-likelihood at the
	// optimum), lme4's REMLcrit, for comparing fits of the same data.
	REMLCrit float64
	// ClusterBeta are the per-question coefficients: the question's own OLS
	// fit (closed form) or Beta plus the question's BLUP (REML).
	ClusterBeta [][]float64

	p int
	// G_i = X_i'V_i⁻¹X_i and g_i = X_i'V_i⁻¹y_i (V_i/Sigma2 at the fitted
	// variance components): Beta = (ΣG_i)⁻¹Σg_i, which Reweighted reweights.
	// Nil for the closed form, whose Beta is the plain mean of ClusterBeta.
	info, score [][]float64
}

// ErrTooFewClusters is returned when there are fewer than two clusters.
var ErrTooFewClusters = errors.New("stats: a mixed model needs at least two clusters")

// FitMixed fits the mixed model. When every cluster has the same X'X (a
// complete, balanced run: every question asked for every demographic cell)
// the REML estimates have a closed form, computed directly: Beta is the mean
// of the per-question OLS coefficients and Cov their sample covariance over
// m. The closed form is the REML optimum only while it lies inside the
// parameter space (the between-question covariance exceeds the within
// sampling variance); otherwise, and whenever designs differ, FitMixed runs
// FitREML.
func FitMixed(cl []Cluster, p int) (*MixedFit, error) {
	cps, err := mixedCrossprods(cl, p)
	if err != nil {
		return nil, err
	}
	if f, ok := closedForm(cps, p); ok {
		return f, nil
	}
	return fitREML(cps, p)
}

// FitREML fits the mixed model by restricted maximum likelihood whatever
// the design (FitMixed uses it when the closed form does not apply).
func FitREML(cl []Cluster, p int) (*MixedFit, error) {
	cps, err := mixedCrossprods(cl, p)
	if err != nil {
		return nil, err
	}
	return fitREML(cps, p)
}

func mixedCrossprods(cl []Cluster, p int) ([]crossprod, error) {
	if len(cl) < 2 {
		return nil, ErrTooFewClusters
	}
	return crossprods(cl, p)
}

// sameDesign reports whether every cluster's X'X equals the first's, up to
// the rounding of summing the same rows in another order.
func sameDesign(cps []crossprod) bool {
	scale := 0.0
	for _, v := range cps[0].A {
		scale = math.Max(scale, math.Abs(v))
	}
	for _, cp := range cps[1:] {
		for k, v := range cp.A {
			if math.Abs(v-cps[0].A[k]) > 1e-12*scale {
				return false
			}
		}
	}
	return true
}

// closedForm is the balanced-design REML solution: per-question OLS
// coefficients β̂_i ~ N(β, σ²A⁻¹ + Psi) independently, so REML gives
// Beta = mean β̂_i, σ² = the pooled within-question residual variance,
// σ²A⁻¹ + Psi = the sample covariance S of the β̂_i, and Cov = S/m. It
// reports false when designs differ, a design is rank-deficient, or
// S − σ²A⁻¹ is not positive definite (REML's optimum is then on the boundary).
func closedForm(cps []crossprod, p int) (*MixedFit, bool) {
	m := len(cps)
	if !sameDesign(cps) || cps[0].n <= p || m <= p {
		return nil, false
	}
	f := &MixedFit{p: p, Method: "closed-form", DF: m - 1, Converged: true, ClusterBeta: make([][]float64, m)}
	rss, dfw := 0.0, 0
	var a0 *cholesky // the common X'X
	for i, cp := range cps {
		c, ok := spdFactor(cp.A, p)
		if !ok {
			return nil, false
		}
		if i == 0 {
			a0 = c
		}
		bi := spdSolve(c, cp.b)
		f.ClusterBeta[i] = bi
		rss += cp.c - floats.Dot(cp.b, bi)
		dfw += cp.n - p
	}
	// Sample covariance S (divisor m−1); Cov = S/m below.
	f.Beta, f.Cov = MeanCov(f.ClusterBeta, p)
	f.Sigma2 = rss / float64(dfw)
	ainv := spdInverse(a0)
	f.Psi = make([]float64, p*p)
	rel := make([]float64, p*p) // ΛΛ' = Psi/σ²
	for k := range f.Psi {
		f.Psi[k] = f.Cov[k] - f.Sigma2*ainv[k]
		rel[k] = f.Psi[k] / f.Sigma2
		f.Cov[k] /= float64(m)
	}
	c, ok := spdFactor(rel, p)
	if !ok {
		return nil, false
	}
	lam := lowerFactor(c)
	f.Theta = thetaFromLambda(lam, p)
	f.Singular = singular(lam, p)
	f.SE = seFromCov(f.Cov, p)
	prob := newREML(cps, p)
	f.REMLCrit = prob.eval(f.Theta, nil)
	return f, true
}

func seFromCov(cov []float64, p int) []float64 {
	se := make([]float64, p)
	for j := range se {
		se[j] = math.Sqrt(cov[j*p+j])
	}
	return se
}

// singular is lme4's isSingular test on the factor Λ.
func singular(lambda []float64, p int) bool {
	for j := 0; j < p; j++ {
		if math.Abs(lambda[j*p+j]) < 1e-4 {
			return true
		}
	}
	return false
}

// CI95 is the 95% confidence interval of coefficient j (column j of X):
// Beta[j] ± t(0.975; DF)·SE[j].
func (f *MixedFit) CI95(j int) [2]float64 {
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(f.DF)}.Quantile(0.975)
	return [2]float64{f.Beta[j] - t*f.SE[j], f.Beta[j] + t*f.SE[j]}
}

// Reweighted returns the fixed effects refitted with cluster i counted w[i]
// times and the variance components held at their fitted values: one
// replicate of a cluster bootstrap over questions, O(m·p²) instead of a
// refit. For the closed form it is the w-weighted mean of ClusterBeta, i.e.
// exactly the mean of the resampled per-question OLS coefficients; for REML,
// (Σ w_i G_i)⁻¹ Σ w_i g_i. All-ones weights give Beta. It panics if len(w) is
// not the number of clusters; weights summing to zero give NaNs.
func (f *MixedFit) Reweighted(w []float64) []float64 {
	return f.ReweightedTo(make([]float64, f.p), w)
}

// ReweightedTo is Reweighted into out (length p, overwritten), which it
// returns: a bootstrap of 2,000 replicates allocates nothing.
func (f *MixedFit) ReweightedTo(out, w []float64) []float64 {
	if len(w) != len(f.ClusterBeta) {
		panic(fmt.Sprintf("stats: Reweighted: %d weights for %d clusters", len(w), len(f.ClusterBeta)))
	}
	p := f.p
	out = out[:p]
	clear(out)
	if f.info == nil {
		tot := 0.0
		for i, bi := range f.ClusterBeta {
			tot += w[i]
			for j, v := range bi {
				out[j] += w[i] * v
			}
		}
		for j := range out {
			out[j] /= tot
		}
		return out
	}
	var ga [64]float64 // p ≤ 8: no allocation
	g := ga[:]
	if p*p > len(ga) {
		g = make([]float64, p*p)
	}
	g = g[:p*p]
	for i, gi := range f.info {
		for k, v := range gi {
			g[k] += w[i] * v
		}
		for j, v := range f.score[i] {
			out[j] += w[i] * v
		}
	}
	// dense.go's kernels, not gonum/mat: this runs once per bootstrap
	// replicate (see dense.go).
	if !chol(g, p) {
		for j := range out {
			out[j] = math.NaN()
		}
		return out
	}
	cholSolveVec(g, p, out)
	return out
}

// RobustCov is the cluster-robust ("sandwich") covariance of Beta (Liang
// and Zeger 1986) with the small-sample factor m/(m−1) (CR1):
// (ΣG_i)⁻¹ (Σ u_i u_i') (ΣG_i)⁻¹ · m/(m−1), u_i = g_i − G_i β. It stays
// right when the model's variance components are off. For the closed form
// it is Cov itself (the sample covariance of the per-question fits).
func (f *MixedFit) RobustCov() []float64 {
	p, m := f.p, len(f.ClusterBeta)
	if f.info == nil {
		return append([]float64(nil), f.Cov...)
	}
	g := make([]float64, p*p)
	meat := make([]float64, p*p)
	u := make([]float64, p)
	for i, gi := range f.info {
		for k, v := range gi {
			g[k] += v
		}
		for a := 0; a < p; a++ {
			s := f.score[i][a]
			for b := 0; b < p; b++ {
				s -= gi[a*p+b] * f.Beta[b]
			}
			u[a] = s
		}
		for a := 0; a < p; a++ {
			for b := 0; b < p; b++ {
				meat[a*p+b] += u[a] * u[b]
			}
		}
	}
	c, ok := spdFactor(g, p)
	if !ok {
		return nil
	}
	ginv := spdInverse(c)
	tmp := make([]float64, p*p)
	out := make([]float64, p*p)
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			s := 0.0
			for k := 0; k < p; k++ {
				s += ginv[a*p+k] * meat[k*p+b]
			}
			tmp[a*p+b] = s
		}
	}
	scale := float64(m) / float64(m-1)
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			s := 0.0
			for k := 0; k < p; k++ {
				s += tmp[a*p+k] * ginv[k*p+b]
			}
			out[a*p+b] = scale * s
		}
	}
	return out
}

// JackknifeCov is the delete-one-cluster jackknife covariance of Beta,
// (m−1)/m · Σ (β₍₋ᵢ₎ − β̄)(β₍₋ᵢ₎ − β̄)', each β₍₋ᵢ₎ refitted without
// cluster i by Reweighted (variance components held at their fitted
// values). It is the cluster-robust covariance with the leverage
// correction of CR3 (Bell and McCaffrey 2002): larger than CR1 where a few
// clusters carry much of the information.
func (f *MixedFit) JackknifeCov() []float64 {
	p, m := f.p, len(f.ClusterBeta)
	w := make([]float64, m)
	reps := make([][]float64, m)
	mean := make([]float64, p)
	for i := range reps {
		for k := range w {
			w[k] = 1
		}
		w[i] = 0
		reps[i] = f.Reweighted(w)
		for j, v := range reps[i] {
			mean[j] += v / float64(m)
		}
	}
	out := make([]float64, p*p)
	scale := float64(m-1) / float64(m)
	for _, r := range reps {
		for a := 0; a < p; a++ {
			for b := 0; b < p; b++ {
				out[a*p+b] += scale * (r[a] - mean[a]) * (r[b] - mean[b])
			}
		}
	}
	return out
}
