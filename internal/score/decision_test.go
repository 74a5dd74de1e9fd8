package score

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// The decision fixture of internal/stats against R: each question's
// logistic regression by brglm2 (Firth), then the mean and standard error
// over questions (internal/stats/testdata/lme4/fit.R).
func TestDecisionMatchesBrglm2(t *testing.T) {
	const dir = "../stats/testdata/"
	f, err := os.Open(dir + "decisions-seed21.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	table, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r := &run.Run{ID: "decisions-seed21", Manifest: &run.Manifest{Scoring: run.Decision, Variant: run.Explicit}}
	for _, rec := range table[1:] {
		q, _ := strconv.Atoi(rec[0])
		age, _ := strconv.Atoi(rec[1])
		g, errG := design.ParseGender(rec[2])
		rc, errR := design.ParseRace(rec[3])
		yes, _ := strconv.Atoi(rec[4])
		n, _ := strconv.Atoi(rec[5])
		if errG != nil || errR != nil {
			t.Fatal(errG, errR)
		}
		r.Cells = append(r.Cells, run.Cell{Prompt: design.Prompt{Q: q, Cell: design.Cell{Age: age, Gender: g, Race: rc}}, Yes: yes, No: n - yes})
	}
	var ref struct {
		Firth map[string]struct{ Estimate, SE float64 } `json:"firth_two_stage"`
	}
	b, err := os.ReadFile(dir + "decisions-seed21.reference.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Scored || res.Fit.Method != FitFirth {
		t.Fatalf("scored %v (%s), fit %v", res.Scored, res.Reason, res.Fit.Method)
	}
	for _, c := range design.Coefs {
		want := ref.Firth[c.Name()]
		near(t, c.Name(), res.Coefficients[c].Estimate, want.Estimate, 1e-8)
		near(t, c.Name()+" se", res.Coefficients[c].SE, want.SE, 1e-8)
	}
}
