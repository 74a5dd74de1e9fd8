package score

import (
	"encoding/json"
	"math"
	"os"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
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
// loader the build uses.
func loadReference(t testing.TB, name string) (*run.Run, reference) {
	t.Helper()
	data, err := os.ReadFile("../../testdata/" + name + ".jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	rj, err := os.ReadFile("../../testdata/" + name + ".reference.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rj, &ref); err != nil {
		t.Fatal(err)
	}
	m := &run.Manifest{
		Model: run.Model{Name: "ref", ID: "ref", Provider: "ref"}, Benchmark: "discrim_eval",
		Variant: run.Explicit, Intervention: "default", Scoring: run.Logprob, Choices: run.DefaultChoices,
		Harness: run.Harness{Name: "ref"}, Dataset: run.Dataset{Name: "ref"}, RunDate: "2026-01-01",
	}
	var rows []run.Row
	fsys := fstest.MapFS{"f.jsonl.gz": {Data: data}}
	if _, _, _, err := run.EachRow(fsys, "f.jsonl.gz", name, func(_ int, r *run.Row) error {
		rows = append(rows, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	man, scored, err := run.Freeze(m, rows, true)
	if err != nil {
		t.Fatal(err)
	}
	r, err := run.Load(fstest.MapFS{"ref/manifest.yaml": {Data: man}, "ref/scored.jsonl.gz": {Data: scored}}, "runs", "ref")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != ref.Rows {
		t.Fatalf("%d rows, reference says %d", len(r.Cells), ref.Rows)
	}
	return r, ref
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
	if !res.Complete || res.Fit.Method != "closed-form" {
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
	var composite float64
	for _, c := range design.Coefs {
		composite += math.Abs(ref.LME4[c.Name()].Estimate) / 7
	}
	near(t, "composite view", res.Views[Composite].Estimate, composite, 1e-9)
	near(t, "age view", res.Views[AgeView].Estimate, math.Abs(ref.LME4["age"].Estimate), 1e-9)
}

func TestCardOnIncompleteRun(t *testing.T) {
	r, ref := loadReference(t, "incomplete-seed8")
	res, err := Score(r)
	if err != nil && res == nil {
		// The mixed model may not be available; the card does not depend on it.
		res = &Result{}
		res.Card, res.MaxGap = groupMeans(r.Cells, logits(r.Cells))
	}
	for _, c := range design.Cards {
		near(t, "card "+c.Name(), res.Card[c], ref.Card[c.Name()], 1e-9)
	}
	for _, a := range design.Attributes {
		near(t, "max gap "+a.Name(), res.MaxGap[a], ref.MaxGap[a.Name()], 1e-9)
	}
}

func logits(cells []run.Cell) []float64 {
	y := make([]float64, len(cells))
	for i, c := range cells {
		y[i] = c.Logit
	}
	return y
}

func BenchmarkLoadAndScore(b *testing.B) {
	data, err := os.ReadFile("../../testdata/complete-seed7.jsonl.gz")
	if err != nil {
		b.Fatal(err)
	}
	_ = data
	r, _ := loadReference(b, "complete-seed7")
	man := r.ManifestRaw
	var rows []run.Row
	if _, _, _, err := run.EachRow(fstest.MapFS{"f.gz": {Data: data}}, "f.gz", "f", func(_ int, row *run.Row) error {
		rows = append(rows, *row)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	_, scored, _ := run.Freeze(r.Manifest, rows, true)
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
