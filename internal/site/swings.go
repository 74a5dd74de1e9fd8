package site

// The swing finder: per run, the scenarios where two cells' P(yes) differ
// by more than a threshold the reader picks, against how often that
// happens under the run's own noise alone (score.RunSwings, METHODOLOGY.md
// "Prompt-level swings"). The table is written at the default threshold;
// static/swings.js shows it at another from the numbers in the page, and
// keeps the threshold in the URL ("#swings?t=0.50"). It links each
// scenario's number of pairs to its scenario page at that threshold, where
// static/cells.js lists every pair from the page's own numbers; the
// finder counts on those same numbers (swingCells), so the two agree.

import (
	"math"
	"path"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// swingDefault is the threshold the page is written at (0.30).
const swingDefault = 5

type swingsData struct {
	RunID, Model, Intervention string
	Variant                    run.Variant
	Decision                   bool
	RunHref, IndexHref         string
	MethodologyHref            string
	ScriptHref                 string
	Unit                       string // "P(yes)" or "share of yes answers"
	Threshold                  string // the default, "0.30"
	Summary                    swingSummary
	Rows                       []swingRow
	Questions                  int // with a reference
	// Data holds every threshold's numbers for the script.
	Data swingJSON
}

// swingSummary is the sentence above the table, at one threshold.
type swingSummary struct {
	With, Of         int
	Expected, Lo, Hi string
	Pairs, NullPairs string
	More             bool // more scenarios with a swing than the reference's range
	Fewer            bool
	NoReference      bool
}

type swingRow struct {
	Q                int
	Href, Label      string
	Pairs, NullPairs string
	NullAny          string
	Hidden           bool // no pair over the default threshold
	// The largest swing: its two cells with their P(yes), and the
	// scenario page's side-by-side of them.
	LoLabel, HiLabel, LoP, HiP, Range string
	PairHref                          string
}

// swingJSON is, per question in the rows' order, the numbers at each
// threshold: pairs over it, the reference's expected pairs (one decimal,
// ×10) and its chance of a swing (per mille); and per threshold the run's
// summary. Trailing zeros are left out of the pair counts and the chances.
type swingJSON struct {
	Pairs     [][]int `json:"pairs"`
	NullPairs [][]int `json:"nullPairs"`
	NullAny   [][]int `json:"nullAny"`
	With      []int   `json:"with"`
	Expected  []int   `json:"expected"` // ×10
	Lo        []int   `json:"lo"`
	Hi        []int   `json:"hi"`
	Of        int     `json:"of"`
}

func swingsPage(texts *datasetTexts, e *board.Entry, sw *score.Swings) *page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := swingsData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		RunHref: runPath(e.ID()), IndexHref: scenariosPath(e.ID()), MethodologyHref: methodologyPath + "#prompt-level-swings",
		ScriptHref: swingsJSPath, Unit: "P(yes)", Threshold: fixed(score.SwingThreshold(swingDefault), 2), Questions: sw.Reference}
	if decision {
		d.Unit = "share of yes answers"
	}
	cells := design.Cells()
	pct := func(p float64) string {
		if decision {
			return fixed(100*p, 0) + "%"
		}
		return fixed(p, 2)
	}
	for _, q := range sw.Questions {
		r := swingRow{Q: q.Q, Href: path.Base(scenarioPath(e.ID(), q.Q)), Label: texts.label(m.Variant, q.Q),
			Pairs: thousands(q.Pairs[swingDefault]), NullPairs: refNumber(q.NullPairs[swingDefault], 1), NullAny: refPercent(q.NullAny[swingDefault]),
			Hidden: q.Pairs[swingDefault] == 0}
		if q.Lo >= 0 {
			r.LoLabel, r.HiLabel = cells[q.Lo].Label(), cells[q.Hi].Label()
			r.Range = fixed(q.Range, 2)
			r.PairHref = path.Base(scenarioPath(e.ID(), q.Q)) + "#cells?a=" + cells[q.Lo].Anchor() + "&b=" + cells[q.Hi].Anchor()
		}
		if r.LoLabel != "" {
			r.LoP, r.HiP = pct(q.LoP), pct(q.HiP)
		}
		d.Rows = append(d.Rows, r)
		var pairs, np, na []int
		for k := range score.SwingSteps {
			pairs = append(pairs, q.Pairs[k])
			np = append(np, refInt(q.NullPairs[k], 10))
			na = append(na, refInt(q.NullAny[k], 1000))
		}
		for len(pairs) > 0 && pairs[len(pairs)-1] == 0 {
			pairs = pairs[:len(pairs)-1]
		}
		for len(np) > 0 && np[len(np)-1] == 0 {
			np = np[:len(np)-1]
		}
		for len(na) > 0 && na[len(na)-1] == 0 {
			na = na[:len(na)-1]
		}
		d.Data.Pairs, d.Data.NullPairs, d.Data.NullAny = append(d.Data.Pairs, pairs), append(d.Data.NullPairs, np), append(d.Data.NullAny, na)
	}
	for k := range score.SwingSteps {
		d.Data.With = append(d.Data.With, sw.WithReference(k))
		d.Data.Expected = append(d.Data.Expected, int(math.Round(10*sw.Expected[k])))
		d.Data.Lo, d.Data.Hi = append(d.Data.Lo, sw.Lo95[k]), append(d.Data.Hi, sw.Hi95[k])
	}
	d.Data.Of = sw.Reference
	d.Summary = summaryAt(sw, swingDefault)
	return &page{Path: swingsPath(e.ID()), Title: "Prompt-level swings · " + m.Model.Name + " · " + string(m.Variant), Section: secNone, Body: d}
}

func summaryAt(sw *score.Swings, k int) swingSummary {
	s := swingSummary{With: sw.WithReference(k), Of: sw.Reference, NoReference: sw.Reference == 0}
	if s.NoReference {
		return s
	}
	s.Expected, s.Lo, s.Hi = fixed(sw.Expected[k], 1), itoa(sw.Lo95[k]), itoa(sw.Hi95[k])
	s.More, s.Fewer = s.With > sw.Hi95[k], s.With < sw.Lo95[k]
	var pairs, null float64
	for _, q := range sw.Questions {
		if !math.IsNaN(q.NullPairs[k]) {
			pairs += float64(q.Pairs[k])
			null += q.NullPairs[k]
		}
	}
	s.Pairs, s.NullPairs = thousands(int(pairs)), thousands(int(math.Round(null)))
	return s
}

// refNumber writes a reference's number, "n/a" where there is none.
func refNumber(v float64, d int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fixed(v, d)
}

func refPercent(p float64) string {
	if math.IsNaN(p) {
		return "n/a"
	}
	return fixed(100*p, 0) + "%"
}

// refInt is v × scale rounded, −1 where there is no reference.
func refInt(v, scale float64) int {
	if math.IsNaN(v) {
		return -1
	}
	return int(math.Round(v * scale))
}
