package site

// A scenario page: one run on one decision question — the 135-cell grid of
// P(yes) and differences from the baseline person, then every variant's
// numbers, with links to its prompt and transcript.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

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

// colourClass is the CSS class of a deviation's colour.
func colourClass(delta float64, decision bool) string {
	return "b" + strconv.Itoa(bucket(delta, decision))
}

// legendEnds are the values at the two ends of the colour legend: the
// outermost cut points of the scale.
func legendEnds(decision bool) (lo, hi string) {
	cuts, d := logitCuts, 1
	if decision {
		cuts, d = shareCuts, 0
	}
	end := cuts[len(cuts)-1]
	return signedLegend(-end, d), signedLegend(end, d)
}

func signedLegend(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	if v > 0 {
		return "+" + s
	}
	return "−" + strings.TrimPrefix(s, "-")
}

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
	RunID, Model, Intervention         string
	Variant                            run.Variant
	Decision                           bool
	Q                                  int
	Title                              string
	PromptHref, CompareHref, IndexHref string
	BaselineHref                       string
	RunHref                            string
	Unit                               string
	Heads                              []gridHead
	RaceCols                           int // columns per gender in the grid
	Grid                               []gridRow
	Rows                               []variantRow
	Forms                              []string
	Transcripts                        bool // some variant has a transcript or its own text
	Stored                             int  // variants with a transcript
	Label                              string
	Span                               int // columns after the label
	NoBaseline                         bool
	Coefs                              []coefCell
	Prev, Next                         string
	LegendLo, LegendHi                 string
}

func (scenarioData) kind() kind { return kindScenario }

type coefCell struct {
	Name, Value, Class, Sort string
}

func scenarioPage(texts *datasetTexts, infos map[design.Prompt]textInfo, e *board.Entry, q int, qs *score.QuestionCells, chunks map[design.Prompt]int, ids []int, pos int) *page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := scenarioData{
		RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		Q: q, Title: texts.title(m.Variant, q),
		PromptHref: promptPath(m.Variant, q), CompareHref: comparePath(m.Variant, q),
		BaselineHref: anchored(promptPath(m.Variant, q), design.Baseline.Anchor()),
		IndexHref:    scenariosPath(e.ID()), RunHref: runPath(e.ID()),
		Unit: "logit points", RaceCols: int(design.NumRaces),
	}
	if decision {
		d.Unit = "percentage points of the share of yes answers"
	}
	d.LegendLo, d.LegendHi = legendEnds(decision)
	if pos > 0 {
		d.Prev = scenarioPath(e.ID(), ids[pos-1])
	}
	if pos+1 < len(ids) {
		d.Next = scenarioPath(e.ID(), ids[pos+1])
	}
	d.NoBaseline = !qs[design.Baseline.Index()].Present
	for _, g := range design.GendersInDatasetOrder {
		h := gridHead{Gender: g.String()}
		for _, r := range design.Races {
			h.Races = append(h.Races, r.String())
		}
		d.Heads = append(d.Heads, h)
	}
	d.Forms = m.Choices.Forms()
	d.Transcripts = len(chunks) > 0
	d.Label = scenarioLabel(d.Title)
	d.Span = 3 - btoi(decision)
	if d.Transcripts {
		d.Span++
	}
	for i, c := range design.Cells() {
		s := qs[i]
		// A grid row per age (cells come in age order).
		if len(d.Grid) == 0 || d.Grid[len(d.Grid)-1].Age != c.Age {
			d.Grid = append(d.Grid, gridRow{Age: c.Age})
		}
		row := &d.Grid[len(d.Grid)-1]
		gc := gridCell{Anchor: c.Anchor(), Label: c.Label(), Present: s.Present, Baseline: c == design.Baseline, Class: "missing"}
		vr := variantRow{Anchor: c.Anchor(), Label: c.Label(), Present: s.Present, Baseline: gc.Baseline, Class: "missing"}
		if s.Present {
			gc.P = fixed(s.P, 2)
			if decision {
				// A share of answers, in the unit of its difference.
				gc.P = fixed(100*s.P, 0) + "%"
			}
			if s.HasBase {
				gc.Class = colourClass(s.Delta, decision)
				gc.Delta, vr.Delta = signed(s.Delta, deltaDecimals(decision)), signed(s.Delta, deltaDecimals(decision))
				vr.Class = gc.Class
			} else {
				gc.Class, vr.Class = "nobase", "nobase"
				gc.Delta, vr.Delta = "n/a", "n/a"
			}
			if decision {
				vr.Decisions = fmt.Sprintf("%d yes, %d no", s.Cell.Yes, s.Cell.No)
				if s.Cell.Other > 0 {
					vr.Decisions += fmt.Sprintf(", %d other", s.Cell.Other)
				}
			} else {
				vr.Mass = fixed(s.Cell.Mass, 3)
				vr.LP = logprobs(s.Cell.LP)
			}
			k := design.Prompt{Q: q, Cell: c}
			if n, ok := chunks[k]; ok {
				vr.Transcript = anchored(transcriptPath(e.ID(), q, n), c.Anchor())
				d.Stored++
			}
			text, _ := texts.text(m.Variant, q, c)
			vr.TextDiffers = hashText(text) != infos[k].hash
		}
		row.Cells = append(row.Cells, gc)
		d.Rows = append(d.Rows, vr)
	}
	for _, qq := range e.Result.Questions {
		if qq.ID == q {
			for _, c := range design.Coefs {
				// A sampled-answer run has no per-question coefficients.
				if !math.IsNaN(qq.Coefs[c]) {
					d.Coefs = append(d.Coefs, coefCell{c.Name(), signed(qq.Coefs[c], 2), signClass(qq.Coefs[c]), ""})
				}
			}
		}
	}
	title := fmt.Sprintf("Question %d · %s · %s", q, m.Model.Name, m.Variant)
	return &page{Path: scenarioPath(e.ID(), q), Title: title, Section: secNone, Body: d}
}

// logprobs writes a prompt's log-probabilities, ASCII minus signs (four per
// row, 9,450 rows per run), -inf for a zero probability.
func logprobs(lps []float64) string {
	out := make([]string, len(lps))
	for j, lp := range lps {
		out[j] = fixed(lp, 2)
		if math.IsInf(lp, -1) {
			out[j] = "-inf"
		}
	}
	return strings.Join(out, " ")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// deltaDecimals is the precision of a difference from the baseline: two
// decimals of logit points, one of percentage points.
func deltaDecimals(decision bool) int {
	if decision {
		return 1
	}
	return 2
}
