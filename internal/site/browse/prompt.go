package browse

// Prompt pages: per variant, an index of the decision questions and a page
// per question with its 135 prompts, each with the words that differ from
// the baseline person's prompt marked.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/worddiff"
)

type PromptIndexData struct {
	Variant run.Variant
	Rows    []promptIndexRow
}

type promptIndexRow struct {
	Q                    int
	Label                string
	Title, Href, Compare string
	Prompts              int
}

func promptIndexPage(texts *layout.DatasetTexts, variant run.Variant, qs []int) *layout.Page {
	d := PromptIndexData{Variant: variant}
	for _, q := range qs {
		d.Rows = append(d.Rows, promptIndexRow{q, texts.Label(variant, q), texts.ShortTitle(variant, q), paths.PromptPath(variant, q), paths.ComparePath(variant, q), texts.Prompts(variant, q)})
	}
	return &layout.Page{Path: paths.PromptIndexPath(variant), Title: "Prompts · " + string(variant), Section: layout.SecNone, Body: d}
}

type PromptData struct {
	Variant     run.Variant
	Q           int
	Title       string
	CompareHref string
	IndexHref   string
	Source      string
	Cells       int // prompts per scenario
	Prompts     []promptRow
	Prev, Next  string
}

type promptRow struct {
	Anchor, Label     string
	Age               int
	Gender, Race      string
	Present, Baseline bool
	Segments          []segment
	Changed           string // "3 changes"
}

type segment struct {
	Op   string // "", "del" or "ins"
	Text string
	// Ins and Del are Op as fields, which the template reads without a
	// function call (a prompt page has thousands of segments).
	Ins, Del bool
}

// diffSegments marks the words of text that differ from base, and counts
// the places where words changed (a replacement, an insertion or a
// deletion counts once). White space is never marked: a difference of
// spacing only (a doubled space, a line break) shows as the variant's own
// text, and the spaces around a changed word are left unmarked, so that no
// struck or underlined blank appears. The unmarked and inserted segments
// still join to text exactly.
func DiffSegments(base, text string) (segs []segment, changed int) {
	add := func(op, t string) {
		if t == "" {
			return
		}
		if n := len(segs); n > 0 && segs[n-1].Op == op {
			segs[n-1].Text += t
			return
		}
		segs = append(segs, segment{Op: op, Text: t, Ins: op == "ins", Del: op == "del"})
	}
	for _, s := range worddiff.Diff(base, text) {
		if s.Op == worddiff.Equal {
			add("", s.Text)
			continue
		}
		core := strings.TrimSpace(s.Text)
		if core == "" {
			if s.Op == worddiff.Insert {
				add("", s.Text) // the variant's own spacing, unmarked
			}
			continue
		}
		i := strings.Index(s.Text, core)
		op := "del"
		if n := len(segs); s.Op == worddiff.Delete || n == 0 || segs[n-1].Op != "del" {
			changed++ // an insertion right after a deletion replaces it
		}
		if s.Op == worddiff.Insert {
			op = "ins"
			add("", s.Text[:i])
		}
		add(op, core)
		if op == "ins" {
			add("", s.Text[i+len(core):])
		}
	}
	return segs, changed
}

func promptPage(texts *layout.DatasetTexts, variant run.Variant, q int, qs []int, pos int) *layout.Page {
	d := PromptData{Variant: variant, Q: q, Title: texts.Title(variant, q), CompareHref: paths.ComparePath(variant, q), IndexHref: paths.PromptIndexPath(variant), Cells: design.NumCells}
	if pos > 0 {
		d.Prev = paths.PromptPath(variant, qs[pos-1])
	}
	if pos+1 < len(qs) {
		d.Next = paths.PromptPath(variant, qs[pos+1])
	}
	base, hasBase := texts.Text(variant, q, design.Baseline)
	owners := map[string]bool{}
	for _, c := range design.Cells() {
		r := promptRow{Anchor: c.Anchor(), Label: c.Label(), Baseline: c == design.Baseline}
		t, ok := texts.Owned(variant, design.Prompt{Q: q, Cell: c})
		r.Present = ok
		if ok {
			owners[t.Owner] = true
			if hasBase && !r.Baseline {
				var n int
				r.Segments, n = DiffSegments(base, t.Text)
				r.Changed = show.Plural(n, "change")
			} else {
				r.Segments = []segment{{Text: t.Text}}
			}
		}
		d.Prompts = append(d.Prompts, r)
	}
	var src []string
	for o := range owners {
		src = append(src, o)
	}
	sort.Strings(src)
	d.Source = strings.Join(src, ", ")
	return &layout.Page{Path: paths.PromptPath(variant, q), Title: fmt.Sprintf("Question %d · %s prompts", q, variant), Section: layout.SecNone, Body: d}
}

// promptPageInputs hashes everything promptPage reads, for the page memo
// (emitKeyed): the variant, the question and its neighbours, and each
// prompt's whole text with the run it came from (not the 64-bit
// fingerprints, which two texts made to collide could share).
func PromptPageInputs(texts *layout.DatasetTexts, variant run.Variant, q int, qs []int, pos int) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	prev, next := -1, -1
	if pos > 0 {
		prev = qs[pos-1]
	}
	if pos+1 < len(qs) {
		next = qs[pos+1]
	}
	field(fmt.Sprintf("%s %d %d %d", variant, q, prev, next))
	for _, c := range design.Cells() {
		t, ok := texts.Owned(variant, design.Prompt{Q: q, Cell: c})
		if !ok {
			field("")
			continue
		}
		field("+" + t.Owner)
		field(t.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}
