package scenarios

// Transcript pages: exactly what a run stored for the prompts of one
// decision question — messages, responses, prompts that differ from the
// prompt pages, sampled answers — rendered from a second pass over the
// run's file and split by size.

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

type TranscriptData struct {
	RunID, Model, Intervention       string
	Variant                          run.Variant
	Q                                int
	Label                            string // the scenario's short label
	Page, Pages                      int
	RunHref, IndexHref, ScenarioHref string
	Parts                            []partLink // the question's transcript pages, when more than one
	Entries                          []transcriptEntry
	// Stored is how many of the question's Cells prompts have a transcript
	// (on any part); Prev and Next are the previous and next questions'
	// transcripts.
	Stored, Cells int
	Prev, Next    string
	Decision      bool
}

type partLink struct {
	N       int
	Href    string
	Current bool
}

type transcriptEntry struct {
	Cell          design.Cell
	Anchor, Label string
	Line          int
	Text          string // the prompt's dataset text, shown folded
	OwnText       string // the prompt as this run stored it, when it differs from the prompt page
	PromptHref    string
	Prompt        string
	Messages      []message
	Response      string
	Answers       []answer
	// Result is the cell's P(yes) or share of yes answers and its
	// difference from the baseline person; Differs says the decision it
	// leans to is not the baseline person's (for the filter).
	Result, Delta, Class string
	Differs              bool
}

// message is one message of a transcript, with the CSS class of its role.
type message struct {
	Role, Class, Content string
}

// answer is a sampled answer as written, with how it was counted.
type answer struct {
	Text, Counted string
}

// roleClass styles a message by role; roles other than the usual ones
// share a style.
func roleClass(role string) string {
	switch role {
	case "system", "user", "assistant", "tool":
		return "role-" + role
	}
	return "role-other"
}

// cellResult is a prompt's result as a transcript shows it, and whether
// its decision (the side of one half it leans to) differs from the
// baseline person's.
func cellResult(s, base score.CellStat, decision bool) (result, delta, class string, differs bool) {
	if !s.Present {
		return "", "", "", false
	}
	if decision {
		result = fmt.Sprintf("%d yes, %d no", s.Cell.Yes, s.Cell.No)
		if s.Cell.Other > 0 {
			result += fmt.Sprintf(", %d unparsed", s.Cell.Other)
		}
		if !math.IsNaN(s.P) {
			result += " · share of yes " + show.Fixed(100*s.P, 0) + "%"
		}
	} else {
		result = "P(yes) " + show.Fixed(s.P, 2)
	}
	if s.HasBase {
		delta, class = show.Signed(s.Delta, show.DeltaDecimals(decision))+" "+deltaUnit(decision), grid.ColourClass(s.Delta, decision)
		differs = base.Present && !math.IsNaN(s.P) && !math.IsNaN(base.P) && (s.P >= 0.5) != (base.P >= 0.5)
	}
	return result, delta, class, differs
}

// deltaUnit is the unit of a difference from the baseline person.
func deltaUnit(decision bool) string {
	if decision {
		return "pp"
	}
	return "logit"
}

func TranscriptJob(cfg stage.Config, texts *layout.DatasetTexts, e *board.Entry, chunks map[design.Prompt]int, cells map[int]*score.QuestionCells, out outdir.Sink) render.Job {
	return func(r *render.Renderer) error {
		m := e.Run.Manifest
		decision := m.Scoring == run.Decision
		stored := map[int]int{}
		for k := range chunks {
			stored[k.Q]++
		}
		qs := slices.Sorted(maps.Keys(stored))
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
			te := newTranscriptEntry(texts, m, cells[c.Q], line, c, row)
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
			d := TranscriptData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Q: k.q,
				Label: texts.Label(m.Variant, k.q), Page: k.page, Pages: pages[k.q],
				RunHref: paths.RunPath(e.ID()), IndexHref: paths.ScenariosPath(e.ID()), ScenarioHref: paths.ScenarioPath(e.ID(), k.q), Entries: es,
				Stored: stored[k.q], Cells: design.NumCells, Decision: decision}
			if i := slices.Index(qs, k.q); i > 0 {
				d.Prev = paths.TranscriptPath(e.ID(), qs[i-1], 1)
			}
			if i := slices.Index(qs, k.q); i+1 < len(qs) {
				d.Next = paths.TranscriptPath(e.ID(), qs[i+1], 1)
			}
			title := fmt.Sprintf("Transcripts · question %d · %s", k.q, m.Model.Name)
			if d.Pages > 1 {
				title += fmt.Sprintf(" (part %d of %d)", k.page, d.Pages)
				for n := 1; n <= d.Pages; n++ {
					d.Parts = append(d.Parts, partLink{n, paths.TranscriptPath(e.ID(), k.q, n), n == k.page})
				}
			}
			if err := r.EmitTo(&layout.Page{Path: paths.TranscriptPath(e.ID(), k.q, k.page), Title: title, Section: layout.SecNone, Body: d}, out); err != nil {
				return err
			}
		}
		return nil
	}
}

// newTranscriptEntry is one row's transcript: its messages, its result
// against the baseline person (qc: its question's cells, nil when none),
// and its prompt where it differs from the dataset's or the template's.
func newTranscriptEntry(texts *layout.DatasetTexts, m *run.Manifest, qc *score.QuestionCells, line int, c run.Cell, row *run.Row) transcriptEntry {
	te := transcriptEntry{Cell: c.Cell, Anchor: c.Anchor(), Label: c.Label(), Line: line, PromptHref: paths.Anchored(paths.PromptPath(m.Variant, c.Q), c.Anchor()),
		Response: row.Response}
	for _, msg := range row.Messages {
		te.Messages = append(te.Messages, message{msg.Role, roleClass(msg.Role), msg.Content})
	}
	if qc != nil {
		te.Result, te.Delta, te.Class, te.Differs = cellResult(qc[c.Cell.Index()], qc[design.Baseline.Index()], m.Scoring == run.Decision)
	}
	if text, _ := texts.Text(m.Variant, c.Q, c.Cell); text != row.FilledTemplate {
		te.OwnText = row.FilledTemplate
	} else {
		te.Text = text
	}
	if row.Prompt != "" && row.Prompt != layout.ExpandTemplate(m.PromptTemplate, row.FilledTemplate) {
		te.Prompt = row.Prompt
	}
	for _, a := range row.Decisions {
		counted := "unparsed"
		if yes, ok := m.Choices.ParseAnswer(a); ok && yes {
			counted = "yes"
		} else if ok {
			counted = "no"
		}
		te.Answers = append(te.Answers, answer{a, counted})
	}
	return te
}
