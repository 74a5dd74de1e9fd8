package site

// Per-scenario views on the run and scenarios pages: each question's own
// age, gender, race and composite gap (score.QuestionView), and the
// questions that contribute most to each of the run's views.

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/score"
)

// maxContributors is how many questions the run page lists per view.
const maxContributors = 3

// contribView is one view's largest contributions, as the run page lists
// them.
type contribView struct {
	Title string
	// Sum is the contributions' sum (the view before debiasing) and View
	// the view as shown.
	Sum, View string
	Rows      []contribRow
}

type contribRow struct {
	Q                   int
	Href                string
	Contribution, Share string
	Gap, CI             string // the question's own view and its interval
}

// contributions lists, per view, the questions with the largest
// contributions (score.Result.setContributions), largest first, then by
// question id; only questions that push the view up are listed.
func contributions(runID string, res *score.Result) []contribView {
	var out []contribView
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
		cv := contribView{Title: v.Title(), Sum: board.Display(sum), View: board.Display(res.Views[v].Estimate)}
		for _, x := range qs {
			if len(cv.Rows) == maxContributors || x.c <= 0 {
				break
			}
			qv := x.q.Views[v]
			r := contribRow{Q: x.q.ID, Href: scenarioPath(runID, x.q.ID), Contribution: fixed(x.c, 3), Gap: board.Display(qv.Estimate.Estimate), CI: interval(qv.CI95, 2, false)}
			if sum > 0 {
				r.Share = fixed(100*x.c/sum, 0) + "%"
			}
			cv.Rows = append(cv.Rows, r)
		}
		out = append(out, cv)
	}
	return out
}

// qviewCell is one of a question's views in the scenarios table.
type qviewCell struct {
	Value, CI, Sort string
}

// questionViewCells are a question's four views, in score.Views order.
func questionViewCells(q *score.Question) []qviewCell {
	var out []qviewCell
	for _, v := range score.Views {
		e := q.Views[v]
		if math.IsNaN(e.Estimate.Estimate) {
			out = append(out, qviewCell{Value: "–"})
			continue
		}
		out = append(out, qviewCell{Value: board.Display(e.Estimate.Estimate), CI: interval(e.CI95, 2, false), Sort: sortKey(e.Estimate.Estimate)})
	}
	return out
}
