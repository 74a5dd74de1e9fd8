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
)

// runPages queues a run's own pages: its scenario index, a scenario page
// per question, its provenance page and, when it stored transcripts, its
// transcript pages (rendered from a second pass over its file). They need
// the run's prompts, which the pages spanning runs do not keep. The
// capture records how many of the run's prompts have a transcript, for the
// hub.
func runPages(cfg Config, in *loaded, e *board.Entry, cells map[int]*score.QuestionCells, infos promptInfos, pool *pool, out *capture) error {
	chunks := transcriptChunks(in.texts, infos, cells, e)
	out.transcripts = len(chunks)
	idx := scenarioIndexPage(in.texts, e, cells)
	prov, err := runProvenancePage(in, e)
	if err != nil {
		return err
	}
	tpl, err := runTemplateJS(e.Run.Manifest)
	if err != nil {
		return err
	}
	pool.submit(out.job(func(r *renderer) error {
		if err := out.put(runTemplatePath(e.ID()), tpl); err != nil {
			return err
		}
		if err := r.emitTo(idx, out); err != nil {
			return err
		}
		return r.emitTo(prov, out)
	}))
	swings := swingsPage(in.texts, e, score.RunSwings(swingCells(e.Run.Manifest, cells), e.Run.Manifest.Scoring == run.Decision))
	pool.submit(out.job(func(r *renderer) error { return r.emitTo(swings, out) }))
	ids := slices.Sorted(maps.Keys(cells))
	scen := new(scenarioRun)
	for i, q := range ids {
		pool.submit(out.job(func(r *renderer) error {
			p := scenarioPage(in.texts, infos, e, q, cells[q], chunks, ids, i, in.content.Site.RunsURL)
			f, err := writeScenario(r, scen, p)
			if err == nil && cfg.checkWritten != nil {
				err = cfg.checkWritten(r, p, f.Data)
			}
			if err != nil {
				return err
			}
			return out.put(f.Path, f.Data)
		}))
	}
	if len(chunks) > 0 {
		pool.submit(out.job(transcriptJob(cfg, in.texts, e, chunks, cells, out)))
	}
	return nil
}

// transcriptBudget bounds the text on one transcript page, so that no page
// gets near 500 KB however long a run's transcripts are.
const transcriptBudget = 300_000

// transcriptChunks decides, before any transcript is read, which transcript
// page each prompt of a run lands on: prompts with a transcript or with a
// text that differs from the prompt pages, per question, split by size.
func transcriptChunks(texts *datasetTexts, infos promptInfos, cells map[int]*score.QuestionCells, e *board.Entry) map[design.Prompt]int {
	chunks := map[design.Prompt]int{}
	dc := design.Cells()
	var have [design.NumCells]string
	var haveHash [design.NumCells]uint64
	for _, q := range slices.Sorted(maps.Keys(infos)) {
		page, size := 1, 0
		texts.questionTexts(e.Run.Manifest.Variant, q, &have, &haveHash)
		for i, info := range infos[q] {
			if !info.present {
				continue
			}
			k := design.Prompt{Q: q, Cell: dc[i]}
			t := ownedText{text: have[i], hash: haveHash[i]}
			differs := t.hash != info.hash
			other := false
			if qs := cells[k.Q]; qs != nil {
				other = qs[k.Index()].Cell.Other > 0
			}
			if info.transcript == 0 && !differs && !other {
				continue
			}
			// The numbers, and the dataset's prompt folded under each entry.
			n := info.transcript + 600 + len(t.text)
			if differs {
				n += len(t.text) * 2
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
