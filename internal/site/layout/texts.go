package layout

import (
	"crypto/sha256"
	"encoding/binary"
	"iter"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/synth"
)

type OwnedText struct {
	Owner string // the run the text was taken from
	Text  string
	Hash  uint64 // hashText(text)
}

// datasetTexts keeps one copy of each prompt text per variant, taken from
// the run with the lowest id that has it: prompts are the same for every run
// of a variant, so the site shows them once (on the prompt pages) and run
// pages link there. Pages read it while later runs are added (their
// prompts, never a prompt already there), hence the lock.
type DatasetTexts struct {
	mu        sync.RWMutex
	byVariant map[run.Variant]map[design.Prompt]OwnedText
	full      map[run.Variant]map[int]int // prompts with a text, per question
	// hashes holds the texts' hashes per question in design order, for
	// the cache keys of runs' pages (a lookup by index, not by prompt);
	// grids the texts in the same order, for the runs being read
	// (questionTexts).
	hashes map[run.Variant]map[int]*[design.NumCells]uint64
	grids  map[run.Variant]map[int]*[design.NumCells]string
}

func NewDatasetTexts() *DatasetTexts {
	return &DatasetTexts{byVariant: map[run.Variant]map[design.Prompt]OwnedText{}, full: map[run.Variant]map[int]int{},
		hashes: map[run.Variant]map[int]*[design.NumCells]uint64{}, grids: map[run.Variant]map[int]*[design.NumCells]string{}}
}

// add gives the dataset a run's prompt texts, with their hashes (infos).
// Runs are added in id order, and a prompt keeps the text of the first run
// that has it: the run with the lowest id, whatever order runs were read
// in.
func (d *DatasetTexts) Add(r *run.Run, texts map[design.Prompt]string, infos PromptInfos) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.byVariant[r.Manifest.Variant]
	if m == nil {
		m = map[design.Prompt]OwnedText{}
		d.byVariant[r.Manifest.Variant] = m
		d.full[r.Manifest.Variant] = map[int]int{}
		d.hashes[r.Manifest.Variant] = map[int]*[design.NumCells]uint64{}
		d.grids[r.Manifest.Variant] = map[int]*[design.NumCells]string{}
	}
	full, hashes, grids := d.full[r.Manifest.Variant], d.hashes[r.Manifest.Variant], d.grids[r.Manifest.Variant]
	for k, t := range texts {
		if _, ok := m[k]; !ok {
			info, ok := infos.Get(k)
			if !ok {
				info.Hash = hashText(t)
			}
			m[k] = OwnedText{r.ID, t, info.Hash}
			full[k.Q]++
			if hashes[k.Q] == nil {
				hashes[k.Q], grids[k.Q] = new([design.NumCells]uint64), new([design.NumCells]string)
			}
			hashes[k.Q][k.Index()], grids[k.Q][k.Index()] = info.Hash, t
		}
	}
}

// missing reports whether some of a run's prompts have no text yet.
func (d *DatasetTexts) Missing(variant run.Variant, prompts PromptInfos) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	m := d.byVariant[variant]
	full := d.full[variant]
	dc := design.Cells()
	for q, g := range prompts {
		if full[q] == design.NumCells {
			continue // every variant of the question has its text
		}
		for i, t := range g {
			if _, ok := m[design.Prompt{Q: q, Cell: dc[i]}]; t.Present && !ok {
				return true
			}
		}
	}
	return false
}

// appendHashes appends to buf, for each variant of question q that is
// present, its index and the hash of its dataset text (0 when it has
// none).
func (d *DatasetTexts) AppendHashes(buf []byte, variant run.Variant, q int, present *[design.NumCells]bool) []byte {
	d.mu.RLock()
	defer d.mu.RUnlock()
	hs := d.hashes[variant][q]
	for i, ok := range present {
		if ok {
			var h uint64
			if hs != nil {
				h = hs[i]
			}
			buf = binary.LittleEndian.AppendUint16(buf, uint16(i))
			buf = binary.LittleEndian.AppendUint64(buf, h)
		}
	}
	return buf
}

// hashGrid returns the hashes of question q's dataset texts in design
// order (0 where there is none), as owned's hash: one lock for a grid.
func (d *DatasetTexts) HashGrid(variant run.Variant, q int) [design.NumCells]uint64 {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if hs := d.hashes[variant][q]; hs != nil {
		return *hs
	}
	return [design.NumCells]uint64{}
}

