package site

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/run"
)

func loadInputs(cfg Config) (*loaded, error) {
	in := &loaded{methodology: cfg.Methodology, texts: newDatasetTexts()}
	var err error
	if in.content, err = content.Load(cfg.Content, cfg.ContentLabel); err != nil {
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
		for _, w := range append(in.content.Warnings, skipped...) {
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
		in.runs = append(in.runs, r)
		if cfg.Warnings != nil {
			for _, w := range r.Unread {
				fmt.Fprintf(cfg.Warnings, "build: warning: %v\n", w)
			}
		}
	}
	if in.content.Site.RunsURL == "" {
		warnCopies(cfg, in.runs)
	}
	return in, nil
}
