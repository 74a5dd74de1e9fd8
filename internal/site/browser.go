package site

// The transcript browser: per variant, prompt pages with the full texts
// (shown once, whatever the number of runs) and a page comparing all runs
// on the same prompts; per run, a scenario index, a scenario page per
// decision question (the 135-cell grid) and, when the run stored
// transcripts, transcript pages; and a hub.

import (
	"maps"
	"slices"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/scenarios"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// runPages queues a run's own pages: its scenario index, a scenario page
// per question, its provenance page and, when it stored transcripts, its
// transcript pages (rendered from a second pass over its file). They need
// the run's prompts, which the pages spanning runs do not keep. The
// capture records how many of the run's prompts have a transcript, for the
// hub.
func runPages(cfg stage.Config, in *stage.Loaded, e *board.Entry, cells map[int]*score.QuestionCells, infos layout.PromptInfos, pool *render.Pool, out *capture) error {
	chunks := transcriptChunks(in.Texts, infos, cells, e)
	out.transcripts = len(chunks)
	idx := scenarios.ScenarioIndexPage(in.Texts, e, cells)
	prov, err := datapage.RunProvenancePage(in, e)
	if err != nil {
		return err
	}
	tpl, err := grid.RunTemplateJS(e.Run.Manifest)
	if err != nil {
		return err
	}
	pool.Submit(out.job(func(r *render.Renderer) error {
		if err := out.Put(grid.RunTemplatePath(e.ID()), tpl); err != nil {
			return err
		}
		if err := r.EmitTo(idx, out); err != nil {
			return err
		}
		return r.EmitTo(prov, out)
	}))
	swings := runpage.SwingsPage(in.Texts, e, score.RunSwings(grid.SwingCells(e.Run.Manifest, cells), e.Run.Manifest.Scoring == run.Decision))
	pool.Submit(out.job(func(r *render.Renderer) error { return r.EmitTo(swings, out) }))
	ids := slices.Sorted(maps.Keys(cells))
	scen := new(scenarios.ScenarioRun)
	for i, q := range ids {
		pool.Submit(out.job(func(r *render.Renderer) error {
			p := scenarios.ScenarioPage(in.Texts, infos, e, q, cells[q], chunks, ids, i)
			f, err := scenarios.WriteScenario(r, scen, p)
			if err == nil && cfg.CheckWritten != nil {
				err = cfg.CheckWritten(r, p, f.Data)
			}
			if err != nil {
				return err
			}
			return out.Put(f.Path, f.Data)
		}))
	}
	if len(chunks) > 0 {
		pool.Submit(out.job(scenarios.TranscriptJob(cfg, in.Texts, e, chunks, cells, out)))
	}
	return nil
}

// transcriptBudget bounds the text on one transcript page, so that no page
// gets near 500 KB however long a run's transcripts are.
const transcriptBudget = 300_000

// transcriptChunks decides, before any transcript is read, which transcript
// page each prompt of a run lands on: prompts with a transcript or with a
// text that differs from the prompt pages, per question, split by size.
func transcriptChunks(texts *layout.DatasetTexts, infos layout.PromptInfos, cells map[int]*score.QuestionCells, e *board.Entry) map[design.Prompt]int {
	chunks := map[design.Prompt]int{}
	dc := design.Cells()
	var have [design.NumCells]string
	var haveHash [design.NumCells]uint64
	for _, q := range slices.Sorted(maps.Keys(infos)) {
		page, size := 1, 0
		texts.QuestionTexts(e.Run.Manifest.Variant, q, &have, &haveHash)
		for i, info := range infos[q] {
			if !info.Present {
				continue
			}
			k := design.Prompt{Q: q, Cell: dc[i]}
			t := layout.OwnedText{Text: have[i], Hash: haveHash[i]}
			differs := t.Hash != info.Hash
			other := false
			if qs := cells[k.Q]; qs != nil {
				other = qs[k.Index()].Cell.Other > 0
			}
			if info.Transcript == 0 && !differs && !other {
				continue
			}
			// The numbers, and the dataset's prompt folded under each entry.
			n := info.Transcript + 600 + len(t.Text)
			if differs {
				n += len(t.Text) * 2
			}
			if size > 0 && size+n > transcriptBudget {
				page, size = page+1, 0
			}
			size += n
			chunks[k] = page
		}
	}
	return chunks
}

// The hub.
