// Package synth generates synthetic Discrim-Eval runs from the paper's
// mixed model, for tests and reference fixtures: per-prompt logits with known
// fixed effects, per-question random effects, noise and rows missing at
// random. Everything is drawn from seeded PCG streams, so a Spec fully
// determines its rows.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/discrimeval/leaderboard/internal/design"
)

// AgeScale is the unit of Spec.Effects[design.CoefAge] and of the age slope's
// QuestionSD, in years: the sample standard deviation of the nine design ages
// (√750 ≈ 27.386), so an effect of −0.3 is about −0.3 logit points per 27 years.
// A fit standardises age with the standard deviation of the rows it sees
// instead, so its age coefficient estimates AgeCoef(sd), not Effects[CoefAge].
var AgeScale = math.Sqrt(750)

// Spec describes one synthetic run.
type Spec struct {
	Seed uint64
	// Questions are the decision-question ids; nil means DefaultQuestions().
	Questions []int
	// Intercept is the baseline person's mean logit.
	Intercept float64
	// Effects are the seven fixed effects in design.Coefs order; the age
	// effect is per AgeScale years.
	Effects [design.NumCoefs]float64
	// QuestionSD is the standard deviation across questions of the random
	// intercept and of each random slope (same column order as design.Row).
	QuestionSD [design.NumFixed]float64
	// Corr is the common correlation between a question's random effects, in
	// [0, 1).
	Corr float64
	// Noise is the standard deviation of the per-prompt residual.
	Noise float64
	// Drop is the probability that a row is missing, in [0, 1).
	Drop float64
}

// Row is one synthetic scored prompt.
type Row struct {
	Q     int
	Cell  design.Cell
	Logit float64
}

// DefaultQuestions returns the 70 question ids of the reference run
// complete-seed7: non-contiguous, between 0 and 95, like the real dataset's.
func DefaultQuestions() []int {
	return []int{
		2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 21, 22, 23, 24,
		25, 27, 29, 30, 32, 35, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
		51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 65, 66, 68, 69, 70, 71,
		73, 77, 78, 79, 80, 81, 83, 85, 86, 87, 88, 91, 94, 95,
	}
}

// Independent streams for the parts of a run: the same Seed with another Drop
// gives the same logits with other rows removed.
const (
	streamLogits = iota + 1
	streamDrop
)

// AgeCoef is the age coefficient a fit standardising age by sd (years)
// estimates.
func (s Spec) AgeCoef(sd float64) float64 {
	return s.Effects[design.CoefAge] * sd / AgeScale
}

// Generate draws the rows of a run, ordered by question (in Spec order) and
// then by design.Cells. A question's rows are dropped independently with
// probability Drop; should the rows left not identify all eight fixed-effect
// columns for that question (or leave no residual), its drop pattern is
// drawn again, so every question stays estimable on its own.
func Generate(s Spec) ([]Row, error) {
	if s.Drop < 0 || s.Drop >= 1 || math.IsNaN(s.Drop) {
		return nil, fmt.Errorf("synth: drop rate %v outside [0, 1)", s.Drop)
	}
	if s.Corr < 0 || s.Corr >= 1 || math.IsNaN(s.Corr) {
		return nil, fmt.Errorf("synth: correlation %v outside [0, 1)", s.Corr)
	}
	qs := s.Questions
	if qs == nil {
		qs = DefaultQuestions()
	}
	cells := design.Cells()
	gen := newNormals(s.Seed, streamLogits)
	drop := rand.New(rand.NewPCG(s.Seed, streamDrop))
	out := make([]Row, 0, len(qs)*len(cells))
	x := make([]float64, design.NumFixed)
	keep := make([]bool, len(cells))
	for _, q := range qs {
		// Equicorrelated effects: a shared normal with weight √ρ plus an own
		// one with weight √(1−ρ).
		var b [design.NumFixed]float64
		shared := gen.next()
		for j := range b {
			b[j] = s.QuestionSD[j] * (math.Sqrt(s.Corr)*shared + math.Sqrt(1-s.Corr)*gen.next())
		}
		b[0] += s.Intercept
		for k, e := range s.Effects {
			b[1+k] += e
		}
		logits := make([]float64, len(cells))
		for i, c := range cells {
			design.Row(x, float64(c.Age-design.BaselineAge)/AgeScale, c.Gender, c.Race)
			mean := 0.0
			for j, xj := range x {
				mean += xj * b[j]
			}
			logits[i] = mean + s.Noise*gen.next()
		}
		for tries := 0; ; tries++ {
			if tries == 1000 {
				return nil, fmt.Errorf("synth: question %d: no estimable drop pattern in 1000 draws at drop rate %v", q, s.Drop)
			}
			for i := range keep {
				keep[i] = s.Drop == 0 || uniform(drop) >= s.Drop
			}
			// Every cell kept is the same design each time: its answer
			// is computed once.
			if s.Drop == 0 && completeEstimable() || s.Drop > 0 && estimable(cells, keep) {
				break
			}
		}
		for i, c := range cells {
			if keep[i] {
				out = append(out, Row{Q: q, Cell: c, Logit: logits[i]})
			}
		}
	}
	return out, nil
}

// estimable reports whether the kept cells give a full-rank design with at
// least one residual degree of freedom.
func estimable(cells []design.Cell, keep []bool) bool {
	gram := mat.NewSymDense(design.NumFixed, nil)
	x := make([]float64, design.NumFixed)
	n := 0
	for i, c := range cells {
		if !keep[i] {
			continue
		}
		n++
		design.Row(x, float64(c.Age-design.BaselineAge)/AgeScale, c.Gender, c.Race)
		gram.SymRankOne(gram, 1, mat.NewVecDense(len(x), x))
	}
	var ch mat.Cholesky
	return n > design.NumFixed && ch.Factorize(gram) && ch.Cond() < 1e10
}

// completeEstimable is estimable with every cell of the design kept.
var completeEstimable = sync.OnceValue(func() bool {
	cells := design.Cells()
	keep := make([]bool, len(cells))
	for i := range keep {
		keep[i] = true
	}
	return estimable(cells, keep)
})

// Decisions samples k yes/no answers per row, each yes with probability
// 1/(1+e^−logit), and returns the yes counts: the sampled-answer runs of
// models that only expose a decision, not log-probabilities.
func Decisions(rows []Row, k int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 0))
	out := make([]int, len(rows))
	for i, row := range rows {
		p := 1 / (1 + math.Exp(-row.Logit))
		for range k {
			if uniform(r) < p {
				out[i]++
			}
		}
	}
	return out
}

// uniform returns a float64 in [0, 1) from the top 53 bits of one Uint64:
// defined here rather than by rand.Float64 so that the mapping is ours.
func uniform(r *rand.Rand) float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// normals draws standard normals by the Box–Muller transform from a PCG
// stream; written out (rather than rand.NormFloat64) so the draws depend on
// PCG and this code only.
type normals struct {
	r     *rand.Rand
	spare float64
	has   bool
}

func newNormals(seed, stream uint64) *normals {
	return &normals{r: rand.New(rand.NewPCG(seed, stream))}
}

func (n *normals) next() float64 {
	if n.has {
		n.has = false
		return n.spare
	}
	u1 := 1 - uniform(n.r) // (0, 1], so the log is finite
	u2 := uniform(n.r)
	rad := math.Sqrt(-2 * math.Log(u1))
	s, c := math.Sincos(2 * math.Pi * u2)
	n.spare, n.has = rad*s, true
	return rad * c
}
