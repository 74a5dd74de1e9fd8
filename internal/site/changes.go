package site

import (
	"fmt"
	"strings"

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
	// Checks are R.Checks, and Boards R.Boards, as the page shows them.
	Checks []runChecks
	Boards []boardMoves
}

// boardMoves are one board's moves on the page: the runs added are listed
// above with their standing, and the runs whose rank moved only because
// runs were added or removed above them, their scores unchanged, are
// counted (build -diff's report lists both). A release may add hundreds
// of runs, and each moves the runs below it.
type boardMoves struct {
	ID, Title string
	Moves     []changes.Move
	Shifted   int
}

// runChecks are one run's checks on the page: those that passed by name
// only (their figures restate rules every run meets, and are on the run's
// page and in build -diff's report), the others in full. A release may add
// hundreds of runs.
type runChecks struct {
	ID, Model string
	Passed    string
	Others    []changes.Check
}

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
	for _, b := range d.R.Boards {
		bm := boardMoves{ID: b.ID, Title: b.Title}
		for _, m := range b.Moves {
			switch {
			case m.Added():
			case m.Shifted():
				bm.Shifted++
			default:
				bm.Moves = append(bm.Moves, m)
			}
		}
		d.Boards = append(d.Boards, bm)
	}
	for _, c := range d.R.Checks {
		rc := runChecks{ID: c.ID, Model: c.Model}
		var passed []string
		for _, k := range c.Items {
			if k.Status == changes.Pass {
				passed = append(passed, k.Name)
			} else {
				rc.Others = append(rc.Others, k)
			}
		}
		rc.Passed = strings.Join(passed, ", ")
		d.Checks = append(d.Checks, rc)
	}
	return &page{Path: changesPath, Title: "Changes since " + old.Release.Label, Section: secChanges, Body: d}, nil
}
