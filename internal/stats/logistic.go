package stats

import (
	"fmt"
	"math"
)

// LogitFit is a binomial logistic regression fit.
type LogitFit struct {
	// Beta are the coefficients and SE their standard errors from the
	// inverse Fisher information at Beta (R's summary.glm); Cov is that
	// inverse, p×p row-major (R's vcov), nil when it is singular.
	Beta, SE []float64
	Cov      []float64
	// Converged reports that the coefficients settled: the maximum
	// likelihood estimate exists and this is it.
	Converged bool
	// Separated reports (quasi-)separation: the deviance stopped falling
	// while some coefficients kept moving by Newton steps of order one, so
	// the likelihood has no maximum and those estimates (listed in
	// Diverging) are arbitrary large numbers with meaningless SEs. The other
	// coefficients are still the limit of the fit, which is why they are
	// reported; Converged is then false.
	Separated bool
	Diverging []int
	// Iterations counts Newton (IRLS) steps.
	Iterations int
	// Deviance is the residual deviance, as R's glm reports it.
	Deviance float64
}

// Tolerances of Logistic. A step of the size of divergeStep after the
// deviance has converged is separation; a regular fit's next step is of the
// order of the square of the last one, far below it.
const (
	devTol      = 1e-13
	divergeStep = 1e-3
	maxIRLS     = 100
)

