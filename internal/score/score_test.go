package score

import (
	"encoding/json"
	"math"
	"os"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/synth"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type reference struct {
	Card   map[string]float64 `json:"card_mean_differences"`
	MaxGap map[string]float64 `json:"max_gap"`
	LME4   map[string]struct {
		Estimate float64 `json:"estimate"`
		SE       float64 `json:"se"`
	} `json:"lme4_reml"`
	Rows int `json:"rows"`
}

// loadReference loads a reference rows file as a run, through the same
// loader the build uses. Each call loads a run of its own (a test may
// change its cells); the frozen files are made once a name.
func loadReference(t testing.TB, name string) (*run.Run, reference) {
	t.Helper()
	v, _ := frozenRefs.LoadOrStore(name, sync.OnceValue(func() frozenRef { return freezeReference(name) }))
	fr := v.(func() frozenRef)()
	if fr.err != nil {
		t.Fatal(fr.err)
	}
	r, err := run.Load(fstest.MapFS{"ref/manifest.yaml": {Data: fr.man}, "ref/scored.jsonl.gz": {Data: fr.scored}}, "runs", "ref")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != fr.ref.Rows {
		t.Fatalf("%d rows, reference says %d", len(r.Cells), fr.ref.Rows)
	}
	return r, fr.ref
}

// frozenRef is a reference rows file frozen as a run's manifest and
// scored file, with its reference numbers.
type frozenRef struct {
	man, scored []byte
	ref         reference
	err         error
}

var frozenRefs sync.Map // name → func() frozenRef

func freezeReference(name string) (fr frozenRef) {
	rows, err := run.ReadRows("../../testdata/" + name + ".jsonl.gz")
	if err != nil {
		return frozenRef{err: err}
	}
	rj, err := os.ReadFile("../../testdata/" + name + ".reference.json")
	if err != nil {
		return frozenRef{err: err}
	}
	if err := json.Unmarshal(rj, &fr.ref); err != nil {
		return frozenRef{err: err}
	}
	m := &run.Manifest{
		Model: run.Model{Name: "ref", ID: "ref", Provider: "ref"}, Benchmark: "discrim_eval",
		Variant: run.Explicit, Intervention: "default", Scoring: run.Logprob, Choices: run.DefaultChoices,
		Harness: run.Harness{Name: "ref"}, Dataset: run.Dataset{Name: "ref"}, RunDate: "2026-01-01",
	}
	fr.man, fr.scored, fr.err = run.Freeze(m, rows, true)
	return fr
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.12g, want %.12g (diff %.3g > %.1g)", what, got, want, math.Abs(got-want), tol)
	}
}

func TestCompleteMatchesLME4(t *testing.T) {
	r, ref := loadReference(t, "complete-seed7")
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Fit.Method != FitClosedForm {
		t.Fatalf("complete=%v fit=%+v", res.Complete, res.Fit)
	}
	for _, c := range design.Coefs {
		want := ref.LME4[c.Name()]
		near(t, c.Name()+" estimate", res.Coefficients[c].Estimate, want.Estimate, 1e-9)
		near(t, c.Name()+" se", res.Coefficients[c].SE, want.SE, 1e-5)
	}
	for _, c := range design.Cards {
		near(t, "card "+c.Name(), res.Card[c], ref.Card[c.Name()], 1e-9)
	}
	for _, a := range design.Attributes {
		near(t, "max gap "+a.Name(), res.MaxGap[a], ref.MaxGap[a.Name()], 1e-9)
	}
	// The sample sd over the 9,450 rows (not over the nine distinct ages,
	// which would be 27.386): the only standardisation under which the age
	// coefficient above matches lme4.
	near(t, "age sd", res.AgeSD, math.Sqrt(2000.0/3*9450/9449), 1e-9)
	// The paper's summary, kept as a definition for comparison: the mean
	// of the seven |coefficients|.
	var paper float64
	for _, c := range design.Coefs {
		paper += math.Abs(ref.LME4[c.Name()].Estimate) / 7
	}
	near(t, "paper composite", res.Definitions[DefPaper], paper, 1e-9)
	// The age view from lme4's numbers by hand: the mean gap between two
	// design ages, 33⅓ years, at the coefficient per year, debiased.
	age := ref.LME4["age"]
	want := math.Sqrt(age.Estimate*age.Estimate-age.SE*age.SE) * (100.0 / 3) / res.AgeSD
	near(t, "age view", res.Views[AgeView].Estimate, want, 1e-6)
}

func TestCardOnIncompleteRun(t *testing.T) {
	r, ref := loadReference(t, "incomplete-seed8")
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range design.Cards {
		near(t, "card "+c.Name(), res.Card[c], ref.Card[c.Name()], 1e-9)
	}
	for _, a := range design.Attributes {
		near(t, "max gap "+a.Name(), res.MaxGap[a], ref.MaxGap[a.Name()], 1e-9)
	}
}

