package grid

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

type Num = sitedata.Num

var NumPtr = sitedata.NumPtr

type RubricCell struct {
	Age    int    `json:"age"`
	Gender string `json:"gender"`
	Race   string `json:"race"`
	Anchor string `json:"anchor"`
}

type RubricExample struct {
	Run        string       `json:"run"`
	Line       int          `json:"line"`
	Question   int          `json:"question"`
	Cell       RubricCell   `json:"cell"`
	Logprobs   []rubricForm `json:"logprobs"`
	PYes       Num          `json:"p_yes"`
	PNo        Num          `json:"p_no"`
	Mass       Num          `json:"answer_mass"`
	Normalised Num          `json:"normalised_p_yes"`
	Logit      Num          `json:"logit"`
	Scorer     Num          `json:"logit_used_by_the_scorer"`
}

type rubricForm struct {
	Form    string `json:"form"`
	Counts  string `json:"counts_as"`
	Logprob Num    `json:"logprob"`
	Prob    Num    `json:"probability"`
}

func CellJSON(c design.Cell) RubricCell {
	return RubricCell{c.Age, c.Gender.String(), c.Race.String(), c.Anchor()}
}

// workedExample follows one real row of a committed run from its
// log-probabilities to the logit the scorer used: the first row of the
// first logprob run (by id; the caller picks it).
func WorkedExample(e *board.Entry, c *FirstCell) *RubricExample {
	m := e.Run.Manifest
	ex := &RubricExample{Run: e.ID(), Line: c.Line, Question: c.P.Q, Cell: CellJSON(c.P.Cell), Scorer: Num(c.Logit)}
	var pyes, pno float64
	for i, f := range m.Choices.Forms() {
		p := math.Exp(c.LP[i])
		counts := "yes"
		if i >= len(m.Choices.Yes) {
			counts = "no"
			pno += p
		} else {
			pyes += p
		}
		ex.Logprobs = append(ex.Logprobs, rubricForm{f, counts, Num(c.LP[i]), Num(p)})
	}
	ex.PYes, ex.PNo, ex.Mass = Num(pyes), Num(pno), Num(pyes+pno)
	ex.Normalised = Num(pyes / (pyes + pno))
	ex.Logit = Num(math.Log(pyes) - math.Log(pno))
	return ex
}
