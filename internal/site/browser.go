package site

// The transcript browser: per variant, prompt pages with the full texts
// (shown once, whatever the number of runs) and a page comparing all runs
// on the same prompts; per run, a scenario index, a scenario page per
// decision question (the 135-cell grid and every variant's numbers) and,
// when the run stored transcripts, transcript pages; and a hub.

import (
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// transcriptBrowser builds the browser's pages, and the page groups that
// render transcripts from a second pass over each run's file.
func transcriptBrowser(in *loaded, sc *scored) ([]*page, []pageGroup, error) {
	var pages []*page
	var groups []pageGroup
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
		pages = append(pages, promptIndexPage(in.texts, variant, qs))
		for i, q := range qs {
			pages = append(pages, promptPage(in.texts, sc, variant, q, qs, i, runs), comparePage(in.texts, sc, variant, q, runs))
		}
	}
	for _, e := range sc.entries {
		cells := sc.cells[e.ID()]
		chunks := transcriptChunks(in, sc, e)
		idx, err := scenarioIndexPage(in.texts, e, cells)
		if err != nil {
			return nil, nil, err
		}
		pages = append(pages, idx)
		ids := slices.Sorted(maps.Keys(cells))
		for i, q := range ids {
			pages = append(pages, scenarioPage(in, e, q, cells[q], chunks, ids, i))
		}
		if len(chunks) > 0 {
			groups = append(groups, transcriptGroup(in.texts, e, chunks))
		}
	}
	pages = append(pages, hubPage(in.texts, sc.entries))
	return pages, groups, nil
}

// runTexts is what the load pass keeps of a run's texts: a hash of each
// prompt (to find prompts that differ from the prompt pages) and the size of
// each transcript (to split transcript pages before reading them).
type runTexts struct {
	mu    sync.Mutex
	byRun map[string]map[design.Prompt]textInfo
}

func newRunTexts() *runTexts { return &runTexts{byRun: map[string]map[design.Prompt]textInfo{}} }

type textInfo struct {
	hash       uint64
	transcript int // bytes of transcript text; 0 when the row has none
}

func hashText(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func (t *runTexts) hook(r *run.Run, c run.Cell, row *run.Row) {
	info := textInfo{hash: hashText(row.FilledTemplate), transcript: transcriptSize(r.Manifest, row)}
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.byRun[r.ID]
	if m == nil {
		m = map[design.Prompt]textInfo{}
		t.byRun[r.ID] = m
	}
	m[c.Prompt] = info
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
func transcriptChunks(in *loaded, sc *scored, e *board.Entry) map[design.Prompt]int {
	infos := in.runTexts.byRun[e.ID()]
	chunks := map[design.Prompt]int{}
	byQ := map[int][]design.Prompt{}
	for k := range infos {
		byQ[k.Q] = append(byQ[k.Q], k)
	}
	for _, q := range slices.Sorted(maps.Keys(byQ)) {
		ks := byQ[q]
		sort.Slice(ks, func(i, j int) bool { return ks[i].Index() < ks[j].Index() })
		page, size := 1, 0
		for _, k := range ks {
			info := infos[k]
			text, _ := in.texts.text(e.Run.Manifest.Variant, k.Q, k.Cell)
			differs := hashText(text) != info.hash
			other := false
			if qs := sc.cells[e.ID()][k.Q]; qs != nil {
				other = qs[k.Index()].Cell.Other > 0
			}
			if info.transcript == 0 && !differs && !other {
				continue
			}
			n := info.transcript + 400
			if differs {
				n += len(text) * 2
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

// The hub.

type hubData struct {
	Variants []hubVariant
	Runs     []runLink
	Cells    int // prompts per scenario
}

func (hubData) kind() kind { return kindHub }

type hubVariant struct {
	Variant   run.Variant
	Href      string
	Questions int
}

func hubPage(texts *datasetTexts, entries []*board.Entry) *page {
	d := hubData{Cells: design.NumCells}
	for _, v := range board.Variants {
		if qs := texts.questions(v); len(qs) > 0 {
			d.Variants = append(d.Variants, hubVariant{v, promptIndexPath(v), len(qs)})
		}
	}
	for _, e := range entries {
		d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + string(e.Run.Manifest.Variant), e.Run.Manifest.Intervention, scenariosPath(e.ID())})
	}
	return &page{Path: transcriptsPath, Title: "Transcript browser", Section: secTranscripts, Body: d}
}
