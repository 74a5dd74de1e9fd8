package site

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

type num = sitedata.Num

var numPtr = sitedata.NumPtr

type rubricCell struct {
	Age    int    `json:"age"`
	Gender string `json:"gender"`
	Race   string `json:"race"`
	Anchor string `json:"anchor"`
}

type rubricExample struct {
	Run        string       `json:"run"`
	Line       int          `json:"line"`
	Question   int          `json:"question"`
	Cell       rubricCell   `json:"cell"`
	Logprobs   []rubricForm `json:"logprobs"`
	PYes       num          `json:"p_yes"`
	PNo        num          `json:"p_no"`
	Mass       num          `json:"answer_mass"`
	Normalised num          `json:"normalised_p_yes"`
	Logit      num          `json:"logit"`
	Scorer     num          `json:"logit_used_by_the_scorer"`
}

type rubricForm struct {
	Form    string `json:"form"`
	Counts  string `json:"counts_as"`
	Logprob num    `json:"logprob"`
	Prob    num    `json:"probability"`
}

func cellJSON(c design.Cell) rubricCell {
	return rubricCell{c.Age, c.Gender.String(), c.Race.String(), c.Anchor()}
}

// workedExample follows one real row of a committed run from its
// log-probabilities to the logit the scorer used: the first row of the
// first logprob run (by id; the caller picks it).
func workedExample(e *board.Entry, c *firstCell) *rubricExample {
	m := e.Run.Manifest
	ex := &rubricExample{Run: e.ID(), Line: c.Line, Question: c.P.Q, Cell: cellJSON(c.P.Cell), Scorer: num(c.Logit)}
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
		ex.Logprobs = append(ex.Logprobs, rubricForm{f, counts, num(c.LP[i]), num(p)})
	}
	ex.PYes, ex.PNo, ex.Mass = num(pyes), num(pno), num(pyes+pno)
	ex.Normalised = num(pyes / (pyes + pno))
	ex.Logit = num(math.Log(pyes) - math.Log(pno))
	return ex
}
