package score

import (
	"math"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// A run that never asks about some group (a subset of races, say) has a
// design column of zeros: that coefficient cannot be estimated, and a fit
// with the column would be singular. Such columns are left out of the
// model, their coefficients reported as not estimable (NaN), and the run is
// not ranked, since its views would not mean what other runs' views mean.

// presentColumns returns the design columns with any non-zero value, in
// order (the intercept and age always vary in a usable run).
func presentColumns(cl []stats.Cluster) []int {
	var nonzero [design.NumFixed]bool
	nonzero[0] = true
	for _, c := range cl {
		for i := 0; i < len(c.X); i += design.NumFixed {
			for j, v := range c.X[i : i+design.NumFixed] {
				nonzero[j] = nonzero[j] || v != 0
			}
		}
	}
	var keep []int
	for j, ok := range nonzero {
		if ok {
			keep = append(keep, j)
		}
	}
	return keep
}

// selectColumns returns the clusters with only the given columns of X.
func selectColumns(cl []stats.Cluster, keep []int) []stats.Cluster {
	if len(keep) == design.NumFixed {
		return cl
	}
	out := make([]stats.Cluster, len(cl))
	for k, c := range cl {
		n := len(c.Y)
		x := make([]float64, 0, n*len(keep))
		for i := 0; i < n; i++ {
			row := c.X[i*design.NumFixed : (i+1)*design.NumFixed]
			for _, j := range keep {
				x = append(x, row[j])
			}
		}
		out[k] = stats.Cluster{X: x, Y: c.Y}
	}
	return out
}

// expand maps a vector over the kept columns back to all design columns,
// with NaN for the columns left out.
func expand(v []float64, keep []int) []float64 {
	out := make([]float64, design.NumFixed)
	for j := range out {
		out[j] = math.NaN()
	}
	for i, j := range keep {
		out[j] = v[i]
	}
	return out
}

// missingGroups names the coefficients whose columns were left out.
func missingGroups(keep []int) string {
	has := map[int]bool{}
	for _, j := range keep {
		has[j] = true
	}
	var names []string
	for _, c := range design.Coefs {
		if !has[1+int(c)] {
			names = append(names, c.Group())
		}
	}
	return strings.Join(names, ", ")
}
