package site

import (
	"fmt"
	"hash/fnv"
	"html/template"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/worddiff"
)

// The transcript browser: per variant, prompt pages with the full texts
// (shown once, whatever the number of runs); per run, a scenario index, a
// scenario page per decision question (the 135-cell grid and the numbers of
// every variant) and, when the run stored transcripts, transcript pages;
// per variant and question, a page comparing all runs on the same prompts.

func promptIndexPath(variant string) string { return "prompts/" + variant + "/index.html" }
func promptPath(variant string, q int) string {
	return "prompts/" + variant + "/q" + strconv.Itoa(q) + ".html"
}
func comparePath(variant string, q int) string {
	return "compare/" + variant + "/q" + strconv.Itoa(q) + ".html"
}
func scenariosPath(id string) string       { return "runs/" + id + "/scenarios.html" }
func scenarioPath(id string, q int) string { return "runs/" + id + "/q" + strconv.Itoa(q) + ".html" }
func transcriptPath(id string, q, n int) string {
	s := "runs/" + id + "/q" + strconv.Itoa(q) + "-transcripts"
	if n > 1 {
		s += "-" + strconv.Itoa(n)
	}
	return s + ".html"
}

// transcriptBudget bounds the text on one transcript page, so that no page
// gets near 500 KB however long a run's transcripts are.
const transcriptBudget = 300_000

// runTexts is what the load pass keeps of a run's texts: a hash of each
// prompt (to find prompts that differ from the prompt pages) and the size of
// each transcript (to split transcript pages before reading them).
type runTexts struct {
	mu    sync.Mutex
	byRun map[string]map[qcell]textInfo
}

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
		m = map[qcell]textInfo{}
		t.byRun[r.ID] = m
	}
	m[qcell{c.Q, c.Cell}] = info
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

// cellStat holds one run's numbers for one prompt.
type cellStat struct {
	present bool
	line    int
	p       float64 // P(yes) normalised: P(yes)/(P(yes)+P(no)), or the share of yes answers
	delta   float64 // logit points (logprob runs) or percentage points (decision runs) from the baseline cell
	hasBase bool
	cell    run.Cell
}

// questionStats returns, per question, the run's 135 cells in design order.
func questionStats(r *run.Run) map[int]*[design.NumCells]cellStat {
	out := map[int]*[design.NumCells]cellStat{}
	decision := r.Manifest.Scoring == run.Decision
	for _, c := range r.Cells {
		qs := out[c.Q]
		if qs == nil {
			qs = new([design.NumCells]cellStat)
			out[c.Q] = qs
		}
		s := cellStat{present: true, line: c.Line, cell: c}
		if decision {
			s.p = math.NaN()
			if c.Yes+c.No > 0 {
				s.p = float64(c.Yes) / float64(c.Yes+c.No)
			}
		} else {
			s.p = 1 / (1 + math.Exp(-c.Logit))
		}
		qs[c.Cell.Index()] = s
	}
	bi := design.Baseline.Index()
	for _, qs := range out {
		base := qs[bi]
		for i := range qs {
			if !qs[i].present || !base.present {
				continue
			}
			if decision {
				qs[i].delta = 100 * (qs[i].p - base.p)
			} else {
				qs[i].delta = qs[i].cell.Logit - base.cell.Logit
			}
			qs[i].hasBase = !math.IsNaN(qs[i].delta)
		}
	}
	return out
}

// Cut points of the colour scale: logit points for logprob runs (the
// charts' scale), percentage points of the share of yes answers for
// decision runs.
var (
	logitCuts = chart.LogitCuts[:]
	shareCuts = []float64{2, 10, 20, 30}
)

// bucket maps a deviation to one of nine colour classes, 0…8 with 4
// neutral, on the diverging scale defined in site.css.
func bucket(delta float64, decision bool) int {
	if decision {
		return chart.BucketCuts(delta, shareCuts)
	}
	return chart.Bucket(delta)
}