// Logistic fits logit P(yes) = Xβ to counts yes[i] out of trials[i] by
// Newton's method (IRLS), started like R's glm from the smoothed observed
// proportions, with step halving should the deviance rise. X is n×p
// row-major; the zeros of dummy columns are skipped, so a design with a
// fixed effect per question (StackQuestions) costs about what its non-zero
// entries do. Rows with zero trials are ignored.
func Logistic(X []float64, p int, yes, trials []float64) (*LogitFit, error) {
	n := len(yes)
	if len(trials) != n || len(X) != n*p || p < 1 {
		return nil, fmt.Errorf("stats: logistic: X has %d values, yes %d, trials %d, for %d columns", len(X), n, len(trials), p)
	}
	for i := range yes {
		if !(trials[i] >= 0 && yes[i] >= 0 && yes[i] <= trials[i]) || math.IsInf(trials[i], 0) {
			return nil, fmt.Errorf("stats: logistic: row %d: %v yes out of %v trials", i, yes[i], trials[i])
		}
	}
	eta := make([]float64, n)
	for i := range eta {
		if trials[i] > 0 {
			mu := (yes[i] + 0.5) / (trials[i] + 1)
			eta[i] = math.Log(mu / (1 - mu))
		}
	}
	beta := make([]float64, p)
	prev := make([]float64, p)
	info := make([]float64, p*p)
	fit := &LogitFit{}
	dev := binomialDeviance(eta, yes, trials)
	devConverged := false
	for fit.Iterations < maxIRLS {
		// Weighted least squares: (X'WX)β = X'(Wη + y − nμ).
		rhs := make([]float64, p)
		for k := range info {
			info[k] = 0
		}
		for i := 0; i < n; i++ {
			if trials[i] == 0 {
				continue
			}
			mu, w := logistic(eta[i])
			w *= trials[i]
			z := w*eta[i] + yes[i] - trials[i]*mu
			accumulateRow(info, rhs, X[i*p:(i+1)*p], w, z, p)
		}
		for j := 0; j < p; j++ {
			for k := 0; k < j; k++ {
				info[k*p+j] = info[j*p+k]
			}
		}
		c, ok := spdFactor(info, p)
		if !ok {
			return nil, fmt.Errorf("stats: logistic: X'WX is singular at iteration %d (collinear columns, or weights underflowed)", fit.Iterations)
		}
		copy(prev, beta)
		copy(beta, spdSolve(c, rhs))
		fit.Iterations++
		newDev := linearPredictor(eta, X, beta, p, yes, trials)
		// Step halving (after the first step, which starts from the data,
		// not from a β).
		for halve := 0; fit.Iterations > 1 && !(newDev <= dev*(1+1e-15)) && halve < 50; halve++ {
			for j := range beta {
				beta[j] = (beta[j] + prev[j]) / 2
			}
			newDev = linearPredictor(eta, X, beta, p, yes, trials)
		}
		step := 0.0
		for j := range beta {
			step = math.Max(step, math.Abs(beta[j]-prev[j]))
		}
		settled := math.Abs(newDev-dev) <= devTol*(math.Abs(newDev)+0.1)
		dev = newDev
		if devConverged {
			// One Newton step after the deviance converged: tells a maximum
			// from a likelihood that keeps rising towards infinity.
			if step > divergeStep {
				fit.Separated = true
				for j := range beta {
					if math.Abs(beta[j]-prev[j]) > divergeStep {
						fit.Diverging = append(fit.Diverging, j)
					}
				}
			} else {
				fit.Converged = true
			}
			break
		}
		devConverged = settled && fit.Iterations > 1
	}
	fit.Beta = beta
	fit.Deviance = dev
	// SEs from the information at the final β.
	for k := range info {
		info[k] = 0
	}
	zero := make([]float64, p)
	for i := 0; i < n; i++ {
		if trials[i] > 0 {
			_, w := logistic(eta[i])
			accumulateRow(info, zero, X[i*p:(i+1)*p], w*trials[i], 0, p)
		}
	}
	for j := 0; j < p; j++ {
		for k := 0; k < j; k++ {
			info[k*p+j] = info[j*p+k]
		}
	}
	fit.SE = make([]float64, p)
	if c, ok := spdFactor(info, p); ok {
		fit.Cov = spdInverse(c)
		fit.SE = seFromCov(fit.Cov, p)
	} else {
		for j := range fit.SE {
			fit.SE[j] = math.Inf(1)
		}
	}
	return fit, nil
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

// linearPredictor sets eta = Xβ and returns the deviance there.
func linearPredictor(eta, X, beta []float64, p int, yes, trials []float64) float64 {
	for i := range eta {
		s := 0.0
		for j, x := range X[i*p : (i+1)*p] {
			if x != 0 {
				s += x * beta[j]
			}
		}
		eta[i] = s
	}
	return binomialDeviance(eta, yes, trials)
}

// logistic returns μ = 1/(1+e^−η) and μ(1−μ), the latter computed so that it
// does not round to zero for large |η|.
func logistic(eta float64) (mu, v float64) {
	e := math.Exp(-math.Abs(eta))
	v = e / ((1 + e) * (1 + e))
	if eta >= 0 {
		return 1 / (1 + e), v
	}
	return e / (1 + e), v
}

// softplus is log(1 + e^x) without overflow.
func softplus(x float64) float64 {
	return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}

// binomialDeviance is 2Σ[y log(y/nμ) + (n−y) log((n−y)/(n(1−μ)))], with
// 0·log 0 = 0 and log μ = −softplus(−η) so that it stays exact for large |η|.
func binomialDeviance(eta, yes, trials []float64) float64 {
	d := 0.0
	for i, n := range trials {
		if n == 0 {
			continue
		}
		y := yes[i]
		if y > 0 {
			d += y * (math.Log(y/n) + softplus(-eta[i]))
		}
		if y < n {
			d += (n - y) * (math.Log((n-y)/n) + softplus(eta[i]))
		}
	}
	return 2 * d
}

// StackQuestions stacks the clusters' rows (in cluster order) into one n×q
// design for a logistic regression with a fixed effect per question: the p
// columns of X followed by q−p = m−1 indicators, column p+k−1 marking the
// rows of cluster k (k ≥ 1; cluster 0 is the reference, absorbed in the
// intercept). Lay out yes and trials in the same row order. This is R's
// glm(cbind(yes, no) ~ age_z + gender + race + factor(q)) design when the
// clusters come from Clusters (sorted ids, so the reference is the smallest).
func StackQuestions(cl []Cluster, p int) (X []float64, q int) {
	m := len(cl)
	q = p + max(m-1, 0)
	for k, c := range cl {
		n := len(c.Y)
		for r := 0; r < n; r++ {
			row := make([]float64, q)
			copy(row, c.X[r*p:(r+1)*p])
			if k > 0 {
				row[p+k-1] = 1
			}
			X = append(X, row...)
		}
	}
	return X, q
}
