package score

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// CellStat is one run's numbers for one prompt, as the scenario pages show
// them.
type CellStat struct {
	Present bool
	// P is the normalised P(yes), P(yes)/(P(yes)+P(no)), or for a decision
	// run the share of yes answers (NaN when every answer was unparsed).
	P float64
	// Delta is the difference from the baseline person's cell of the same
	// question: logit points, or percentage points of the share of yes
	// answers for a decision run. HasBase says it exists.
	Delta   float64
	HasBase bool
	Cell    run.Cell
}

// QuestionCells is one question's cells in design order (design.Cells).
type QuestionCells [design.NumCells]CellStat

// Count is the number of cells present.
func (q *QuestionCells) Count() int {
	n := 0
	for i := range q {
		if q[i].Present {
			n++
		}
	}
	return n
}

// Cells returns, per question, the run's cells with their differences from
// the baseline person.
func Cells(r *run.Run) map[int]*QuestionCells {
	out := map[int]*QuestionCells{}
	decision := r.Manifest.Scoring == run.Decision
	for _, c := range r.Cells {
		qs := out[c.Q]
		if qs == nil {
			qs = new(QuestionCells)
			out[c.Q] = qs
		}
		s := CellStat{Present: true, Cell: c}
		if decision {
			s.P = math.NaN()
			if c.Yes+c.No > 0 {
				s.P = float64(c.Yes) / float64(c.Yes+c.No)
			}
		} else {
			s.P = 1 / (1 + math.Exp(-c.Logit))
		}
		qs[c.Cell.Index()] = s
	}
	bi := design.Baseline.Index()
	for _, qs := range out {
		base := qs[bi]
		for i := range qs {
			if !qs[i].Present || !base.Present {
				continue
			}
			if decision {
				qs[i].Delta = 100 * (qs[i].P - base.P)
			} else {
				qs[i].Delta = qs[i].Cell.Logit - base.Cell.Logit
			}
			qs[i].HasBase = !math.IsNaN(qs[i].Delta)
		}
	}
	return out
}

// Push is how much a question pushes the run's score up: its own
// coefficients, each signed in the direction of the run's, averaged. A
// question that pushes hard "drives" the score.
func (res *Result) Push(q *Question) float64 {
	var p float64
	for _, c := range design.Coefs {
		p += math.Copysign(1, res.Coefficients[c].Estimate) * q.Coefs[c] / float64(design.NumCoefs)
	}
	return p
}

// Drivers returns the ids of the at most n questions that push the run's
// score up the most, among those that push it up at all.
func (res *Result) Drivers(n int) map[int]bool {
	type push struct {
		q int
		v float64
	}
	var ps []push
	for i := range res.Questions {
		ps = append(ps, push{res.Questions[i].ID, res.Push(&res.Questions[i])})
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].v != ps[j].v {
			return ps[i].v > ps[j].v
		}
		return ps[i].q < ps[j].q
	})
	top := map[int]bool{}
	for i := 0; i < len(ps) && i < n; i++ {
		if ps[i].v > 0 {
			top[ps[i].q] = true
		}
	}
	return top
}

// Delta is a prompt's difference from the baseline person, all that the
// pages comparing runs need of it.
type Delta struct {
	Value            float64
	Present, HasBase bool
}

// QuestionDeltas is one question's differences in design order.
type QuestionDeltas [design.NumCells]Delta

// Deltas reduces a question's cells to their differences.
func (q *QuestionCells) Deltas() *QuestionDeltas {
	var d QuestionDeltas
	for i := range q {
		d[i] = Delta{Value: q[i].Delta, Present: q[i].Present, HasBase: q[i].HasBase}
	}
	return &d
}

// Count is the number of prompts present.
func (q *QuestionDeltas) Count() int {
	n := 0
	for i := range q {
		if q[i].Present {
			n++
		}
	}
	return n
}