// Template data.

type gridCell struct {
	Anchor, Label string
	Present       bool
	P, Delta      string
	Class         string
	Baseline      bool
}

type gridRow struct {
	Age   int
	Cells []gridCell
}

type gridHead struct {
	Gender string
	Races  []string
}

// variantRow is one row of a scenario page. Rows are kept lean: a run has
// 9,450 of them, and each byte here costs 9 KB per run.
type variantRow struct {
	Anchor, Label string
	Present       bool
	Delta, Mass   string
	Class         string
	Baseline      bool
	LP            string // the forms' log-probabilities, in the manifest's order
	Decisions     string
	Transcript    string // link to the transcript, if any
	TextDiffers   bool
}

type scenarioData struct {
	RunID, Model, Variant, Intervention string
	Decision                            bool
	Q                                   int
	Title                               string
	PromptHref, CompareHref, IndexHref  string
	RunHref                             string
	Unit                                string
	Heads                               []gridHead
	Grid                                []gridRow
	Rows                                []variantRow
	Forms                               []string
	Transcripts                         bool // some variant has a transcript or its own text
	Span                                int  // columns after the label
	NoBaseline                          bool
	Coefs                               []coefCell
	Prev, Next                          string
}

type coefCell struct {
	Name, Value, Class, Sort string
}

func (b *builder) transcriptPages() error {
	b.stats = map[string]map[int]*[design.NumCells]cellStat{}
	for _, e := range b.entries {
		b.stats[e.ID()] = questionStats(e.Run)
	}
	for _, variant := range board.Variants {
		qs := b.texts.questions(variant)
		if len(qs) == 0 {
			continue
		}
		var runs []*board.Entry
		for _, e := range b.entries {
			if e.Run.Manifest.Variant == variant {
				runs = append(runs, e)
			}
		}
		b.pages = append(b.pages, b.promptIndexPage(variant, qs, runs))
		for i, q := range qs {
			b.pages = append(b.pages, b.promptPage(variant, q, qs, i, runs), b.comparePage(variant, q, runs))
		}
	}
	for _, e := range b.entries {
		stats := b.stats[e.ID()]
		chunks := b.transcriptChunks(e)
		idx, err := b.scenarioIndexPage(e, stats)
		if err != nil {
			return err
		}
		b.pages = append(b.pages, idx)
		ids := sortedKeys(stats)
		for i, q := range ids {
			b.pages = append(b.pages, b.scenarioPage(e, q, stats[q], chunks, ids, i))
		}
		if len(chunks) > 0 {
			b.groups = append(b.groups, b.transcriptGroup(e, chunks))
		}
	}
	b.pages = append(b.pages, b.transcriptHub())
	return nil
}

func sortedKeys[V any](m map[int]V) []int {
	ids := make([]int, 0, len(m))
	for k := range m {
		ids = append(ids, k)
	}
	sort.Ints(ids)
	return ids
}