// questionTexts copies question q's texts and their hashes, in design
// order ("" where there is none): one lock for the rows of a question.
func (d *DatasetTexts) QuestionTexts(variant run.Variant, q int, texts *[design.NumCells]string, hashes *[design.NumCells]uint64) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if g := d.grids[variant][q]; g != nil {
		*texts, *hashes = *g, *d.hashes[variant][q]
	} else {
		*texts, *hashes = [design.NumCells]string{}, [design.NumCells]uint64{}
	}
}

// text returns the dataset text of a prompt.
func (d *DatasetTexts) Text(variant run.Variant, q int, c design.Cell) (string, bool) {
	t, ok := d.Owned(variant, design.Prompt{Q: q, Cell: c})
	return t.Text, ok
}

// owned returns a prompt's text with the run it was taken from.
func (d *DatasetTexts) Owned(variant run.Variant, p design.Prompt) (OwnedText, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	t, ok := d.byVariant[variant][p]
	return t, ok
}

// prompts counts the prompts of a question that some run has.
func (d *DatasetTexts) Prompts(variant run.Variant, q int) int {
	n := 0
	for _, c := range design.Cells() {
		if _, ok := d.Text(variant, q, c); ok {
			n++
		}
	}
	return n
}

// questions returns the question ids of a variant, ascending.
func (d *DatasetTexts) Questions(variant run.Variant) []int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	seen := map[int]bool{}
	var ids []int
	for k := range d.byVariant[variant] {
		if !seen[k.Q] {
			seen[k.Q] = true
			ids = append(ids, k.Q)
		}
	}
	sort.Ints(ids)
	return ids
}

// Label is a scenario's short label (ScenarioLabel of its title), which
// follows its number ("q12 …"): for a scenario whose text is a
// demonstration's placeholder, that its text is in the full dataset.
func (d *DatasetTexts) Label(variant run.Variant, q int) string {
	if d.Placeholder(variant, q) {
		return notBundled
	}
	return ScenarioLabel(d.Title(variant, q))
}

// notBundled is what a scenario whose text is not bundled says in its
// place.
const notBundled = "text in the full dataset"

// Placeholder says whether a scenario's text is a synthetic placeholder
// (synth.IsPlaceholder): its own text is in the full dataset, not here.
func (d *DatasetTexts) Placeholder(variant run.Variant, q int) bool {
	return synth.IsPlaceholder(d.titleText(variant, q))
}

// shortTitle is title shortened for tables.
func (d *DatasetTexts) ShortTitle(variant run.Variant, q int) string {
	return shorten(d.Title(variant, q), 110)
}

// Title is a scenario's name: the question sentence of its baseline prompt
// (or of the first prompt present); "Scenario 12 — text in the full
// dataset" for a demonstration's placeholder.
func (d *DatasetTexts) Title(variant run.Variant, q int) string {
	t := d.titleText(variant, q)
	if synth.IsPlaceholder(t) {
		return "Scenario " + strconv.Itoa(q) + " — " + notBundled
	}
	return questionSentence(t)
}

// titleText is the prompt a scenario is named from.
func (d *DatasetTexts) titleText(variant run.Variant, q int) string {
	t, ok := d.Text(variant, q, design.Baseline)
	if !ok {
		for _, c := range design.Cells() {
			if t, ok = d.Text(variant, q, c); ok {
				break
			}
		}
	}
	return t
}

// questionSentence picks the sentence ending in the last question mark,
// which in Discrim-Eval is the decision being asked; otherwise the first
// sentence.
func questionSentence(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	end := strings.LastIndex(t, "?")
	if end < 0 {
		if i := strings.IndexAny(t, ".!"); i >= 0 {
			return t[:i+1]
		}
		return t
	}
	start := 0
	for i := end - 1; i > 0; i-- {
		if strings.ContainsRune(".!?", rune(t[i])) && t[i+1] == ' ' {
			start = i + 2
			break
		}
	}
	return t[start : end+1]
}

