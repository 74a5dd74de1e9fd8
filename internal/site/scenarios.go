package site

// A run's scenario index: its decision questions with their own
// coefficients, a heatmap of them, and the questions that drive its score.

import (
	"fmt"
	"html/template"
	"maps"
	"slices"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

type scenarioIndexData struct {
	Heatmap                             template.HTML
	RunID, Model, Intervention, RunHref string
	Variant                             run.Variant
	Scored                              bool
	Names                               []string
	Rows                                []scenarioIndexRow
	Drivers                             int
}

func (scenarioIndexData) kind() kind { return kindScenarios }

type scenarioIndexRow struct {
	Q              int
	Href, Title    string
	Label          string
	Rows           int
	Coefs          []coefCell
	Sort           []string
	Push, PushSort string
	Driver         bool
}

// maxDrivers is how many questions at most are marked as driving a run's
// score.
const maxDrivers = 5

func scenarioIndexPage(texts *datasetTexts, e *board.Entry, cells map[int]*score.QuestionCells) (*page, error) {
	m, res := e.Run.Manifest, e.Result
	d := scenarioIndexData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: runPath(e.ID()), Scored: res.Scored}
	for _, c := range design.Coefs {
		d.Names = append(d.Names, c.Name())
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
		r := scenarioIndexRow{Q: q, Href: scenarioPath(e.ID(), q), Title: texts.shortTitle(m.Variant, q), Label: texts.label(m.Variant, q), Rows: cells[q].Count(), Driver: drivers[q]}
		if qq, ok := perQ[q]; ok && res.Scored {
			for _, c := range design.Coefs {
				v := qq.Coefs[c]
				r.Coefs = append(r.Coefs, coefCell{c.Name(), signed(v, 2), signClass(v), sortKey(v)})
			}
			p := res.Push(qq)
			r.Push, r.PushSort = signed(p, 2), sortKey(p)
		}
		d.Rows = append(d.Rows, r)
	}
	d.Drivers = len(drivers)
	hm, err := heatmapChart(texts, e)
	if err != nil {
		return nil, fmt.Errorf("%s: heatmap: %w", scenariosPath(e.ID()), err)
	}
	d.Heatmap = hm
	return &page{Path: scenariosPath(e.ID()), Title: "Scenarios · " + m.Model.Name + " · " + string(m.Variant), Section: secNone, Body: d}, nil
}
