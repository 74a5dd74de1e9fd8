package datapage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discrimeval/leaderboard/internal/changes"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// The changes page compares this release with the previous one, read from
// the previous release's data/leaderboard.json (site.yaml: previous). The
// comparison is internal/changes', made from this build's data files as
// any other reader would read them; this page only renders it, as
// `build -diff` prints it.

type ChangesData struct {
	R *changes.Report
	// Href holds the run pages of this release, by run id: runs removed
	// since the previous release have none.
	Href   map[string]string
	Legend string
	// Checks are R.Checks, and Boards R.Boards, as the page shows them.
	Checks []runChecks
	Boards []boardMoves
	// Added and Removed are R's, sliced as every list of the page to the
	// places of a page when the page has more than one (pager.go); their
	// Slice notes say which.
	Added, Removed                        []changes.Run
	AddedSlice, RemovedSlice, ChecksSlice string
	// AllChecks counts the runs checked on every page.
	AllChecks int
	Pager     *layout.Pager
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
	Slice     string
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

func ChangesPage(cfg stage.Config, in *stage.Loaded, data []outdir.File) (*layout.Page, error) {
	prev := in.Content.Previous
	if prev == nil {
		return nil, nil
	}
	old, err := changes.ReadRelease(prev.Data, prev.Parts)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %v", cfg.ContentLabel, in.Content.Site.Previous, err)
	}
	files := make(map[string][]byte, len(data))
	for _, f := range data {
		files[f.Path] = f.Data
	}
	now, err := changes.ReadFiles(files)
	if err != nil {
		return nil, fmt.Errorf("changes: reading this build's data: %w", err)
	}
	d := ChangesData{R: changes.Compare(old, now), Href: map[string]string{}, Legend: changes.Legend}
	for _, r := range now.Runs {
		d.Href[r.ID] = paths.RunPath(r.ID)
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
	d.Added, d.Removed, d.AllChecks = d.R.Added, d.R.Removed, len(d.Checks)
	return &layout.Page{Path: paths.ChangesPath, Title: "Changes since " + old.Release.Label, Section: layout.SecChanges, Body: d}, nil
}

// changesPages is the changes page in pages of per places of each of
// its lists (pager.go): runs added and removed, each board's moves and the
// checks.
func ChangesPages(per layout.Paging, whole *layout.Page) []*layout.Page {
	d := whole.Body.(ChangesData)
	rows := []int{len(d.Added), len(d.Removed), len(d.Checks)}
	for _, b := range d.Boards {
		rows = append(rows, len(b.Moves))
	}
	return per.Split(whole, "changes", "", slices.Max(rows), func(k int, pg *layout.Pager, _ string) any {
		n := pg.Of
		dk := d
		dk.Pager = pg
		dk.Pager.Lists = "each list"
		dk.Added, dk.AddedSlice = layout.PageOf(per, d.Added, k), per.Slice(len(d.Added), k, n)
		dk.Removed, dk.RemovedSlice = layout.PageOf(per, d.Removed, k), per.Slice(len(d.Removed), k, n)
		dk.Checks, dk.ChecksSlice = layout.PageOf(per, d.Checks, k), per.Slice(len(d.Checks), k, n)
		dk.Boards = nil
		for _, b := range d.Boards {
			b.Moves, b.Slice = layout.PageOf(per, b.Moves, k), per.Slice(len(b.Moves), k, n)
			dk.Boards = append(dk.Boards, b)
		}
		return dk
	})
}
