package site

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

func loadInputs(cfg stage.Config) (*stage.Loaded, error) {
	in := &stage.Loaded{Methodology: cfg.Methodology, Texts: layout.NewDatasetTexts()}
	var err error
	if in.Content, err = content.Load(cfg.Content, cfg.ContentLabel); err != nil {
		return nil, err
	}
	if len(cfg.Methodology) == 0 {
		return nil, fmt.Errorf("%s: empty or missing", cfg.MethodologyLabel)
	}
	ids, skipped, err := run.List(cfg.Runs, cfg.RunsLabel)
	if err != nil {
		return nil, err
	}
	if cfg.Warnings != nil {
		for _, w := range append(in.Content.Warnings, skipped...) {
			fmt.Fprintf(cfg.Warnings, "build: warning: %v\n", w)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s: no runs", cfg.RunsLabel)
	}
	for _, id := range ids {
		r, err := run.LoadManifest(cfg.Runs, cfg.RunsLabel, id)
		if err != nil {
			return nil, err
		}
		in.Runs = append(in.Runs, r)
		if cfg.Warnings != nil {
			for _, w := range r.Warnings {
				fmt.Fprintf(cfg.Warnings, "build: warning: %v\n", w)
			}
		}
	}
	in.RunsURL = in.Content.Site.RunsURL
	if cfg.RunsURL != "" {
		if err := content.CheckRunsURL(cfg.RunsURL); err != nil {
			return nil, fmt.Errorf("-runs-url %q: %v", cfg.RunsURL, err)
		}
		in.RunsURL = cfg.RunsURL
	}
	if err := checkCopiesAtLoad(cfg, in); err != nil {
		return nil, err
	}
	return in, nil
}
