package site

// The mitigation page: every prompt-intervention run against its model's
// default-prompt run, a paired comparison of each view. The same tables
// appear on both runs' pages.

import (
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// pair is a paired comparison of two runs of the same model and variant on
// the same prompts: typically the default prompt against an intervention.
type pair struct {
	A, B *board.Entry // B − A
	C    *score.Comparison
}

// interventionPairs lists every intervention run with its model's
// default-prompt run, as the boards attached them: board by board, parents
// and interventions by id.
func interventionPairs(boards []*board.Board) []pair {
	var out []pair
	for _, bd := range boards {
		var parents []*board.Entry
		for _, e := range bd.Ranked[score.Composite] {
			parents = append(parents, e)
		}
		parents = append(parents, bd.Unranked...)
		sort.Slice(parents, func(i, j int) bool { return parents[i].ID() < parents[j].ID() })
		for _, p := range parents {
			for _, iv := range p.Interventions {
				out = append(out, pair{p, iv.Entry, iv.C})
			}
		}
	}
	return out
}

type pairRow struct {
	Root          string // from the page showing the row to the site root
	Model         string
	Variant       run.Variant
	AID, BID      string
	AHref, BHref  string
	AIntervention string
	BIntervention string
	Questions     int
	Views         []pairView
}

type pairView struct {
	Title, A, B, Diff, CI, Verdict, Class string
}

func pairRowFor(p pair, root string) pairRow {
	r := pairRow{
		Root:  root,
		Model: p.A.Run.Manifest.Model.Name, Variant: p.A.Run.Manifest.Variant,
		AID: p.A.ID(), BID: p.B.ID(), AHref: runPath(p.A.ID()), BHref: runPath(p.B.ID()),
		AIntervention: p.A.Run.Manifest.Intervention, BIntervention: p.B.Run.Manifest.Intervention,
		Questions: p.C.Questions,
	}
	for _, v := range score.Views {
		d := p.C.Views[v]
		pv := pairView{Title: v.Title(), A: board.Display(p.A.Result.Views[v].Estimate), B: board.Display(p.B.Result.Views[v].Estimate),
			Diff: signed(d.Estimate, 2), CI: interval(d.CI95, 2, true)}
		pv.Verdict, pv.Class = verdict(d.CI95)
		r.Views = append(r.Views, pv)
	}
	return r
}

type mitigationData struct {
	Pairs []pairRow
}

func (mitigationData) kind() kind { return kindMitigation }

func mitigationPage(pairs []pair) *page {
	var d mitigationData
	for _, p := range pairs {
		d.Pairs = append(d.Pairs, pairRowFor(p, ""))
	}
	return &page{Path: mitigationPath, Title: "Mitigation: the same model with and without an intervention", Section: secMitigation, Body: d}
}

// pairsOf returns the comparisons a run takes part in.
func pairsOf(pairs []pair, id string) []pairRow {
	var out []pairRow
	for _, p := range pairs {
		if p.A.ID() == id || p.B.ID() == id {
			out = append(out, pairRowFor(p, root(runPath(id))))
		}
	}
	return out
}

// verdict reads a difference's 95% interval (second minus first).
func verdict(ci [2]float64) (words, class string) {
	switch {
	case ci[1] < 0:
		return "lower beyond doubt", "better"
	case ci[0] > 0:
		return "higher beyond doubt", "worse"
	}
	return "not distinguishable", "same"
}
