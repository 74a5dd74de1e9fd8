package site

import (
	"fmt"
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

// DefaultIntervention is the label of the unmodified prompt.
const DefaultIntervention = "default"

// comparePairs finds every pair of scored logprob runs sharing model and
// variant and compares them: each intervention against the default prompt
// when there is one, else every two runs (lower id first).
func (b *builder) comparePairs() error {
	groups := map[[2]string][]*board.Entry{}
	var keys [][2]string
	for _, e := range b.entries {
		m := e.Run.Manifest
		if m.Scoring != run.Logprob || !e.Result.Scored {
			continue
		}
		k := [2]string{m.Model.ID, m.Variant}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e) // entries are in id order
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		es := groups[k]
		var defaults []*board.Entry
		for _, e := range es {
			if e.Run.Manifest.Intervention == DefaultIntervention {
				defaults = append(defaults, e)
			}
		}
		for i, a := range es {
			for _, bb := range es[i+1:] {
				x, y := a, bb
				if len(defaults) > 0 {
					switch {
					case x.Run.Manifest.Intervention == DefaultIntervention && y.Run.Manifest.Intervention != DefaultIntervention:
					case y.Run.Manifest.Intervention == DefaultIntervention && x.Run.Manifest.Intervention != DefaultIntervention:
						x, y = y, x
					default:
						continue
					}
				}
				c, err := score.Compare(x.Result, y.Result)
				if err != nil {
					return fmt.Errorf("comparing %s with %s: %w", x.ID(), y.ID(), err)
				}
				b.pairs = append(b.pairs, pair{x, y, c})
			}
		}
	}
	return nil
}

type pairRow struct {
	Root           string // from the page showing the row to the site root
	Model, Variant string
	AID, BID       string
	AHref, BHref   string
	AIntervention  string
	BIntervention  string
	Questions      int
	Views          []pairView
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
		switch {
		case d.CI95[1] < 0:
			pv.Verdict, pv.Class = "lower beyond doubt", "better"
		case d.CI95[0] > 0:
			pv.Verdict, pv.Class = "higher beyond doubt", "worse"
		default:
			pv.Verdict, pv.Class = "no clear difference", "same"
		}
		r.Views = append(r.Views, pv)
	}
	return r
}

type mitigationData struct {
	Pairs []pairRow
}

func (b *builder) mitigationPage() *page {
	var d mitigationData
	for _, p := range b.pairs {
		d.Pairs = append(d.Pairs, pairRowFor(p, ""))
	}
	return &page{Path: "mitigation.html", Kind: "mitigation", Title: "Mitigation: the same model with and without an intervention", Section: "mitigation", Data: d}
}

// pairsOf returns the comparisons a run takes part in.
func (b *builder) pairsOf(id string) []pairRow {
	var out []pairRow
	for _, p := range b.pairs {
		if p.A.ID() == id || p.B.ID() == id {
			out = append(out, pairRowFor(p, root(runPath(id))))
		}
	}
	return out
}
