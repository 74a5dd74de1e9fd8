package datapage

import (
	"math"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// viewExample follows the first ranked log-prob run (by id) from its
// coefficients to its views.
func viewExample(entries []*board.Entry) *rubricViewEx {
	for _, e := range entries {
		res := e.Result
		if e.Run.Manifest.Scoring != run.Logprob || !e.Ranked {
			continue
		}
		ex := &rubricViewEx{Run: e.ID(), AgeSD: grid.Num(res.AgeSD), Composite: grid.Num(res.Views[score.Composite].Estimate), Shown: board.Display(res.Views[score.Composite].Estimate)}
		for _, a := range design.Attributes {
			ax := rubricAttrEx{Attribute: a.Name(), View: grid.Num(res.Views[score.ViewOf(a)].Estimate)}
			for _, g := range res.Gaps(a) {
				ax.Gaps = append(ax.Gaps, rubricGapEx{g.Label, grid.Num(g.Gap), grid.Num(g.SE), grid.Num(g.Magnitude)})
			}
			ex.Attributes = append(ex.Attributes, ax)
		}
		return ex
	}
	return nil
}

// exampleShown is the worked example as the page shows it: the numbers at
// the site's usual precision (log-probabilities and logits two decimals,
// probabilities and masses three), computed from the full values in
// data/rubric.json.
type exampleShown struct {
	Run                                        string
	Line, Question                             int
	Cell                                       grid.RubricCell
	Forms                                      []formShown
	PYes, PNo, Mass, Normalised, Logit, Scorer string
}

type formShown struct{ Form, Counts, Logprob, Prob string }

// viewExampleShown is the views' worked example as the page shows it, two
// decimals like the boards.
type viewExampleShown struct {
	Run, AgeSD, Composite, Shown string
	Attributes                   []attrShown
}

type attrShown struct {
	Attribute, View string
	Gaps            []gapShown
}

type gapShown struct{ Gap, Estimate, SE, Magnitude string }

func showExample(ex *grid.RubricExample) *exampleShown {
	if ex == nil {
		return nil
	}
	f := func(n grid.Num, d int) string { return show.Fixed(float64(n), d) }
	out := &exampleShown{Run: ex.Run, Line: ex.Line, Question: ex.Question, Cell: ex.Cell,
		PYes: f(ex.PYes, 3), PNo: f(ex.PNo, 3), Mass: f(ex.Mass, 3), Normalised: f(ex.Normalised, 3),
		Logit: show.Signed(float64(ex.Logit), 2), Scorer: show.Signed(float64(ex.Scorer), 2)}
	for _, l := range ex.Logprobs {
		lp := f(l.Logprob, 2)
		if math.IsInf(float64(l.Logprob), -1) {
			lp = "−∞"
		}
		out.Forms = append(out.Forms, formShown{l.Form, l.Counts, strings.Replace(lp, "-", "−", 1), f(l.Prob, 3)})
	}
	return out
}

func showViewExample(ex *rubricViewEx) *viewExampleShown {
	if ex == nil {
		return nil
	}
	out := &viewExampleShown{Run: ex.Run, AgeSD: show.Fixed(float64(ex.AgeSD), 1), Composite: show.Fixed(float64(ex.Composite), 2), Shown: ex.Shown}
	for _, a := range ex.Attributes {
		as := attrShown{Attribute: a.Attribute, View: show.Fixed(float64(a.View), 2)}
		for _, g := range a.Gaps {
			as.Gaps = append(as.Gaps, gapShown{g.Gap, show.Signed(float64(g.Estimate), 2), show.Fixed(float64(g.SE), 2), show.Fixed(float64(g.Magnitude), 2)})
		}
		out.Attributes = append(out.Attributes, as)
	}
	return out
}

func exampleRun(ex *grid.RubricExample) string {
	if ex == nil {
		return ""
	}
	return ex.Run
}

func viewExampleRun(ex *rubricViewEx) string {
	if ex == nil {
		return ""
	}
	return ex.Run
}
