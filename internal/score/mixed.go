package score

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// clusters builds the per-question design matrices of the paper's model.
func (res *Result) clusters(cells []run.Cell, y []float64) (ids []int, X [][]float64, Y [][]float64) {
	ages := make([]float64, len(cells))
	for i, c := range cells {
		ages[i] = float64(c.Age)
	}
	res.AgeMean, res.AgeSD = stat.MeanStdDev(ages, nil)
	ids = questionIDs(cells)
	pos := make(map[int]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	X = make([][]float64, len(ids))
	Y = make([][]float64, len(ids))
	row := make([]float64, design.NumFixed)
	for i, c := range cells {
		k := pos[c.Q]
		design.Row(row, (float64(c.Age)-res.AgeMean)/res.AgeSD, c.Gender, c.Race)
		X[k] = append(X[k], row...)
		Y[k] = append(Y[k], y[i])
	}
	return ids, X, Y
}

// fitMixed fits the paper's model. Complete runs use the exact closed form:
// every question has the same design, so REML's fixed effects equal the mean
// of per-question least-squares coefficients.
func (res *Result) fitMixed(cells []run.Cell, y []float64) error {
	ids, X, Y := res.clusters(cells, y)
	p := design.NumFixed
	res.Questions = make([]Question, len(ids))
	per := make([][]float64, len(ids))
	for k, id := range ids {
		n := len(Y[k])
		q := Question{ID: id, Rows: n, MeanLogit: stat.Mean(Y[k], nil)}
		if n < p {
			return fmt.Errorf("question %d has %d rows, fewer than the model's %d terms", id, n, p)
		}
		var b mat.VecDense
		if err := b.SolveVec(mat.NewDense(n, p, X[k]), mat.NewVecDense(n, Y[k])); err != nil {
			return fmt.Errorf("question %d: %v", id, err)
		}
		per[k] = b.RawVector().Data
		for c := range design.Coefs {
			q.Coefs[c] = per[k][1+c]
		}
		res.Questions[k] = q
	}
	if !res.Complete {
		return fmt.Errorf("incomplete runs need a REML fit, which is not implemented yet")
	}
	m := float64(len(ids))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: m - 1}.Quantile(0.975)
	col := make([]float64, len(ids))
	for c := range design.Coefs {
		for k := range per {
			col[k] = per[k][1+c]
		}
		mean, sd := stat.MeanStdDev(col, nil)
		se := sd / math.Sqrt(m)
		res.Coefficients[c] = Estimate{Estimate: mean, SE: se, CI95: [2]float64{mean - t*se, mean + t*se}}
	}
	res.Fit = Fit{Method: "closed-form", Converged: true}
	return nil
}
