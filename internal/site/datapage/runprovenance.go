package datapage

// A run's provenance page: its files and hashes, what produced it, the
// numbers another tool claimed beside ours, and the manifest.

import (
	"fmt"
	"html/template"
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/highlight"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// Claimed against recomputed (score.Claims decides; this is its display).

type claimRow struct {
	Name, Claimed, Ours, Diff, Class string
	Mark                             string // score.Verdict.Mark: ✓, ✗ or none
	Verdict                          string // the verdict, and why for one not compared
}

func claims(m *run.Manifest, res *score.Result) []claimRow {
	var rows []claimRow
	for _, c := range score.Claims(m, res) {
		r := claimRow{Name: c.Metric, Claimed: numfmt.Decimal(c.Claimed), Mark: c.Verdict.Mark(), Verdict: string(c.Verdict), Class: "same"}
		if !math.IsNaN(c.Recomputed) {
			r.Ours = numfmt.Decimal(c.Recomputed)
		}
		switch c.Verdict {
		case score.Agrees, score.Disagrees:
			r.Diff, r.Class = fmt.Sprintf("%.2g", c.Claimed-c.Recomputed), "better"
			if c.Verdict == score.Disagrees {
				r.Class = "worse"
			}
		default:
			r.Verdict += ": " + c.Why
		}
		rows = append(rows, r)
	}
	return rows
}

type RunProvenanceData struct {
	ID, Model, Intervention string
	Variant                 run.Variant
	RunHref, JSONHref       string
	// FilesHref is the run page's list of its files, which says where
	// they are (the pages that span runs decide: copied or linked).
	FilesHref string
	M         *run.Manifest
	Manifest  template.HTML
	Files     []DownloadLink
	Claims    []claimRow
	Tolerance string
}

func RunProvenancePage(in *stage.Loaded, e *board.Entry) (*layout.Page, error) {
	m := e.Run.Manifest
	hl, err := highlight.Highlight("yaml", e.Run.ManifestRaw)
	if err != nil {
		return nil, fmt.Errorf("%s/manifest.yaml: %w", e.ID(), err)
	}
	d := RunProvenanceData{ID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: paths.RunPath(e.ID()), JSONHref: paths.RunProvenanceJSONPath(e.ID()),
		M: m, Manifest: hl, Files: fileRows(e.Run.Files), FilesHref: paths.RunFilesPath(e.ID()), Claims: claims(m, e.Result), Tolerance: numfmt.Decimal(score.ClaimTolerance)}
	return &layout.Page{Path: paths.RunProvenancePath(e.ID()), Title: "Provenance · " + m.Model.Name + " · " + string(m.Variant) + " · " + m.Intervention, Section: layout.SecProvenance, Body: d}, nil
}
