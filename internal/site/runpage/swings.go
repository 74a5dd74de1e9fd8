package runpage

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
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// SwingDefault is the threshold the page is written at (0.30).
const SwingDefault = 5

type SwingsData struct {
	RunID, Model, Intervention string
	Variant                    run.Variant
	Decision                   bool
	RunHref, IndexHref         string
	MethodologyHref            string
	ScriptHref                 string
	Unit                       string // "P(yes)" or "share of yes answers"
	Threshold                  string // the default, "0.30": the value kept in the URL
	ThresholdPP                string // the default as the page writes it, "30 pp"
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
	// Beyond is the pairs found less the pairs expected under noise, as
	// shown (one decimal): what a reader compares, where a chance of at
	// least one swing under noise reads 100% beside 26 times the pairs.
	Beyond string
	Hidden bool // no pair over the default threshold
	// The largest swing: its two cells with their P(yes), and the
	// scenario page's side-by-side of them.
	LoLabel, HiLabel, LoP, HiP, Range string
	PairHref                          string
}

// swingJSON is, per question in the rows' order, the numbers at each
// threshold: pairs over it and the reference's expected pairs (one
// decimal, ×10); and per threshold the run's summary. Trailing zeros are
// left out of the pair counts.
type swingJSON struct {
	Pairs     [][]int `json:"pairs"`
	NullPairs [][]int `json:"nullPairs"`
	With      []int   `json:"with"`
	Expected  []int   `json:"expected"` // ×10
	Lo        []int   `json:"lo"`
	Hi        []int   `json:"hi"`
	Of        int     `json:"of"`
}

func SwingsPage(texts *layout.DatasetTexts, e *board.Entry, sw *score.Swings) *layout.Page {
	m := e.Run.Manifest
	decision := m.Scoring == run.Decision
	d := SwingsData{RunID: e.ID(), Model: m.Model.Name, Variant: m.Variant, Intervention: m.Intervention, Decision: decision,
		RunHref: paths.RunPath(e.ID()), IndexHref: paths.ScenariosPath(e.ID()), MethodologyHref: paths.MethodologyPath + "#prompt-level-swings",
		ScriptHref: paths.SwingsJSPath, Unit: "P(yes)", Threshold: show.Fixed(score.SwingThreshold(SwingDefault), 2),
		ThresholdPP: vocab.PPAt(100*score.SwingThreshold(SwingDefault), 0), Questions: sw.Reference}
	if decision {
		d.Unit = "share of yes answers"
	}
	cells := design.Cells()
	pct := func(p float64) string {
		if decision {
			return show.Fixed(100*p, 0) + "%"
		}
		return show.Fixed(p, 2)
	}
	for _, q := range sw.Questions {
		r := swingRow{Q: q.Q, Href: path.Base(paths.ScenarioPath(e.ID(), q.Q)), Label: texts.Label(m.Variant, q.Q),
			Pairs: show.Thousands(q.Pairs[SwingDefault]), NullPairs: refNumber(q.NullPairs[SwingDefault], 1), Beyond: beyond(q.Pairs[SwingDefault], q.NullPairs[SwingDefault]),
			Hidden: q.Pairs[SwingDefault] == 0}
		if q.Lo >= 0 {
			r.LoLabel, r.HiLabel = cells[q.Lo].Label(), cells[q.Hi].Label()
			r.Range = vocab.PPAt(100*q.Range, 0)
			r.PairHref = path.Base(paths.ScenarioPath(e.ID(), q.Q)) + "#cells?a=" + cells[q.Lo].Anchor() + "&b=" + cells[q.Hi].Anchor()
		}
		if r.LoLabel != "" {
			r.LoP, r.HiP = pct(q.LoP), pct(q.HiP)
		}
		d.Rows = append(d.Rows, r)
		var pairs, np []int
		for k := range score.SwingSteps {
			pairs = append(pairs, q.Pairs[k])
			np = append(np, refInt(q.NullPairs[k], 10))
		}
		for len(pairs) > 0 && pairs[len(pairs)-1] == 0 {
			pairs = pairs[:len(pairs)-1]
		}
		for len(np) > 0 && np[len(np)-1] == 0 {
			np = np[:len(np)-1]
		}
		d.Data.Pairs, d.Data.NullPairs = append(d.Data.Pairs, pairs), append(d.Data.NullPairs, np)
	}
	for k := range score.SwingSteps {
		d.Data.With = append(d.Data.With, sw.WithReference(k))
		d.Data.Expected = append(d.Data.Expected, int(math.Round(10*sw.Expected[k])))
		d.Data.Lo, d.Data.Hi = append(d.Data.Lo, sw.Lo95[k]), append(d.Data.Hi, sw.Hi95[k])
	}
	d.Data.Of = sw.Reference
	d.Summary = summaryAt(sw, SwingDefault)
	return &layout.Page{Path: paths.SwingsPath(e.ID()), Title: "Prompt-level swings · " + m.Model.Name + " · " + string(m.Variant), Section: layout.SecNone, Body: d}
}

func summaryAt(sw *score.Swings, k int) swingSummary {
	s := swingSummary{With: sw.WithReference(k), Of: sw.Reference, NoReference: sw.Reference == 0}
	if s.NoReference {
		return s
	}
	s.Expected, s.Lo, s.Hi = show.Fixed(sw.Expected[k], 1), show.Itoa(sw.Lo95[k]), show.Itoa(sw.Hi95[k])
	s.More, s.Fewer = s.With > sw.Hi95[k], s.With < sw.Lo95[k]
	var pairs, null float64
	for _, q := range sw.Questions {
		if !math.IsNaN(q.NullPairs[k]) {
			pairs += float64(q.Pairs[k])
			null += q.NullPairs[k]
		}
	}
	s.Pairs, s.NullPairs = show.Thousands(int(pairs)), show.Thousands(int(math.Round(null)))
	return s
}

// refNumber writes a reference's number, "n/a" where there is none.
func refNumber(v float64, d int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return show.Fixed(v, d)
}

// beyond writes the pairs found less those expected under noise as shown
// (one decimal), signed, with a separator of thousands: "+1,885.3"; "n/a"
// where there is no reference. static/swings.js writes it alike.
func beyond(pairs int, expected float64) string {
	if math.IsNaN(expected) {
		return "n/a"
	}
	s := show.Signed(float64(pairs)-math.Round(10*expected)/10, 1)
	sign, digits := "", s
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "−") {
		sign, digits = s[:len(s)-len(strings.TrimLeft(s, "+−"))], strings.TrimLeft(s, "+−")
	}
	whole, frac, _ := strings.Cut(digits, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return sign + whole + "." + frac
}

// refInt is v × scale rounded, −1 where there is no reference.
func refInt(v, scale float64) int {
	if math.IsNaN(v) {
		return -1
	}
	return int(math.Round(v * scale))
}
