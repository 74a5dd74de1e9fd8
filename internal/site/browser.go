package site

// The transcript browser: per variant, prompt pages with the full texts
// (shown once, whatever the number of runs) and a page comparing all runs
// on the same prompts; per run, a scenario index, a scenario page per
// decision question (the 135-cell grid) and, when the run stored
// transcripts, transcript pages; and a hub.

import (
	"crypto/sha256"
	"encoding/binary"
	"iter"
	"maps"
	"slices"
	"strings"

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
			f, err := r.scenario(scen, p)
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
				if err := r.emitKeyed(promptPath(variant, q), kindName[promptData](), promptPageInputs(in.texts, variant, q, qs, i), build); err != nil {
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

// textInfo is what a run's reading keeps of each prompt's texts: a hash
// of the prompt (to find prompts that differ from the prompt pages) and the
// size of its transcript (to split transcript pages before reading them).
type textInfo struct {
	present    bool // the run has the prompt
	hash       uint64
	transcript int // bytes of transcript text; 0 when the row has none
	// For the transcript of every prompt on the scenario pages (set when
	// the rows are read, not kept in the cache, which keeps the pages):
	// the forms that were upper bounds (boundedForms), and a decision
	// run's sampled answers as written.
	bounded uint32
	answers []string
}

// promptInfos are a run's textInfo, a grid of 135 per question: a run has
// most of a question's prompts, and a grid is cheaper to fill and to walk
// in design order than a map of 9,450 prompts (a cached rebuild makes one
// per run).
type promptInfos map[int]*[design.NumCells]textInfo

func (pi promptInfos) set(p design.Prompt, info textInfo) {
	g := pi[p.Q]
	if g == nil {
		g = new([design.NumCells]textInfo)
		pi[p.Q] = g
	}
	info.present = true
	g[p.Index()] = info
}

func (pi promptInfos) get(p design.Prompt) (textInfo, bool) {
	if g := pi[p.Q]; g != nil {
		t := g[p.Index()]
		return t, t.present
	}
	return textInfo{}, false
}

// all yields the run's prompts in design order: by question, then cell.
func (pi promptInfos) all() iter.Seq2[design.Prompt, textInfo] {
	return func(yield func(design.Prompt, textInfo) bool) {
		cells := design.Cells()
		for _, q := range slices.Sorted(maps.Keys(pi)) {
			for i, t := range pi[q] {
				if t.present && !yield(design.Prompt{Q: q, Cell: cells[i]}, t) {
					return
				}
			}
		}
	}
}

// hashText is a prompt text's fingerprint: SHA-256, cut to 64 bits, so
// that no run can make a different prompt look like the dataset's (and it
// is faster here than FNV).
func hashText(s string) uint64 { return hashBytes64([]byte(s)) }

// hashBytes64 is hashText of a text's bytes.
func hashBytes64(b []byte) uint64 {
	sum := sha256.Sum256(b)
	return binary.LittleEndian.Uint64(sum[:8])
}

// transcriptSize is the length of what a transcript page would show for a
// row beyond its numbers: messages, a response, a prompt that is not just
// the template filled in, and answers that were neither yes nor no.
func transcriptSize(m *run.Manifest, row *run.Row) int {
	n := len(row.Response)
	for _, msg := range row.Messages {
		n += len(msg.Content) + len(msg.Role)
	}
	if row.Prompt != "" && row.Prompt != expandTemplate(m.PromptTemplate, row.FilledTemplate) {
		n += len(row.Prompt)
	}
	return n
}

func expandTemplate(tpl, filled string) string {
	if tpl == "" || !strings.Contains(tpl, "{filled_template}") {
		return ""
	}
	return strings.ReplaceAll(tpl, "{filled_template}", filled)
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

// runLink links to one run from a list.
type runLink struct {
	ID, Model, Intervention, Href string
}

// hubRun is a run on the hub, with how many of its prompts have a
// transcript.
type hubRun struct {
	runLink
	Transcripts int
}

// The hub.

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
