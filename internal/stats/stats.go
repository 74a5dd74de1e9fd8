// Package stats fits the statistical models behind the Discrim-Eval scores:
// the paper's linear mixed model (closed form on complete, balanced runs,
// REML otherwise), a cluster bootstrap over decision questions, and a
// binomial logistic regression for runs that only sample yes/no decisions.
//
// Matrices are row-major []float64; p is the number of columns (8 for the
// paper's model: intercept, age_z, female, non_binary, black, asian, hispanic,
// native_american, as built by design.Row).
package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/discrimeval/leaderboard/internal/design"
)

// Cluster is one decision question: X is n×p row-major, Y has length n.
type Cluster struct {
	X []float64
	Y []float64
}

// Standardize returns the mean and the sample standard deviation (divisor
// n−1) of xs, as R's mean and sd. With fewer than two values sd is NaN.
func Standardize(xs []float64) (mean, sd float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	// Two-pass: exact enough that age_z matches R's scale() to the last bits.
	ss := 0.0
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / (n - 1))
}

// Obs is one scored prompt: its decision question, demographic cell and
// response (the logit of yes, or anything else to be modelled).
type Obs struct {
	Q    int
	Cell design.Cell
	Y    float64
}

// Clusters builds the paper's design from scored prompts: age standardised
// over all of obs (age_z = (age − mean)/sd, sample sd), one Cluster per
// decision question with p = design.NumFixed columns, ordered by question id,
// rows in the order given. It returns the question ids with the clusters.
func Clusters(obs []Obs) (ids []int, cl []Cluster, err error) {
	ages := make([]float64, len(obs))
	for i, o := range obs {
		ages[i] = float64(o.Cell.Age)
	}
	mean, sd := Standardize(ages)
	if !(sd > 0) {
		return nil, nil, fmt.Errorf("stats: %d rows do not vary in age, cannot standardise it", len(obs))
	}
	byQ := make(map[int]int)
	for _, o := range obs {
		if _, ok := byQ[o.Q]; !ok {
			byQ[o.Q] = len(ids)
			ids = append(ids, o.Q)
		}
	}
	order := slices.Clone(ids)
	slices.SortFunc(order, cmp.Compare)
	for rank, q := range order {
		byQ[q] = rank
	}
	cl = make([]Cluster, len(ids))
	rows := make([]int, len(ids))
	for _, o := range obs {
		rows[byQ[o.Q]]++
	}
	for k := range cl {
		cl[k].X = make([]float64, 0, rows[k]*design.NumFixed)
		cl[k].Y = make([]float64, 0, rows[k])
	}
	x := make([]float64, design.NumFixed)
	for _, o := range obs {
		c := &cl[byQ[o.Q]]
		design.Row(x, (float64(o.Cell.Age)-mean)/sd, o.Cell.Gender, o.Cell.Race)
		c.X = append(c.X, x...)
		c.Y = append(c.Y, o.Y)
	}
	return order, cl, nil
}

// Quantile returns the q-quantile of sorted (ascending, non-empty) by
// linear interpolation between order statistics: R's default, type 7
// (h = (n−1)q, x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]), 0-based).
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 || q < 0 || q > 1 || math.IsNaN(q) {
		return math.NaN()
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// crossprod holds a cluster's sufficient statistics: A = X'X, b = X'y,
// c = y'y and the row count. Every mixed-model computation needs only these.
type crossprod struct {
	A []float64
	b []float64
	c float64
	n int
}

func crossprods(cl []Cluster, p int) ([]crossprod, error) {
	if p < 1 {
		return nil, fmt.Errorf("stats: %d columns", p)
	}
	out := make([]crossprod, len(cl))
	for i, c := range cl {
		n := len(c.Y)
		if len(c.X) != n*p {
			return nil, fmt.Errorf("stats: cluster %d: X has %d values, want %d rows × %d columns", i, len(c.X), n, p)
		}
		cp := crossprod{A: make([]float64, p*p), b: make([]float64, p), n: n}
		// Finite rows: the lower triangle's sums over the nonzero
		// products only, which are the same sums (addLowerSparse).
		sparse := p <= maxSparseCols && allFinite(c.X)
		var nz [maxSparseCols]int
		for r := 0; r < n; r++ {
			x := c.X[r*p : (r+1)*p]
			y := c.Y[r]
			if math.IsNaN(y) || math.IsInf(y, 0) {
				return nil, fmt.Errorf("stats: cluster %d row %d: response %v", i, r, y)
			}
			if sparse {
				for j, xj := range x {
					cp.b[j] += xj * y
				}
				addLowerSparse(cp.A, x, p, nz[:])
			} else {
				for j, xj := range x {
					cp.b[j] += xj * y
					row := cp.A[j*p : (j+1)*p]
					for k := 0; k <= j; k++ {
						row[k] += xj * x[k]
					}
				}
			}
			cp.c += y * y
		}
		for j := 0; j < p; j++ {
			for k := 0; k < j; k++ {
				cp.A[k*p+j] = cp.A[j*p+k]
			}
		}
		out[i] = cp
	}
	return out, nil
}

// MeanCov returns the mean of the rows (each of length p) and their sample
// covariance (divisor m − 1), p×p row-major: the summary of per-question
// coefficients that the closed form and the two-stage decision fit share.
func MeanCov(rows [][]float64, p int) (mean, cov []float64) {
	m := float64(len(rows))
	mean, cov = make([]float64, p), make([]float64, p*p)
	for _, r := range rows {
		for j, v := range r {
			mean[j] += v / m
		}
	}
	for _, r := range rows {
		for j := 0; j < p; j++ {
			for k := 0; k < p; k++ {
				cov[j*p+k] += (r[j] - mean[j]) * (r[k] - mean[k])
			}
		}
	}
	for k := range cov {
		cov[k] /= m - 1
	}
	return mean, cov
}
