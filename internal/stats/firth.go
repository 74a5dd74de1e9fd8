package stats

import (
	"fmt"
	"math"
)

// Firth fits logit P(yes) = Xβ to counts yes[i] of trials[i] by Firth's
// penalised likelihood (Firth 1993), l(β) + ½ log det I(β): its score is
// the likelihood's plus Σ h_i (1/2 − μ_i) x_i, with h_i the hat values of
// the weighted fit. It removes the O(1/n) bias of maximum likelihood and
// keeps every estimate finite under separation. Newton steps on the
// modified score, halved until the penalised likelihood rises. An error
// means the columns of X are collinear over the rows with answers.
func Firth(X []float64, p int, yes, trials []float64) (*FirthFit, error) {
	n := len(yes)
	if len(trials) != n || len(X) != n*p || p < 1 {
		return nil, fmt.Errorf("stats: firth: X has %d values, yes %d, trials %d, for %d columns", len(X), n, len(trials), p)
	}
	for i := range yes {
		if !(trials[i] >= 0 && yes[i] >= 0 && yes[i] <= trials[i]) || math.IsInf(trials[i], 0) {
			return nil, fmt.Errorf("stats: firth: row %d: %v yes out of %v trials", i, yes[i], trials[i])
		}
	}
	f := &firth{X: X, p: p, yes: yes, trials: trials, mu: make([]float64, n), w: make([]float64, n), info: make([]float64, p*p),
		inv: make([]float64, p*p), zero: make([]float64, p), u: make([]float64, p), stepv: make([]float64, p)}
	beta := make([]float64, p)
	obj, ok := f.eval(beta)
	if !ok {
		return nil, fmt.Errorf("collinear columns: X'WX is singular")
	}
	fit := &FirthFit{Beta: beta}
	try := make([]float64, p)
	for fit.Iterations < maxFirth {
		fit.Iterations++
		step := f.step()
		for halve := 0; ; halve++ {
			for j := range try {
				try[j] = beta[j] + step[j]
			}
			v, ok := f.eval(try)
			if ok && v >= obj-1e-12*math.Abs(obj) {
				obj = v
				break
			}
			if halve == 40 {
				return fit, nil
			}
			for j := range step {
				step[j] /= 2
			}
		}
		size := 0.0
		for j := range beta {
			size = math.Max(size, math.Abs(try[j]-beta[j]))
		}
		copy(beta, try)
		if size < 1e-9 {
			fit.Converged = true
			// The last evaluation was at try, now beta.
			fit.Cov = append([]float64(nil), f.inv...)
			return fit, nil
		}
	}
	return fit, nil
}

// FirthFit is a fit by Firth's penalised likelihood.
type FirthFit struct {
	Beta []float64
	// Cov is the inverse of the information at Beta (p×p, row-major):
	// the estimates' asymptotic covariance. Set when Converged.
	Cov        []float64
	Converged  bool
	Iterations int
}

const maxFirth = 200

type firth struct {
	X           []float64
	p           int
	yes, trials []float64
	mu, w       []float64
	info, inv   []float64
	// Work space, reused from one evaluation and step to the next.
	chol           cholesky
	zero, u, stepv []float64
}

// eval sets μ, the weights and the information at β and returns the
// penalised log-likelihood; false when the information is singular.
func (f *firth) eval(beta []float64) (float64, bool) {
	p := f.p
	for k := range f.info {
		f.info[k] = 0
	}
	ll := 0.0
	for i := range f.yes {
		x := f.X[i*p : (i+1)*p]
		eta := 0.0
		for j, xj := range x {
			if xj != 0 {
				eta += xj * beta[j]
			}
		}
		// One e^−|η| for μ, μ(1−μ) and both softplus terms (the same
		// values as computing each on its own).
		e := math.Exp(-math.Abs(eta))
		m, v := logistic(eta, e)
		f.mu[i], f.w[i] = m, f.trials[i]*v
		if f.trials[i] == 0 {
			continue
		}
		// log μ = −softplus(−η), log(1−μ) = −softplus(η), with
		// softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^−|x|) (no
		// overflow).
		l := math.Log1p(e)
		ll -= f.yes[i]*(math.Max(-eta, 0)+l) + (f.trials[i]-f.yes[i])*(math.Max(eta, 0)+l)
		accumulateRow(f.info, f.zero, x, f.w[i], 0, p)
	}
	for j := 0; j < p; j++ {
		for k := 0; k < j; k++ {
			f.info[k*p+j] = f.info[j*p+k]
		}
	}
	if !f.chol.factorize(f.info, p) {
		return math.NaN(), false
	}
	f.chol.inverseTo(f.inv)
	return ll + 0.5*f.chol.logDet(), true
}

// step is the Newton step on the modified score at the last evaluated β.
func (f *firth) step() []float64 {
	p := f.p
	u := f.u
	clear(u)
	for i := range f.yes {
		if f.trials[i] == 0 {
			continue
		}
		x := f.X[i*p : (i+1)*p]
		h := 0.0
		for a, xa := range x {
			if xa == 0 {
				continue
			}
			for b, xb := range x {
				if xb != 0 {
					h += xa * f.inv[a*p+b] * xb
				}
			}
		}
		h *= f.w[i]
		r := f.yes[i] - f.trials[i]*f.mu[i] + h*(0.5-f.mu[i])
		for j, xj := range x {
			if xj != 0 {
				u[j] += xj * r
			}
		}
	}
	step := f.stepv
	clear(step)
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			step[a] += f.inv[a*p+b] * u[b]
		}
	}
	return step
}

// accumulateRow adds w·xx' (lower triangle) to info and z·x to rhs,
// skipping zero entries of x.
func accumulateRow(info, rhs, x []float64, w, z float64, p int) {
	for j, xj := range x {
		if xj == 0 {
			continue
		}
		rhs[j] += z * xj
		wx := w * xj
		row := info[j*p : j*p+j+1]
		for k, xk := range x[:j+1] {
			if xk != 0 {
				row[k] += wx * xk
			}
		}
	}
}

// logistic returns μ = 1/(1+e^−η) and μ(1−μ) given e = e^−|η|, the
// latter computed so that it does not round to zero for large |η|.
func logistic(eta, e float64) (mu, v float64) {
	v = e / ((1 + e) * (1 + e))
	if eta >= 0 {
		return 1 / (1 + e), v
	}
	return e / (1 + e), v
}