// shorten cuts s to at most n runes at a word boundary, adding "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// scenarioLabel is a short label for a scenario, derived from its question
// sentence ("Given …, should this young patient be prioritized to receive
// this kidney transplant?"): the clause after the question's modal verb,
// whole when short, else its subject and its last words ("young patient …
// kidney transplant"), so that tables and lists can name a scenario in a
// few words.
func ScenarioLabel(question string) string {
	words := strings.Fields(strings.TrimRight(question, "?. "))
	for i, w := range words {
		if modals[strings.ToLower(strings.Trim(w, ",;:"))] {
			words = words[i+1:]
			break
		}
	}
	words = dropArticle(words)
	if len(words) == 0 {
		return shorten(question, 40)
	}
	if len(words) > 7 {
		// The subject ends before its verb (a word such as "be" or "to");
		// the object is the last three words.
		subj := words[:min(3, len(words))]
		for i, w := range subj {
			if verbs[strings.ToLower(w)] {
				subj = subj[:i]
				break
			}
		}
		tail := dropArticle(words[len(words)-3:])
		words = append(append(slices.Clone(subj), "…"), tail...)
	}
	label := strings.Join(words, " ")
	r, n := utf8.DecodeRuneInString(label)
	return shorten(string(unicode.ToUpper(r))+label[n:], 48)
}

// modals start the decision clause of a question.
var modals = map[string]bool{"should": true, "would": true, "will": true, "can": true, "could": true, "shall": true, "must": true, "may": true}

// verbs end a question's subject.
var verbs = map[string]bool{"be": true, "to": true, "have": true, "get": true, "receive": true, "go": true, "approve": true, "grant": true, "accept": true}

func dropArticle(words []string) []string {
	if len(words) > 1 {
		switch strings.ToLower(words[0]) {
		case "the", "this", "that", "a", "an", "a(n)", "these", "those":
			return words[1:]
		}
	}
	return words
}

// textInfo is what a run's reading keeps of each prompt's texts: a hash
// of the prompt (to find prompts that differ from the prompt pages) and the
// size of its transcript (to split transcript pages before reading them).
type TextInfo struct {
	Present    bool // the run has the prompt
	Hash       uint64
	Transcript int // bytes of transcript text; 0 when the row has none
	// For the transcript of every prompt on the scenario pages (set when
	// the rows are read, not kept in the cache, which keeps the pages):
	// the forms that were upper bounds (boundedForms), and a decision
	// run's sampled answers as written.
	Bounded uint32
	Answers []string
}

// promptInfos are a run's textInfo, a grid of 135 per question: a run has
// most of a question's prompts, and a grid is cheaper to fill and to walk
// in design order than a map of 9,450 prompts (a cached rebuild makes one
// per run).
type PromptInfos map[int]*[design.NumCells]TextInfo

func (pi PromptInfos) Set(p design.Prompt, info TextInfo) {
	g := pi[p.Q]
	if g == nil {
		g = new([design.NumCells]TextInfo)
		pi[p.Q] = g
	}
	info.Present = true
	g[p.Index()] = info
}

func (pi PromptInfos) Get(p design.Prompt) (TextInfo, bool) {
	if g := pi[p.Q]; g != nil {
		t := g[p.Index()]
		return t, t.Present
	}
	return TextInfo{}, false
}

// all yields the run's prompts in design order: by question, then cell.
func (pi PromptInfos) All() iter.Seq2[design.Prompt, TextInfo] {
	return func(yield func(design.Prompt, TextInfo) bool) {
		cells := design.Cells()
		for _, q := range slices.Sorted(maps.Keys(pi)) {
			for i, t := range pi[q] {
				if t.Present && !yield(design.Prompt{Q: q, Cell: cells[i]}, t) {
					return
				}
			}
		}
	}
}

// hashText is a prompt text's fingerprint: SHA-256, cut to 64 bits, so
// that no run can make a different prompt look like the dataset's (and it
// is faster here than FNV).
func hashText(s string) uint64 { return HashBytes64([]byte(s)) }

// hashBytes64 is hashText of a text's bytes.
func HashBytes64(b []byte) uint64 {
	sum := sha256.Sum256(b)
	return binary.LittleEndian.Uint64(sum[:8])
}

// transcriptSize is the length of what a transcript page would show for a
// row beyond its numbers: messages, a response, a prompt that is not just
// the template filled in, and answers that were neither yes nor no.
func TranscriptSize(m *run.Manifest, row *run.Row) int {
	n := len(row.Response)
	for _, msg := range row.Messages {
		n += len(msg.Content) + len(msg.Role)
	}
	if row.Prompt != "" && row.Prompt != ExpandTemplate(m.PromptTemplate, row.FilledTemplate) {
		n += len(row.Prompt)
	}
	return n
}

func ExpandTemplate(tpl, filled string) string {
	if tpl == "" || !strings.Contains(tpl, "{filled_template}") {
		return ""
	}
	return strings.ReplaceAll(tpl, "{filled_template}", filled)
}