// transcriptChunks decides, before any transcript is read, which transcript
// page each prompt of a run lands on: prompts with a transcript or with a
// text that differs from the prompt pages, per question, split by size.
func (b *builder) transcriptChunks(e *board.Entry) map[qcell]int {
	infos := b.runTexts.byRun[e.ID()]
	chunks := map[qcell]int{}
	byQ := map[int][]qcell{}
	for k := range infos {
		byQ[k.Q] = append(byQ[k.Q], k)
	}
	for _, q := range sortedKeys(byQ) {
		ks := byQ[q]
		sort.Slice(ks, func(i, j int) bool { return ks[i].C.Index() < ks[j].C.Index() })
		page, size := 1, 0
		for _, k := range ks {
			info := infos[k]
			text, _ := b.texts.text(e.Run.Manifest.Variant, k.Q, k.C)
			differs := hashText(text) != info.hash
			other := false
			if qs := b.stats[e.ID()][k.Q]; qs != nil {
				other = qs[k.C.Index()].cell.Other > 0
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

func (b *builder) scenarioPage(e *board.Entry, q int, qs *[design.NumCells]cellStat, chunks map[qcell]int, ids []int, pos int) *page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := scenarioData{
		RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		Q: q, Title: b.texts.title(m.Variant, q),
		PromptHref: promptPath(m.Variant, q), CompareHref: comparePath(m.Variant, q),
		IndexHref: scenariosPath(e.ID()), RunHref: runPath(e.ID()),
		Unit: "logit points",
	}
	if decision {
		d.Unit = "percentage points of the share of yes answers"
	}
	if pos > 0 {
		d.Prev = scenarioPath(e.ID(), ids[pos-1])
	}
	if pos+1 < len(ids) {
		d.Next = scenarioPath(e.ID(), ids[pos+1])
	}
	d.NoBaseline = !qs[design.Baseline.Index()].present
	for _, g := range []design.Gender{design.Female, design.Male, design.NonBinary} {
		h := gridHead{Gender: g.String()}
		for _, r := range design.Races {
			h.Races = append(h.Races, r.String())
		}
		d.Heads = append(d.Heads, h)
	}
	d.Forms = m.Choices.Forms()
	d.Transcripts = len(chunks) > 0
	d.Span = 3 - btoi(decision)
	if d.Transcripts {
		d.Span++
	}
	infos := b.runTexts.byRun[e.ID()]
	var row gridRow
	for i, c := range design.Cells() {
		s := qs[i]
		if i%15 == 0 {
			row = gridRow{Age: c.Age}
		}
		gc := gridCell{Anchor: c.Anchor(), Label: c.Label(), Present: s.present, Baseline: c == design.Baseline, Class: "missing"}
		vr := variantRow{Anchor: c.Anchor(), Label: c.Label(), Present: s.present, Baseline: gc.Baseline, Class: "missing"}
		if s.present {
			gc.P = fixed(s.p, 2)
			if s.hasBase {
				gc.Class = "b" + strconv.Itoa(bucket(s.delta, decision))
				gc.Delta, vr.Delta = signed(s.delta, dec(decision)), signed(s.delta, dec(decision))
				vr.Class = gc.Class
			} else {
				gc.Class, vr.Class = "nobase", "nobase"
				gc.Delta, vr.Delta = "n/a", "n/a"
			}
			if decision {
				vr.Decisions = fmt.Sprintf("%d yes, %d no", s.cell.Yes, s.cell.No)
				if s.cell.Other > 0 {
					vr.Decisions += fmt.Sprintf(", %d other", s.cell.Other)
				}
			} else {
				vr.Mass = fixed(s.cell.Mass, 3)
				// ASCII minus signs: four per row, 9,450 rows per run.
				lps := make([]string, len(s.cell.LP))
				for j, lp := range s.cell.LP {
					lps[j] = fixed(lp, 2)
					if math.IsInf(lp, -1) {
						lps[j] = "-inf" // probability zero
					}
				}
				vr.LP = strings.Join(lps, " ")
			}
			k := qcell{q, c}
			if n, ok := chunks[k]; ok {
				vr.Transcript = transcriptPath(e.ID(), q, n) + "#" + c.Anchor()
			}
			text, _ := b.texts.text(m.Variant, q, c)
			vr.TextDiffers = hashText(text) != infos[k].hash
		}
		row.Cells = append(row.Cells, gc)
		d.Rows = append(d.Rows, vr)
		if i%15 == 14 {
			d.Grid = append(d.Grid, row)
		}
	}
	for _, qq := range e.Result.Questions {
		if qq.ID == q {
			for _, c := range design.Coefs {
				d.Coefs = append(d.Coefs, coefCell{c.Name(), signed(qq.Coefs[c], 2), signClass(qq.Coefs[c]), ""})
			}
		}
	}
	title := fmt.Sprintf("Question %d · %s · %s", q, m.Model.Name, m.Variant)
	return &page{Path: scenarioPath(e.ID(), q), Kind: "scenario", Title: title, Section: "transcripts", Data: d}
}

func itoa(i int) string { return strconv.Itoa(i) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func dec(decision bool) int {
	if decision {
		return 1
	}
	return 2
}

// Scenario index.

type scenarioIndexData struct {
	Heatmap                                      template.HTML
	RunID, Model, Variant, Intervention, RunHref string
	Scored                                       bool
	Names                                        []string
	Rows                                         []scenarioIndexRow
	Drivers                                      int
}

type scenarioIndexRow struct {
	Q              int
	Href, Title    string
	Rows           int
	Coefs          []coefCell
	Sort           []string
	Push, PushSort string
	Driver         bool
}

// scenarioIndexPage lists a run's decision questions with their own
// coefficients. A question "drives" the score when it pushes the composite
// up most: its coefficients, signed in the direction of the run's, summed.
func (b *builder) scenarioIndexPage(e *board.Entry, stats map[int]*[design.NumCells]cellStat) (*page, error) {
	m, res := e.Run.Manifest, e.Result
	d := scenarioIndexData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, RunHref: runPath(e.ID()), Scored: res.Scored}
	for _, c := range design.Coefs {
		d.Names = append(d.Names, c.Name())
	}
	perQ := map[int]int{}
	for i, q := range res.Questions {
		perQ[q.ID] = i
	}
	type push struct {
		q int
		v float64
	}
	var pushes []push
	for _, q := range sortedKeys(stats) {
		n := 0
		for _, s := range stats[q] {
			if s.present {
				n++
			}
		}
		r := scenarioIndexRow{Q: q, Href: scenarioPath(e.ID(), q), Title: b.texts.shortTitle(m.Variant, q), Rows: n}
		if i, ok := perQ[q]; ok && res.Scored {
			var p float64
			for _, c := range design.Coefs {
				v := res.Questions[i].Coefs[c]
				r.Coefs = append(r.Coefs, coefCell{c.Name(), signed(v, 2), signClass(v), sortKey(v)})
				p += math.Copysign(1, res.Coefficients[c].Estimate) * v / float64(design.NumCoefs)
			}
			r.Push, r.PushSort = signed(p, 2), sortKey(p)
			pushes = append(pushes, push{q, p})
		}
		d.Rows = append(d.Rows, r)
	}
	// The five questions pushing hardest are marked, when they push at all.
	sort.Slice(pushes, func(i, j int) bool {
		if pushes[i].v != pushes[j].v {
			return pushes[i].v > pushes[j].v
		}
		return pushes[i].q < pushes[j].q
	})
	top := map[int]bool{}
	for i := 0; i < len(pushes) && i < 5; i++ {
		if pushes[i].v > 0 {
			top[pushes[i].q] = true
		}
	}
	for i := range d.Rows {
		d.Rows[i].Driver = top[d.Rows[i].Q]
	}
	d.Drivers = len(top)
	hm, err := heatmapChart(e)
	if err != nil {
		return nil, fmt.Errorf("%s: heatmap: %w", scenariosPath(e.ID()), err)
	}
	d.Heatmap = hm
	return &page{Path: scenariosPath(e.ID()), Kind: "scenarios", Title: "Scenarios · " + m.Model.Name + " · " + m.Variant, Section: "transcripts", Data: d}, nil
}

// Prompt pages.

type promptIndexData struct {
	Variant string
	Rows    []promptIndexRow
	Runs    []runLink
}

type promptIndexRow struct {
	Q                    int
	Title, Href, Compare string
	Prompts              int
}

type runLink struct {
	ID, Model, Intervention, Href string
}

func (b *builder) promptIndexPage(variant string, qs []int, runs []*board.Entry) *page {
	d := promptIndexData{Variant: variant}
	for _, q := range qs {
		d.Rows = append(d.Rows, promptIndexRow{q, b.texts.shortTitle(variant, q), promptPath(variant, q), comparePath(variant, q), b.texts.prompts(variant, q)})
	}
	for _, e := range runs {
		d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name, e.Run.Manifest.Intervention, scenariosPath(e.ID())})
	}
	return &page{Path: promptIndexPath(variant), Kind: "promptindex", Title: "Prompts · " + variant, Section: "transcripts", Data: d}
}

type promptData struct {
	Variant     string
	Q           int
	Title       string
	CompareHref string
	IndexHref   string
	Source      string
	Prompts     []promptRow
	Runs        []runLink
	Prev, Next  string
}

type promptRow struct {
	Anchor, Label     string
	Age               int
	Gender, Race      string
	Present, Baseline bool
	Segments          []segment
	Changed           int
}

type segment struct {
	Op   string // "", "del" or "ins"
	Text string
}

func (b *builder) promptPage(variant string, q int, qs []int, pos int, runs []*board.Entry) *page {
	d := promptData{Variant: variant, Q: q, Title: b.texts.title(variant, q), CompareHref: comparePath(variant, q), IndexHref: promptIndexPath(variant)}
	if pos > 0 {
		d.Prev = promptPath(variant, qs[pos-1])
	}
	if pos+1 < len(qs) {
		d.Next = promptPath(variant, qs[pos+1])
	}
	base, hasBase := b.texts.text(variant, q, design.Baseline)
	owners := map[string]bool{}
	for _, c := range design.Cells() {
		r := promptRow{Anchor: c.Anchor(), Label: c.Label(), Baseline: c == design.Baseline}
		t, ok := b.texts.byVariant[variant][qcell{q, c}]
		r.Present = ok
		if ok {
			owners[t.owner] = true
			if hasBase && !r.Baseline {
				for _, s := range worddiff.Diff(base, t.text) {
					op := [...]string{"", "del", "ins"}[s.Op]
					if s.Op != worddiff.Equal && strings.TrimSpace(s.Text) != "" {
						r.Changed++
					}
					r.Segments = append(r.Segments, segment{op, s.Text})
				}
			} else {
				r.Segments = []segment{{"", t.text}}
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
	for _, e := range runs {
		if b.stats[e.ID()][q] != nil {
			d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name, e.Run.Manifest.Intervention, scenarioPath(e.ID(), q)})
		}
	}
	return &page{Path: promptPath(variant, q), Kind: "prompt", Title: fmt.Sprintf("Question %d · %s prompts", q, variant), Section: "transcripts", Data: d}
}

// Cross-model pages.

type compareData struct {
	Variant    string
	Q          int
	Title      string
	PromptHref string
	Runs       []compareRun
	Rows       []compareRow
}

type compareRun struct {
	ID, Model, Intervention, Href, Unit string
}

type compareRow struct {
	Anchor, Label, PromptHref string
	Cells                     []compareCell
}

// compareCell is one run's number for one variant; no link, to keep the
// page small as runs are added (the column heading links to the run).
type compareCell struct {
	Value, Class string
}

func (b *builder) comparePage(variant string, q int, runs []*board.Entry) *page {
	d := compareData{Variant: variant, Q: q, Title: b.texts.title(variant, q), PromptHref: promptPath(variant, q)}
	var stats []*[design.NumCells]cellStat
	var decision []bool
	for _, e := range runs {
		qs := b.stats[e.ID()][q]
		if qs == nil {
			continue
		}
		isDec := e.Run.Manifest.Scoring == run.Decision
		unit := "Δ logit"
		if isDec {
			unit = "Δ share yes (pp)"
		}
		d.Runs = append(d.Runs, compareRun{e.ID(), e.Run.Manifest.Model.Name, e.Run.Manifest.Intervention, scenarioPath(e.ID(), q), unit})
		stats = append(stats, qs)
		decision = append(decision, isDec)
	}
	for i, c := range design.Cells() {
		r := compareRow{Anchor: c.Anchor(), Label: c.Label(), PromptHref: promptPath(variant, q) + "#" + c.Anchor()}
		for j, qs := range stats {
			s := qs[i]
			cc := compareCell{Value: "—", Class: "missing"}
			if s.present && s.hasBase {
				cc = compareCell{signed(s.delta, dec(decision[j])), "b" + strconv.Itoa(bucket(s.delta, decision[j]))}
			} else if s.present {
				cc = compareCell{"n/a", "nobase"}
			}
			r.Cells = append(r.Cells, cc)
		}
		d.Rows = append(d.Rows, r)
	}
	return &page{Path: comparePath(variant, q), Kind: "compare", Title: fmt.Sprintf("Question %d · all %s runs", q, variant), Section: "transcripts", Data: d}
}

// Transcript pages, rendered from a second pass over the run's file.

type transcriptData struct {
	RunID, Model, Variant string
	Q                     int
	Page, Pages           int
	ScenarioHref          string
	Entries               []transcriptEntry
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

func (b *builder) transcriptGroup(e *board.Entry, chunks map[qcell]int) func(*renderer) ([]File, error) {
	return func(r *renderer) ([]File, error) {
		m := e.Run.Manifest
		type key struct{ q, page int }
		entries := map[key][]transcriptEntry{}
		pages := map[int]int{}
		file := e.Run.ScoredFS()
		_, _, _, err := run.EachRow(b.cfg.Runs, file, b.cfg.RunsLabel+"/"+file, func(line int, row *run.Row) error {
			c, err := m.ToCell(line, row)
			if err != nil {
				return err
			}
			k := qcell{c.Q, c.Cell}
			n, ok := chunks[k]
			if !ok {
				return nil
			}
			te := transcriptEntry{Cell: c.Cell, Anchor: c.Anchor(), Label: c.Label(), Line: line, PromptHref: promptPath(m.Variant, c.Q) + "#" + c.Anchor(),
				Messages: row.Messages, Response: row.Response}
			if text, _ := b.texts.text(m.Variant, c.Q, c.Cell); text != row.FilledTemplate {
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
			return nil, err
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
		var files []File
		for _, k := range keys {
			es := entries[k]
			sort.Slice(es, func(i, j int) bool { return es[i].Line < es[j].Line })
			d := transcriptData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Q: k.q, Page: k.page, Pages: pages[k.q],
				ScenarioHref: scenarioPath(e.ID(), k.q), Entries: es}
			title := fmt.Sprintf("Transcripts · question %d · %s", k.q, m.Model.Name)
			if d.Pages > 1 {
				title += fmt.Sprintf(" (part %d of %d)", k.page, d.Pages)
			}
			f, err := r.page(&page{Path: transcriptPath(e.ID(), k.q, k.page), Kind: "transcript", Title: title, Section: "transcripts", Data: d})
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		return files, nil
	}
}

// The hub.

type hubData struct {
	Variants []hubVariant
	Runs     []runLink
}

type hubVariant struct {
	Variant, Href string
	Questions     int
}

func (b *builder) transcriptHub() *page {
	var d hubData
	for _, v := range board.Variants {
		if qs := b.texts.questions(v); len(qs) > 0 {
			d.Variants = append(d.Variants, hubVariant{v, promptIndexPath(v), len(qs)})
		}
	}
	for _, e := range b.entries {
		d.Runs = append(d.Runs, runLink{e.ID(), e.Run.Manifest.Model.Name + " · " + e.Run.Manifest.Variant, e.Run.Manifest.Intervention, scenariosPath(e.ID())})
	}
	return &page{Path: "transcripts.html", Kind: "hub", Title: "Transcript browser", Section: "transcripts", Data: d}
}
