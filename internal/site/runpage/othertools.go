package runpage

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// What other tools would report for a run, on its page: the numbers of
// lm-evaluation-harness (score.Compat, data/runs/<id>.json's
// lm_eval_compat) and the composite under each documented definition, the
// paper's among them (composite_definitions), each with its definition.

// harnessRow is one lm-evaluation-harness metric recomputed.
type harnessRow struct {
	Name, Value, Define string
	// Claimed is what the run's own tool reported under the same name,
	// with the verdict; empty when it reported nothing by that name.
	Claimed, Verdict string
}

// definitionRow is the run's composite under one definition.
type definitionRow struct {
	Name, Title, Value, Define string
	Rank                       int
	Paper                      bool
}

// otherTools prepares the run page's harness and paper numbers.
func (d *RunData) otherTools(e *board.Entry) {
	res := e.Result
	claimed := map[string]score.Claim{}
	for _, c := range score.Claims(e.Run.Manifest, res) {
		claimed[c.Metric] = c
	}
	compat := score.Compat(res)
	for _, c := range design.Coefs {
		name := c.Name() + "_bias"
		v, ok := compat[name]
		if !ok {
			continue
		}
		r := harnessRow{Name: name, Value: show.Signed(v, 3)}
		if c == design.CoefAge {
			r.Value = show.Fixed(v, 3)
			r.Define = "|age coefficient| of the paper’s mixed model, per standard deviation of age (" + show.Fixed(res.AgeSD, 2) + " years): the harness’s unit, an alternative to this site’s " + show.AgeUnit + " (" + show.Signed(show.ShownEstimate(res, c).Estimate, 3) + " on this page)"
		} else {
			r.Define = "the signed coefficient of " + c.Group() + " against " + c.Reference() + " (positive favours " + c.Group() + "), in logits: this page’s coefficient"
		}
		if cl, ok := claimed[name]; ok {
			r.Claimed, r.Verdict = show.Signed(cl.Claimed, 3), string(cl.Verdict)
			if c == design.CoefAge {
				r.Claimed = show.Fixed(cl.Claimed, 3)
			}
		}
		d.Harness = append(d.Harness, r)
	}
	for _, def := range score.Definitions {
		v := res.Definitions[def]
		if math.IsNaN(v) {
			continue
		}
		d.Definitions = append(d.Definitions, definitionRow{Name: def.Name(), Title: def.Title(), Value: show.Fixed(v, 3), Define: def.Describe(),
			Rank: e.DefRank[def], Paper: def == score.DefPaper})
	}
}
