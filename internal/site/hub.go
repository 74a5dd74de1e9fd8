package site

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// browserPages queues the pages of the browser that span runs: per
// variant the prompt index, the prompt pages and the compare pages; and
// the hub.
func browserPages(in *loaded, sc *scored, pool *pool) {
	for _, variant := range board.Variants {
		qs := in.texts.questions(variant)
		if len(qs) == 0 {
			continue
		}
		var runs []*board.Entry
		for _, e := range sc.entries {
			if e.Run.Manifest.Variant == variant {
				runs = append(runs, e)
			}
		}
		pool.page(promptIndexPage(in.texts, variant, qs))
		for i, q := range qs {
			pool.submit(func(r *renderer) error {
				js, err := promptDataJS(in.texts, variant, q)
				if err != nil {
					return err
				}
				if err := r.out.put(promptDataPath(variant, q), js); err != nil {
					return err
				}
				build := func() *page { return promptPage(in.texts, variant, q, qs, i) }
				if err := r.emitKeyed(promptPath(variant, q), kindName[promptData](r), promptPageInputs(in.texts, variant, q, qs, i), build); err != nil {
					return err
				}
				for _, p := range comparePages(in.texts, sc, variant, q, runs) {
					if err := r.emitMemo(p); err != nil {
						return err
					}
				}
				return nil
			})
		}
	}
	for _, p := range hubPages(sc.per, hubPage(in.texts, sc.entries, sc.transcripts)) {
		pool.page(p)
	}
}

// hubRun is a run on the hub, with how many of its prompts have a
// transcript.
type hubRun struct {
	runLink
	Transcripts int
}

type hubData struct {
	Variants []hubVariant
	Runs     []hubRun
	Cells    int // prompts per scenario
	// SearchHref is the search page.
	SearchHref string
	// Pager links the hub's pages when it lists more than linkLines runs
	// (pager.go).
	Pager *pager
}

type hubVariant struct {
	Variant   run.Variant
	Href      string
	Questions int
}

func hubPage(texts *datasetTexts, entries []*board.Entry, stored map[string]int) *page {
	d := hubData{Cells: design.NumCells, SearchHref: searchPath}
	for _, v := range board.Variants {
		if qs := texts.questions(v); len(qs) > 0 {
			d.Variants = append(d.Variants, hubVariant{v, promptIndexPath(v), len(qs)})
		}
	}
	for _, e := range entries {
		d.Runs = append(d.Runs, hubRun{runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + string(e.Run.Manifest.Variant), e.Run.Manifest.Intervention, scenariosPath(e.ID())}, stored[e.ID()]})
	}
	return &page{Path: transcriptsPath, Title: "Browse scenarios, prompts and transcripts", Section: secTranscripts, Body: d}
}

// hubPages is the hub in pages of linkLines runs.
func hubPages(per paging, whole *page) []*page {
	d := whole.Body.(hubData)
	lines := linkLines(per)
	return lines.split(whole, "transcripts", "", len(d.Runs), func(k int, pg *pager, _ string) any {
		dk := d
		pg.Lists = "the list"
		dk.Pager, dk.Runs = pg, pageOf(lines, d.Runs, k)
		return dk
	})
}
