package site

// Transcript pages: exactly what a run stored for the prompts of one
// decision question — messages, responses, prompts that differ from the
// prompt pages, sampled answers — rendered from a second pass over the
// run's file and split by size.

import (
	"fmt"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

type transcriptData struct {
	RunID, Model string
	Variant      run.Variant
	Q            int
	Page, Pages  int
	ScenarioHref string
	Parts        []partLink // the question's transcript pages, when more than one
	Entries      []transcriptEntry
}

func (transcriptData) kind() kind { return kindTranscript }

type partLink struct {
	N       int
	Href    string
	Current bool
}

type transcriptEntry struct {
	Cell          design.Cell
	Anchor, Label string
	Line          int
	OwnText       string // the prompt as this run stored it, when it differs from the prompt page
	PromptHref    string
	Prompt        string
	Messages      []run.Message
	Response      string
	Decisions     []string
}

func transcriptJob(cfg Config, texts *datasetTexts, e *board.Entry, chunks map[design.Prompt]int, out sink) job {
	return func(r *renderer) error {
		m := e.Run.Manifest
		type key struct{ q, page int }
		entries := map[key][]transcriptEntry{}
		pages := map[int]int{}
		file := e.Run.ScoredFS()
		_, _, _, err := run.EachRow(cfg.Runs, file, cfg.RunsLabel+"/"+file, func(line int, row *run.Row) error {
			c, err := m.ToCell(line, row)
			if err != nil {
				return err
			}
			k := c.Prompt
			n, ok := chunks[k]
			if !ok {
				return nil
			}
			te := transcriptEntry{Cell: c.Cell, Anchor: c.Anchor(), Label: c.Label(), Line: line, PromptHref: anchored(promptPath(m.Variant, c.Q), c.Anchor()),
				Messages: row.Messages, Response: row.Response}
			if text, _ := texts.text(m.Variant, c.Q, c.Cell); text != row.FilledTemplate {
				te.OwnText = row.FilledTemplate
			}
			if row.Prompt != "" && row.Prompt != expandTemplate(m.PromptTemplate, row.FilledTemplate) {
				te.Prompt = row.Prompt
			}
			if m.Scoring == run.Decision {
				te.Decisions = row.Decisions
			}
			entries[key{c.Q, n}] = append(entries[key{c.Q, n}], te)
			if n > pages[c.Q] {
				pages[c.Q] = n
			}
			return nil
		})
		if err != nil {
			return err
		}
		keys := make([]key, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].q != keys[j].q {
				return keys[i].q < keys[j].q
			}
			return keys[i].page < keys[j].page
		})
		for _, k := range keys {
			es := entries[k]
			sort.Slice(es, func(i, j int) bool { return es[i].Line < es[j].Line })
			d := transcriptData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Q: k.q, Page: k.page, Pages: pages[k.q],
				ScenarioHref: scenarioPath(e.ID(), k.q), Entries: es}
			title := fmt.Sprintf("Transcripts · question %d · %s", k.q, m.Model.Name)
			if d.Pages > 1 {
				title += fmt.Sprintf(" (part %d of %d)", k.page, d.Pages)
				for n := 1; n <= d.Pages; n++ {
					d.Parts = append(d.Parts, partLink{n, transcriptPath(e.ID(), k.q, n), n == k.page})
				}
			}
			if err := r.emitTo(&page{Path: transcriptPath(e.ID(), k.q, k.page), Title: title, Section: secTranscripts, Body: d}, out); err != nil {
				return err
			}
		}
		return nil
	}
}
