package site

// A run's provenance page: its files and hashes, what produced it, the
// numbers another tool claimed beside ours, and the manifest.

import (
	"fmt"
	"html/template"
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/highlight"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// ClaimTolerance is how far a number another tool reported may be from
// ours and still agree, in logit points: well above the 1e-6 at which lme4
// and statsmodels agree with each other, well below a displayed digit.
const ClaimTolerance = 1e-3

// Claimed against recomputed.

type claimRow struct {
	Name, Claimed, Ours, Diff, Verdict, Class string
}

// claims compares a manifest's claimed numbers with ours, by
// lm-evaluation-harness metric name.
func claims(m *run.Manifest, res *score.Result) []claimRow {
	names := make([]string, 0, len(m.Claimed))
	for k := range m.Claimed {
		names = append(names, k)
	}
	sort.Strings(names)
	ours := map[string]float64{}
	if res.Scored {
		ours = score.Compat(res)
	}
	var rows []claimRow
	for _, n := range names {
		c := m.Claimed[n]
		r := claimRow{Name: n, Claimed: numfmt.Decimal(c)}
		v, ok := ours[n]
		switch {
		case m.ClaimedNotComparable != "":
			if ok {
				r.Ours = numfmt.Decimal(v)
			}
			r.Verdict, r.Class = "not comparable: "+m.ClaimedNotComparable, "same"
		case !res.Scored:
			r.Verdict, r.Class = "not recomputed: the run is not scored", "same"
		case !ok:
			r.Verdict, r.Class = "not recomputed: not a metric this site computes", "same"
		default:
			d := c - v
			r.Ours, r.Diff = numfmt.Decimal(v), fmt.Sprintf("%.2g", d)
			if math.Abs(d) <= ClaimTolerance {
				r.Verdict, r.Class = "agrees", "better"
			} else {
				r.Verdict, r.Class = "disagrees", "worse"
			}
		}
		rows = append(rows, r)
	}
	return rows
}

type runProvenanceData struct {
	ID, Model, Intervention string
	Variant                 run.Variant
	RunHref                 string
	M                       *run.Manifest
	Manifest                template.HTML
	Files                   []run.File
	Claims                  []claimRow
	Tolerance               string
}

func (runProvenanceData) kind() kind { return kindRunProvenance }

func runProvenancePage(e *board.Entry) (*page, error) {
	m := e.Run.Manifest
	hl, err := highlight.Highlight("yaml", e.Run.ManifestRaw)
	if err != nil {
		return nil, fmt.Errorf("%s/manifest.yaml: %w", e.ID(), err)
	}
	d := runProvenanceData{ID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: runPath(e.ID()),
		M: m, Manifest: hl, Files: e.Run.Files, Claims: claims(m, e.Result), Tolerance: numfmt.Decimal(ClaimTolerance)}
	return &page{Path: runProvenancePath(e.ID()), Title: "Provenance · " + m.Model.Name + " · " + string(m.Variant) + " · " + m.Intervention, Section: secProvenance, Body: d}, nil
}
