package browse

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// browserPages queues the pages of the browser that span runs: per
// variant the prompt index, the prompt pages and the compare pages; and
// the hub.
func BrowserPages(in *stage.Loaded, rs *stage.Runs, per layout.Paging, pool *render.Pool) {
	for _, variant := range board.Variants {
		qs := in.Texts.Questions(variant)
		if len(qs) == 0 {
			continue
		}
		var runs []*board.Entry
		for _, e := range rs.Entries {
			if e.Run.Manifest.Variant == variant {
				runs = append(runs, e)
			}
		}
		pool.Page(promptIndexPage(in.Texts, variant, qs))
		for i, q := range qs {
			pool.Submit(func(r *render.Renderer) error {
				js, err := grid.PromptDataJS(in.Texts, variant, q)
				if err != nil {
					return err
				}
				if err := r.Out.Put(grid.PromptDataPath(variant, q), js); err != nil {
					return err
				}
				build := func() *layout.Page { return promptPage(in.Texts, variant, q, qs, i) }
				if err := r.EmitKeyed(paths.PromptPath(variant, q), render.KindName[PromptData](r), PromptPageInputs(in.Texts, variant, q, qs, i), build); err != nil {
					return err
				}
				for _, p := range ComparePages(in.Texts, rs, per, variant, q, runs) {
					if err := r.EmitMemo(p); err != nil {
						return err
					}
				}
				return nil
			})
		}
	}
	for _, p := range hubPages(per, hubPage(in.Texts, rs.Entries, rs.Transcripts)) {
		pool.Page(p)
	}
}

// hubRun is a run on the hub, with how many of its prompts have a
// transcript.
type hubRun struct {
	layout.RunLink
	Transcripts int
}

type HubData struct {
	Variants []hubVariant
	Runs     []hubRun
	Cells    int // prompts per scenario
	// SearchHref is the search page.
	SearchHref string
	// Pager links the hub's pages when it lists more than linkLines runs
	// (pager.go).
	Pager *layout.Pager
}

type hubVariant struct {
	Variant   run.Variant
	Href      string
	Questions int
}

func hubPage(texts *layout.DatasetTexts, entries []*board.Entry, stored map[string]int) *layout.Page {
	d := HubData{Cells: design.NumCells, SearchHref: SearchPath}
	for _, v := range board.Variants {
		if qs := texts.Questions(v); len(qs) > 0 {
			d.Variants = append(d.Variants, hubVariant{v, paths.PromptIndexPath(v), len(qs)})
		}
	}
	for _, e := range entries {
		d.Runs = append(d.Runs, hubRun{layout.LinkRun(e, paths.ScenariosPath(e.ID())), stored[e.ID()]})
	}
	return &layout.Page{Path: paths.TranscriptsPath, Title: "Browse scenarios, prompts and transcripts", Section: layout.SecTranscripts, Body: d}
}

// hubPages is the hub in pages of linkLines runs.
func hubPages(per layout.Paging, whole *layout.Page) []*layout.Page {
	d := whole.Body.(HubData)
	lines := layout.LinkLines(per)
	return lines.Split(whole, "transcripts", "", len(d.Runs), func(k int, pg *layout.Pager, _ string) any {
		dk := d
		pg.Lists = "the list"
		dk.Pager, dk.Runs = pg, layout.PageOf(lines, d.Runs, k)
		return dk
	})
}
