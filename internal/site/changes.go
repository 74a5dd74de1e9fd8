package site

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/changes"
)

// The changes page compares this release with the previous one, read from
// the previous release's data/leaderboard.json (site.yaml: previous). The
// comparison is internal/changes', made from this build's data files as
// any other reader would read them; this page only renders it, as
// `build -diff` prints it.

type changesData struct {
	R *changes.Report
	// Href holds the run pages of this release, by run id: runs removed
	// since the previous release have none.
	Href   map[string]string
	Legend string
}

func (changesData) kind() kind { return kindChanges }

func changesPage(cfg Config, in *loaded, data []File) (*page, error) {
	prev := in.content.Previous
	if prev == nil {
		return nil, nil
	}
	old, err := changes.ReadLeaderboard(prev)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %v", cfg.ContentLabel, in.content.Site.Previous, err)
	}
	files := make(map[string][]byte, len(data))
	for _, f := range data {
		files[f.Path] = f.Data
	}
	now, err := changes.ReadFiles(files)
	if err != nil {
		return nil, fmt.Errorf("changes: reading this build's data: %w", err)
	}
	d := changesData{R: changes.Compare(old, now), Href: map[string]string{}, Legend: changes.Legend}
	for _, r := range now.Runs {
		d.Href[r.ID] = runPath(r.ID)
	}
	return &page{Path: changesPath, Title: "Changes since " + old.Release.Label, Section: secChanges, Body: d}, nil
}
