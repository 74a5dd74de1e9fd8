package site

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// The changes page compares this release with the previous one, read from
// the previous release's data/leaderboard.json (site.yaml: previous).

type changesData struct {
	Previous, Current sitedata.Release
	Added, Removed    []runLink
	Views             []viewChanges
	// Redefined says the views were defined differently in the previous
	// release (its views_version), so its scores and ranks are not
	// comparable with these and no score changes are listed.
	Redefined          bool
	OldViews, NewViews int
}

func (changesData) kind() kind { return kindChanges }

type viewChanges struct {
	View    string
	Changes []change
}

type change struct {
	ID, Model, Href  string
	Variant          run.Variant
	Scoring          run.Scoring
	OldRank, NewRank int
	Move             string
	Old, New, Diff   string
	Beyond           bool // the new score lies outside the previous 95% interval
}

func changesPage(cfg Config, in *loaded, sc *scored, site *siteInfo) (*page, error) {
	prev := in.content.Previous
	if prev == nil {
		return nil, nil
	}
	label := cfg.ContentLabel + "/" + in.content.Site.Previous
	var old sitedata.Leaderboard
	if err := json.Unmarshal(prev, &old); err != nil {
		return nil, fmt.Errorf("%s: %v", label, err)
	}
	d := changesData{Previous: old.Release, Current: sitedata.Release{Label: site.Release.Label, Date: site.Release.Date}}
	was := map[string]sitedata.RunSummary{}
	for _, r := range old.Runs {
		was[r.ID] = r
	}
	now := map[string]bool{}
	for _, e := range sc.entries {
		now[e.ID()] = true
		if _, ok := was[e.ID()]; !ok {
			d.Added = append(d.Added, runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + string(e.Run.Manifest.Variant), e.Run.Manifest.Intervention, runPath(e.ID())})
		}
	}
	for _, r := range old.Runs {
		if !now[r.ID] {
			d.Removed = append(d.Removed, runLink{ID: r.ID, Model: r.Model + " · " + r.Variant, Intervention: r.Intervention})
		}
	}
	sort.Slice(d.Removed, func(i, j int) bool { return d.Removed[i].ID < d.Removed[j].ID })
	d.OldViews, d.NewViews = max(old.ViewsVersion, 1), sitedata.ViewsVersion
	if d.OldViews != d.NewViews {
		d.Redefined = true
		return &page{Path: changesPath, Title: "Changes since " + old.Release.Label, Section: secChanges, Body: d}, nil
	}
	for _, v := range score.Views {
		vc := viewChanges{View: v.Title()}
		for _, e := range sc.entries {
			o, ok := was[e.ID()]
			if !ok || !e.Result.Scored || !o.Scored {
				continue
			}
			ov, ok := o.Views[v.Name()]
			if !ok {
				continue
			}
			nv := e.Result.Views[v].Estimate
			c := change{ID: e.ID(), Model: e.Run.Manifest.Model.Name, Href: runPath(e.ID()), Variant: e.Run.Manifest.Variant, Scoring: e.Run.Manifest.Scoring,
				OldRank: o.Rank[v.Name()], NewRank: e.Rank[v],
				Old: fixed(float64(ov.Estimate), 3), New: fixed(nv, 3), Diff: signed(nv-float64(ov.Estimate), 3)}
			switch {
			case c.NewRank < c.OldRank:
				c.Move = fmt.Sprintf("up %d", c.OldRank-c.NewRank)
			case c.NewRank > c.OldRank:
				c.Move = fmt.Sprintf("down %d", c.NewRank-c.OldRank)
			}
			if ov.CI95 != nil {
				c.Beyond = nv < float64(ov.CI95[0]) || nv > float64(ov.CI95[1])
			}
			if c.Move == "" && math.Abs(nv-float64(ov.Estimate)) < 5e-4 {
				continue // unchanged at the precision shown
			}
			vc.Changes = append(vc.Changes, c)
		}
		d.Views = append(d.Views, vc)
	}
	return &page{Path: changesPath, Title: "Changes since " + old.Release.Label, Section: secChanges, Body: d}, nil
}
