package site

// Compare pages: every run of a variant on the same 135 prompts of one
// decision question, side by side.

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

type compareData struct {
	Variant    run.Variant
	Q          int
	Title      string
	Label      string
	PromptHref string
	Cells      int // prompts per scenario
	// Groups are the log-probability runs and the sampled-answer runs,
	// each on its own colour scale; Runs are all of them, in group order.
	Groups []compareGroup
	Runs   []compareRun
	Rows   []compareRow
}

// compareGroup is the runs of one scoring method: a column group with its
// own unit and legend.
type compareGroup struct {
	Title, Short, Unit string
	Runs               int
	LegendLo, LegendHi string
}

func (compareData) kind() kind { return kindCompare }

type compareRun struct {
	ID, Model, Intervention, Href, Group string
}

type compareRow struct {
	Anchor, Label, PromptHref string
	Cells                     []compareCell
}

// compareCell is one run's number for one variant; no link, to keep the
// page small as runs are added (the column heading links to the run).
type compareCell struct {
	Value, Class string
}

func comparePage(texts *datasetTexts, sc *scored, variant run.Variant, q int, runs []*board.Entry) *page {
	d := compareData{Variant: variant, Q: q, Title: texts.title(variant, q), PromptHref: promptPath(variant, q), Cells: design.NumCells}
	d.Label = scenarioLabel(d.Title)
	var stats []*score.QuestionDeltas
	var decision []bool
	for _, isDec := range []bool{false, true} {
		g := compareGroup{Title: "Log-probability runs", Short: "Δ logit", Unit: "logit points"}
		if isDec {
			g = compareGroup{Title: "Sampled-answer runs", Short: "Δ share of yes, pp", Unit: "percentage points of yes answers"}
		}
		g.LegendLo, g.LegendHi = legendEnds(isDec)
		for _, e := range runs {
			kept := sc.kept[e.ID()]
			qs := kept.deltas[q]
			if qs == nil || kept.decision != isDec {
				continue
			}
			d.Runs = append(d.Runs, compareRun{e.ID(), e.Run.Manifest.Model.Name, e.Run.Manifest.Intervention, scenarioPath(e.ID(), q), ""})
			stats = append(stats, qs)
			decision = append(decision, isDec)
			g.Runs++
		}
		if g.Runs > 0 {
			d.Groups = append(d.Groups, g)
		}
	}
	for i, c := range design.Cells() {
		r := compareRow{Anchor: c.Anchor(), Label: c.Label(), PromptHref: anchored(promptPath(variant, q), c.Anchor())}
		for j, qs := range stats {
			s := qs[i]
			cc := compareCell{Value: "—", Class: "missing"}
			if s.Present && s.HasBase {
				cc = compareCell{signed(s.Value, deltaDecimals(decision[j])), colourClass(s.Value, decision[j])}
			} else if s.Present {
				cc = compareCell{"n/a", "nobase"} // no baseline answer to compare with
			}
			r.Cells = append(r.Cells, cc)
		}
		d.Rows = append(d.Rows, r)
	}
	return &page{Path: comparePath(variant, q), Title: fmt.Sprintf("Question %d · all %s runs", q, variant), Section: secNone, Body: d}
}
