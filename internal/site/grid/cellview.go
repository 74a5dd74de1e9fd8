package grid

// The transcript of every prompt of a run, on its scenario pages: what was
// sent and what came back, for each of a question's 135 cells, and any two
// cells side by side with the words that differ.
//
// What is a run's own is small and goes into the scenario page: the
// log-probability of each answer form (two characters a form), or each
// sampled answer (an index into the page's list of distinct answers). The
// prompt texts are the dataset's, shared by every run of a variant, and go
// into one script per question, prompts/<variant>/q<N>.js, which a page
// opened from file:// can load (it cannot fetch a data file); the run's
// prompt template is in one script for its 70 pages,
// runs/<id>/template.js. static/cells.js puts them together. Without
// JavaScript the grid's numbers, the prompt page and the template (on the
// run's page) are still there to read; the log-probabilities and answers
// are in the run's per-prompt file.

import (
	"encoding/json"
	"math"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// cellsJSPath is the script that shows a cell's transcript.
const CellsJSPath = "assets/cells.js"

// promptDataPath is the script holding a question's dataset prompts.
func PromptDataPath(variant run.Variant, q int) string {
	return "prompts/" + string(variant) + "/q" + show.Itoa(q) + ".js"
}

// promptDataJS is a question's 135 dataset prompts in design order (null
// for a prompt no run has), as a script assigning PROMPT_TEXTS.
// json.Marshal escapes <, > and & and U+2028/9, so no text can end the
// script.
func PromptDataJS(texts *layout.DatasetTexts, variant run.Variant, q int) ([]byte, error) {
	all := make([]*string, design.NumCells)
	for i, c := range design.Cells() {
		if t, ok := texts.Text(variant, q, c); ok {
			all[i] = &t
		}
	}
	data, err := json.Marshal(all)
	if err != nil {
		return nil, err
	}
	out := append([]byte("window.PROMPT_TEXTS="), data...)
	return append(out, ";\n"...), nil
}

// runTemplatePath is the script holding a run's prompt template, which
// all its scenario pages share.
func RunTemplatePath(id string) string { return "runs/" + id + "/template.js" }

// runTemplateJS is the run's prompt template as a script assigning
// RUN_TEMPLATE ("" when the manifest has none), and for a log-probability
// run RUN_FORMS, its answer forms and how many of them are yes forms
// (cellsData's Forms and Yes, the same on all 70 pages).
func RunTemplateJS(m *run.Manifest) ([]byte, error) {
	data, err := json.Marshal(m.PromptTemplate)
	if err != nil {
		return nil, err
	}
	out := append([]byte("window.RUN_TEMPLATE="), data...)
	out = append(out, ";\n"...)
	if m.Scoring == run.Decision {
		return out, nil
	}
	forms, err := json.Marshal(struct {
		Forms []string `json:"forms"`
		Yes   int      `json:"yes"`
	}{m.Choices.Forms(), len(m.Choices.Yes)})
	if err != nil {
		return nil, err
	}
	out = append(append(out, "window.RUN_FORMS="...), forms...)
	return append(out, ";\n"...), nil
}

// lpDigits is the alphabet of the log-probability codes (URL-safe base 64).
const LpDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// Log-probability codes: a form's log-probability in hundredths, negated,
// in two characters; the two largest codes stand for "below −40.93" and
// for a probability of zero.
const (
	lpBelow = 64*64 - 2
	lpZero  = 64*64 - 1
)

// lpCode is a log-probability as its code: −round(100 lp), capped.
func LpCode(lp float64) int {
	switch {
	case math.IsInf(lp, -1):
		return lpZero
	case math.IsNaN(lp):
		return lpBelow // never: log-probabilities are numbers
	}
	n := math.Round(-100 * lp)
	if n < 0 {
		n = 0 // a log-probability rounded above 0
	}
	if n >= lpBelow {
		return lpBelow
	}
	return int(n)
}

func appendCode(b []byte, n, width int) []byte {
	for w := width - 1; w >= 0; w-- {
		b = append(b, LpDigits[(n>>(6*w))&63])
	}
	return b
}

// cellsData is what a scenario page holds of its cells for their
// transcripts, as JSON in the page.
type CellsData struct {
	// Log-probability runs: the answer forms, the yes forms first (Yes of
	// them), written once a run in its template.js (runTemplateJS), not
	// on the page; LP, the cells' codes in design order (lpWriter);
	// Bounded, the cells (index, then a bit per form) whose forms were
	// only upper bounds, not in the harness's top-k.
	Forms   []string `json:"-"`
	Yes     int      `json:"-"`
	LP      string   `json:"lp,omitempty"`
	Bounded [][2]int `json:"bounded,omitempty"`
	// Sampled-answer runs: the question's distinct answers as written, how
	// each was counted ("y", "n" or "u" for unparsed, one letter each), and
	// for each cell its answers as indices into Answers, Width characters
	// each, cells separated by ".".
	Answers []string `json:"answers,omitempty"`
	Counted string   `json:"counted,omitempty"`
	Picks   string   `json:"picks,omitempty"`
	Width   int      `json:"width,omitempty"`
	// Base is the baseline person's cell, by anchor; static/cells.js
	// takes it from the grid's cell marked "base".
	Base string `json:"-"`
}

// newCellsData encodes a question's cells. infos holds the run's bounded
// forms and sampled answers.
func NewCellsData(m *run.Manifest, q int, qs *score.QuestionCells, infos layout.PromptInfos) CellsData {
	d := CellsData{Base: design.Baseline.Anchor()}
	cells := design.Cells()
	if m.Scoring == run.Decision {
		index := map[string]int{}
		var counted []byte
		picks := make([][]int, len(cells))
		for i, c := range cells {
			info, _ := infos.Get(design.Prompt{Q: q, Cell: c})
			for _, a := range info.Answers {
				k, ok := index[a]
				if !ok {
					k = len(d.Answers)
					index[a] = k
					d.Answers = append(d.Answers, a)
					letter := byte('u')
					if yes, ok := m.Choices.ParseAnswer(a); ok && yes {
						letter = 'y'
					} else if ok {
						letter = 'n'
					}
					counted = append(counted, letter)
				}
				picks[i] = append(picks[i], k)
			}
		}
		d.Counted = string(counted)
		d.Width = 1
		for n := 64; len(d.Answers) > n; n *= 64 {
			d.Width++
		}
		var b []byte
		for i, ps := range picks {
			if i > 0 {
				b = append(b, '.')
			}
			for _, k := range ps {
				b = appendCode(b, k, d.Width)
			}
		}
		d.Picks = string(b)
		return d
	}
	d.Forms, d.Yes = m.Choices.Forms(), len(m.Choices.Yes)
	var lp LpWriter
	for i, c := range cells {
		s := qs[i]
		if !s.Present || len(s.Cell.LP) != len(d.Forms) {
			lp.Missing()
			continue
		}
		codes := make([]int, len(s.Cell.LP))
		for k, v := range s.Cell.LP {
			codes[k] = LpCode(v)
		}
		lp.Cell(codes)
		if info, _ := infos.Get(design.Prompt{Q: q, Cell: c}); info.Bounded != 0 {
			d.Bounded = append(d.Bounded, [2]int{i, int(info.Bounded)})
		}
	}
	d.LP = string(lp.B)
	return d
}

// lpWriter writes the log-probability codes of a question's cells, in
// design order, in a few characters a form where two a form was 1.3 KB
// of each of a run's 70 pages. Of a cell, the first form's code and each
// other form's code minus the first's are written as their change from
// the last present cell's (the same person's forms move together, and a
// question's cells differ little), zigzagged (0, −1, 1, −2, … as 0, 1, 2,
// 3, …) and in base 64 with five bits a character, the first the lowest,
// and 32 added to each but the last: a change of −16 to 15 is one
// character, of −512 to 511 two. A missing cell is ".". static/cells.js
// reads them back.
type LpWriter struct {
	B    []byte
	prev []int
}

func (w *LpWriter) Missing() { w.B = append(w.B, '.') }

func (w *LpWriter) Cell(codes []int) {
	if w.prev == nil {
		w.prev = make([]int, len(codes))
	}
	for k, c := range codes {
		v := c
		if k > 0 {
			v = c - codes[0]
		}
		d := v - w.prev[k]
		w.prev[k] = v
		z := uint(d) << 1
		if d < 0 {
			z = uint(-d)<<1 - 1
		}
		for z >= 32 {
			w.B = append(w.B, LpDigits[32|z&31])
			z >>= 5
		}
		w.B = append(w.B, LpDigits[z])
	}
}

// boundedForms is the bit mask of a row's forms (in Choices.Forms order)
// that were upper bounds.
func BoundedForms(m *run.Manifest, row *run.Row) uint32 {
	if len(row.Bounded) == 0 {
		return 0
	}
	var mask uint32
	for i, f := range m.Choices.Forms() {
		for _, b := range row.Bounded {
			if b == f && i < 32 {
				mask |= 1 << i
			}
		}
	}
	return mask
}

// lpValue is the log-probability a code stands for, as static/cells.js
// reads it: "below −40.93" is taken as −40.94.
func lpValue(n int) float64 {
	if n == lpZero {
		return math.Inf(-1)
	}
	return -float64(n) / 100
}

// swingCells is the run's cells as the swing finder counts them: for a
// log-probability run, each cell's logit and P(yes) from its answer forms'
// log-probabilities as its scenario page holds them (in hundredths), so
// that the page's list of pairs over a threshold (static/cells.js, the
// same arithmetic) has exactly the finder's count. This moves a P(yes) by
// at most 0.0025. A sampled run's shares are exact on the page already.
func SwingCells(m *run.Manifest, cells map[int]*score.QuestionCells) map[int]*score.QuestionCells {
	if m.Scoring == run.Decision {
		return cells
	}
	forms, yes := len(m.Choices.Forms()), len(m.Choices.Yes)
	out := make(map[int]*score.QuestionCells, len(cells))
	lps := make([]float64, forms)
	for q, qs := range cells {
		c := *qs
		for i := range c {
			s := &c[i]
			if !s.Present || len(s.Cell.LP) != forms {
				s.Present = false // "." on the page
				continue
			}
			for k, lp := range s.Cell.LP {
				lps[k] = lpValue(LpCode(lp))
			}
			s.Cell.Logit = run.LogSumExp(lps[:yes]) - run.LogSumExp(lps[yes:])
			s.P = 1 / (1 + math.Exp(-s.Cell.Logit))
		}
		out[q] = &c
	}
	return out
}
