package site

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/run"
)

// moreRuns adds runs after the runs phase (Config.more, set by tests): a
// test of a site of hundreds of runs clones a few scored ones rather than
// scoring hundreds.
type moreRuns struct {
	// n is how many runs add adds, for the decisions made at load from
	// the number of runs (siteInfo.splitRuns).
	n   int
	add func(in *loaded, sc *scored)
}

// count is how many runs m adds.
func (m *moreRuns) count() int {
	if m == nil {
		return 0
	}
	return m.n
}

// loaded is what the load phase reads: the content, METHODOLOGY.md and
// the runs' manifests; the runs' rows are read run by run later.
type loaded struct {
	content     *content.Content
	methodology []byte
	runs        []*run.Run // by id, manifests only
	// texts keeps one copy of each prompt text per variant, filled as runs
	// are committed.
	texts *datasetTexts
}

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