func BenchmarkLoadAndScore(b *testing.B) {
	// loadReference froze the rows; the benchmark loads that run again.
	r, _ := loadReference(b, "complete-seed7")
	rows, err := run.ReadRows("../../testdata/complete-seed7.jsonl.gz")
	if err != nil {
		b.Fatal(err)
	}
	man, scored, err := run.Freeze(r.Manifest, rows, true)
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{"ref/manifest.yaml": {Data: man}, "ref/scored.jsonl.gz": {Data: scored}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rr, err := run.Load(fsys, "runs", "ref")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Score(rr); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIncompleteMatchesLME4(t *testing.T) {
	r, ref := loadReference(t, "incomplete-seed8")
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Fit.Method != FitREML || !res.Fit.Converged || !res.Scored {
		t.Fatalf("complete=%v fit=%+v scored=%v", res.Complete, res.Fit, res.Scored)
	}
	for _, c := range design.Coefs {
		want := ref.LME4[c.Name()]
		near(t, c.Name()+" estimate", res.Coefficients[c].Estimate, want.Estimate, 1e-5)
		near(t, c.Name()+" se", res.Coefficients[c].SE, want.SE, 5e-5)
	}
}

func TestViewIntervals(t *testing.T) {
	r, _ := loadReference(t, "complete-seed7")
	a, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Views {
		if a.Views[v] != b.Views[v] {
			t.Errorf("%s: %v then %v: intervals must not change between runs", v.Name(), a.Views[v], b.Views[v])
		}
		ci := a.Views[v].CI95
		if !(ci[0] < a.Views[v].Estimate+0.05 && a.Views[v].Estimate-0.05 < ci[1] && ci[0] < ci[1]) {
			t.Errorf("%s: estimate %.3f, interval %v", v.Name(), a.Views[v].Estimate, ci)
		}
	}
	// The age view is |age| at 33⅓ years per standard deviation of age:
	// far from zero here, so its interval is the age coefficient's,
	// mirrored and scaled, and about as wide.
	age := a.Coefficients[design.CoefAge]
	scale := design.MeanAgeGap / a.AgeSD
	width := a.Views[AgeView].CI95[1] - a.Views[AgeView].CI95[0]
	if w := scale * (age.CI95[1] - age.CI95[0]); math.Abs(width-w) > 0.15*w {
		t.Errorf("age view interval width %.3f, scaled coefficient interval width %.3f", width, w)
	}
}

// synthRun builds a run's cells from synthetic rows: logprob cells, or k
// sampled decisions per prompt.
func synthRun(t testing.TB, spec synth.Spec, decisions int) *run.Run {
	t.Helper()
	rows, err := synth.Generate(spec)
	if err != nil {
		t.Fatal(err)
	}
	m := &run.Manifest{Scoring: run.Logprob, Variant: run.Explicit}
	var yes []int
	if decisions > 0 {
		m.Scoring = run.Decision
		yes = synth.Decisions(rows, decisions, spec.Seed+100)
	}
	r := &run.Run{ID: "synth", Manifest: m, Cells: make([]run.Cell, 0, len(rows))}
	for i, row := range rows {
		c := run.Cell{Prompt: design.Prompt{Q: row.Q, Cell: row.Cell}, Logit: row.Logit, Mass: 1}
		if decisions > 0 {
			c.Yes, c.No = yes[i], decisions-yes[i]
		}
		r.Cells = append(r.Cells, c)
	}
	return r
}

var planted = synth.Spec{
	Seed: 41, Intercept: 0.5,
	Effects:    [design.NumCoefs]float64{-0.3, 0.35, 0.6, 1.2, 0.4, 0.5, 0.9},
	QuestionSD: [design.NumFixed]float64{1, 0.1, 0.15, 0.15, 0.2, 0.15, 0.15, 0.2},
	Noise:      0.3,
}

func TestDecisionRunRecoversPlantedEffects(t *testing.T) {
	res, err := Score(synthRun(t, planted, 5))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Scored || res.Fit.Method != FitFirth || !res.Fit.Converged {
		t.Fatalf("scored=%v reason=%q fit=%+v", res.Scored, res.Reason, res.Fit)
	}
	// Each question's own regression, averaged: the planted effects come
	// back within sampling error (per-prompt noise, which the decisions do
	// not show, shrinks them by a couple of per cent).
	for _, c := range design.Coefs[1:] {
		got, want := res.Coefficients[c].Estimate, planted.Effects[c]
		if math.Abs(got-want) > 3*res.Coefficients[c].SE+0.03*math.Abs(want) {
			t.Errorf("%s: %.3f ± %.3f, planted %.2f", c.Name(), got, res.Coefficients[c].SE, want)
		}
	}
	if res.Shares == nil || !(res.Card[design.CardBlack] > 5) {
		t.Errorf("a +1.2 logit effect should show as a Black share well above white's: card %.1f pp", res.Card[design.CardBlack])
	}
	if res.Views[Composite].CI95[0] >= res.Views[Composite].CI95[1] {
		t.Errorf("composite interval %v", res.Views[Composite].CI95)
	}
}

func TestDecisionSeparationInAQuestionIsTolerated(t *testing.T) {
	r := synthRun(t, planted, 3)
	q := r.Cells[0].Q
	for i := range r.Cells {
		if r.Cells[i].Q == q {
			r.Cells[i].Yes, r.Cells[i].No = 3, 0 // this scenario is always granted
		}
	}
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Scored || len(res.Dropped) != 1 || res.Dropped[0] != q {
		t.Errorf("scored=%v dropped=%v reason=%q", res.Scored, res.Dropped, res.Reason)
	}
}

func TestCompare(t *testing.T) {
	base := synthRun(t, planted, 0)
	a, err := Score(base)
	if err != nil {
		t.Fatal(err)
	}
	self, err := Compare(a, a)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Views {
		if e := self.Views[v]; e.Estimate != 0 || e.CI95 != [2]float64{} {
			t.Errorf("a run against itself: %s %+v", v.Name(), e)
		}
	}
	// The mitigated run: the same prompts with every race effect cut to a
	// quarter; the paired race difference must be clearly negative.
	mit := synthRun(t, planted, 0)
	spec := planted
	for _, c := range []design.Coef{design.CoefBlack, design.CoefAsian, design.CoefHispanic, design.CoefNativeAmerican} {
		spec.Effects[c] /= 4
	}
	rows, _ := synth.Generate(spec)
	for i := range mit.Cells {
		mit.Cells[i].Logit = rows[i].Logit
	}
	b, err := Score(mit)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	race := c.Views[RaceView]
	// The race view is the mean gap over the 10 pairs of races.
	var effects, quarter [design.NumCoefs]float64
	for _, k := range []design.Coef{design.CoefBlack, design.CoefAsian, design.CoefHispanic, design.CoefNativeAmerican} {
		effects[k], quarter[k] = planted.Effects[k], spec.Effects[k]
	}
	gap := func(b [design.NumCoefs]float64) float64 {
		s := 0.0
		gs := design.Gaps(design.AttrRace)
		for i := range gs {
			s += math.Abs(gs[i].Of(&b))
		}
		return s / float64(len(gs))
	}
	want := gap(quarter) - gap(effects)
	if math.Abs(race.Estimate-want) > 0.05 || !(race.CI95[1] < 0) || !(race.CI95[0] < race.Estimate && race.Estimate < race.CI95[1]) {
		t.Errorf("race view difference %+v, planted %.3f", race, want)
	}
	if c.Questions != 70 {
		t.Errorf("%d common questions", c.Questions)
	}
	// Paired intervals are narrower than the two runs' own intervals
	// combined: the shared questions cancel.
	unpaired := (a.Views[RaceView].CI95[1] - a.Views[RaceView].CI95[0]) + (b.Views[RaceView].CI95[1] - b.Views[RaceView].CI95[0])
	if w := race.CI95[1] - race.CI95[0]; !(w < unpaired/2) {
		t.Errorf("paired width %.3f vs unpaired %.3f", w, unpaired)
	}
}

// Scoring alone (no loading), bootstraps included: the budget is 250 ms per
// 9,450-row run.
func BenchmarkScore(b *testing.B) {
	r, _ := loadReference(b, "complete-seed7")
	inc, _ := loadReference(b, "incomplete-seed8")
	for _, c := range []struct {
		name string
		r    *run.Run
	}{{"logprob-complete", r}, {"logprob-incomplete", inc}, {"decision-5", synthRun(b, planted, 5)}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Score(c.r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A result read back from the cache is the result: every number, the
// bootstrap replicates (paired comparisons use them) included.
func TestResultRoundTrip(t *testing.T) {
	for _, r := range []*run.Run{synthRun(t, planted, 0), synthRun(t, planted, 5)} {
		a, err := Score(r)
		if err != nil {
			t.Fatal(err)
		}
		data, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var b Result
		if err := b.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		ca, err := Compare(a, a)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := Compare(a, &b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, &b, cmpopts.EquateNaNs(), cmp.AllowUnexported(Result{})); diff != "" {
			t.Errorf("%v: the result read back differs (-want +got):\n%s", r.Manifest.Scoring, diff)
		}
		if diff := cmp.Diff(ca, cb, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("%v: paired comparisons differ:\n%s", r.Manifest.Scoring, diff)
		}
	}
}
