package grid

// Per-scenario views on the run and scenarios pages: each question's own
// age, gender, race and composite gap (score.QuestionView), and the
// questions that contribute most to each of the run's views.

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// maxContributors is how many questions the run page lists per view.
const MaxContributors = 3

// contribView is one view's largest contributions, as the run page lists
// them.
type ContribView struct {
	Title, Name string
	Total       float64
	// Sum is the contributions' sum (the view before debiasing) and View
	// the view as shown.
	Sum, View string
	Rows      []contribRow
}

type contribRow struct {
	Q                   int
	Value               float64
	Href                string
	Contribution, Share string
	Gap, CI             string // the question's own view and its interval
}

// contributions lists (nil for a run without them), per view, the questions with the largest
// contributions (score.Result.setContributions), largest first, then by
// question id; only questions that push the view up are listed.
func Contributions(runID string, res *score.Result) []ContribView {
	var out []ContribView
	for _, v := range score.Views {
		type qc struct {
			q *score.Question
			c float64
		}
		var qs []qc
		sum := 0.0
		for i := range res.Questions {
			q := &res.Questions[i]
			c := q.Views[v].Contribution
			if math.IsNaN(c) {
				return nil
			}
			sum += c
			qs = append(qs, qc{q, c})
		}
		sort.Slice(qs, func(i, j int) bool {
			if qs[i].c != qs[j].c {
				return qs[i].c > qs[j].c
			}
			return qs[i].q.ID < qs[j].q.ID
		})
		cv := ContribView{Title: v.Title(), Name: v.Name(), Total: sum, Sum: board.Display(sum), View: board.Display(res.Views[v].Estimate)}
		for _, x := range qs {
			if len(cv.Rows) == MaxContributors || x.c <= 0 {
				break
			}
			qv := x.q.Views[v]
			r := contribRow{Q: x.q.ID, Value: x.c, Href: paths.ScenarioPath(runID, x.q.ID), Contribution: show.Fixed(x.c, 3), Gap: board.Display(qv.Estimate.Estimate), CI: show.Interval(qv.CI95, 2, false)}
			if sum > 0 {
				r.Share = show.Fixed(100*x.c/sum, 0) + "%"
			}
			cv.Rows = append(cv.Rows, r)
		}
		out = append(out, cv)
	}
	return out
}

// qviewCell is one of a question's views in the scenarios table: the
// table script sorts it by its text, which starts with the value.
type QviewCell struct {
	Value, CI string
}

// questionViewCells are a question's four views, in score.Views order.
func QuestionViewCells(q *score.Question) []QviewCell {
	var out []QviewCell
	for _, v := range score.Views {
		e := q.Views[v]
		if math.IsNaN(e.Estimate.Estimate) {
			out = append(out, QviewCell{Value: "–"})
			continue
		}
		out = append(out, QviewCell{Value: board.Display(Round4(e.Estimate.Estimate)), CI: compactInterval(e.CI95)})
	}
	return out
}

// compactInterval is a view's interval as the scenarios table shows it,
// "0.42–0.52".
func compactInterval(ci [2]float64) string {
	return board.Display(Round4(ci[0])) + "–" + board.Display(Round4(ci[1]))
}

// round4 is a question's view as the data file holds it, to 4 decimals
// (the scenarios page shows 2, rounded from these, so the two agree).
func Round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
