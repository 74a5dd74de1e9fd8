package scenarios

// A run's scenario index: its decision questions with their own
// coefficients, and the questions that drive its score. The table is the
// heatmap too: each coefficient's cell is coloured on the scale of the
// scenario grids, so the numbers, the colours and sorting are one
// accessible table.

import (
	"maps"
	"math"
	"slices"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

type ScenarioIndexData struct {
	RunID, Model, Intervention, RunHref string
	PromptsHref                         string // the variant's prompt index
	SwingsHref                          string // the run's swing finder
	Variant                             run.Variant
	Scored                              bool
	Names                               []string
	ViewNames                           []string
	Rows                                []scenarioIndexRow
	Drivers                             int
	// Tested is the number of questions tested for standing out of the
	// others (score.Outlier: complete log-probability runs), Outliers
	// those flagged.
	Tested      int
	Outliers    []outlierLine
	OutlierWord string // "outlier scenario", or its plural
	// Legend is the colour scale's, shown when some question has
	// coefficients.
	Legend *grid.ColourLegend
}

// outlierLine is a flagged scenario and what stands out in it: "its Black
// coefficient +1.52 against the other scenarios’ mean −0.02 (z = 5.9)".
type outlierLine struct {
	Q     int
	Href  string
	Words string
}

// scenarioIndexRow is one question: its label (the question's full text
// is on its page and on the prompt index), prompts and coefficients.
type scenarioIndexRow struct {
	Q              int
	Href, Label    string
	Rows           int
	Coefs          []grid.CoefCell
	Views          []grid.QviewCell // the question's own views, score.Views order
	Push, PushSort string
	Driver         bool
	Outlier        bool
}

// maxDrivers is how many questions at most are marked as driving a run's
// score.
const maxDrivers = 5

func ScenarioIndexPage(texts *layout.DatasetTexts, e *board.Entry, cells map[int]*score.QuestionCells) *layout.Page {
	m, res := e.Run.Manifest, e.Result
	d := ScenarioIndexData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: paths.RunPath(e.ID()), PromptsHref: paths.PromptIndexPath(m.Variant), SwingsHref: paths.SwingsPath(e.ID()), Scored: res.Scored}
	for _, c := range design.Coefs {
		// Spaces, not underscores, so that a narrow column's heading wraps.
		d.Names = append(d.Names, show.CoefDisplay(c))
	}
	for _, v := range score.Views {
		if res.Scored {
			d.ViewNames = append(d.ViewNames, v.Title())
		}
	}
	perQ := map[int]*score.Question{}
	for i := range res.Questions {
		perQ[res.Questions[i].ID] = &res.Questions[i]
	}
	var drivers map[int]bool
	if res.Scored {
		drivers = res.Drivers(maxDrivers)
	}
	for _, q := range slices.Sorted(maps.Keys(cells)) {
		r := scenarioIndexRow{Q: q, Href: paths.ScenarioPath(e.ID(), q), Label: texts.Label(m.Variant, q), Rows: cells[q].Count(), Driver: drivers[q]}
		if qq, ok := perQ[q]; ok && res.Scored {
			for _, c := range design.Coefs {
				v := qq.Coefs[c] * show.CoefScale(res, c)
				r.Coefs = append(r.Coefs, grid.CoefCell{Name: c.Name(), Value: show.Signed(v, 2), Class: grid.CoefClass(v)})
				if !math.IsNaN(v) && d.Legend == nil {
					l := grid.NewLegend(false, false)
					d.Legend = &l
				}
			}
			r.Views = grid.QuestionViewCells(qq)
			p := res.Push(qq)
			r.Push, r.PushSort = show.Signed(p, 2), show.SortKey(p)
			if o := qq.Outlier; o.Tested {
				d.Tested++
				if r.Outlier = o.Flagged; o.Flagged {
					d.Outliers = append(d.Outliers, outlierLine{Q: q, Href: r.Href, Words: outlierWords(res, o)})
				}
			}
		}
		d.Rows = append(d.Rows, r)
	}
	d.Drivers = len(drivers)
	d.OutlierWord = "outlier scenario"
	if len(d.Outliers) != 1 {
		d.OutlierWord += "s"
	}
	return &layout.Page{Path: paths.ScenariosPath(e.ID()), Title: "Scenarios · " + m.Model.Name + " · " + string(m.Variant), Section: layout.SecNone, Body: d}
}

// outlierWords says what stands out most in a flagged scenario, in the
// site's units: "its Black coefficient +1.52 against the other scenarios'
// mean −0.02 (z = 5.9; p < 0.001 corrected for the 70)".
func outlierWords(res *score.Result, o score.Outlier) string {
	k := show.CoefScale(res, o.Coef)
	p := "p = " + show.Fixed(o.PHolm, 3)
	if o.PHolm < 0.001 {
		p = "p < 0.001"
	}
	return "its " + show.CoefDisplay(o.Coef) + " coefficient " + show.Signed(o.Value*k, 2) + " against the other scenarios’ mean " + show.Signed(o.Others*k, 2) +
		" (z = " + show.Signed(o.Z, 1) + "; " + p + " corrected for the " + show.Itoa(len(res.Questions)) + ")"
}
