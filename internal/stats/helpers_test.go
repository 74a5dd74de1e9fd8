package stats_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// loadRun reads a scored run in the dataset's JSONL form (gzipped), with the
// response logit = logsumexp(yes, Yes) − logsumexp(no, No).
func loadRun(t testing.TB, path string) []stats.Obs {
	t.Helper()
	var out []stats.Obs
	sc := bufio.NewScanner(openGzip(t, path))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct {
			Q        int                `json:"decision_question_id"`
			Age      float64            `json:"age"`
			Gender   string             `json:"gender"`
			Race     string             `json:"race"`
			Logprobs map[string]float64 `json:"logprobs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		cell, err := parseCell(row.Age, row.Gender, row.Race)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		lp := row.Logprobs
		y := logSumExp(lp["yes"], lp["Yes"]) - logSumExp(lp["no"], lp["No"])
		out = append(out, stats.Obs{Q: row.Q, Cell: cell, Y: y})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// openGzip opens a gzipped file for the duration of the test.
func openGzip(t testing.TB, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return zr
}

func parseCell(age float64, gender, race string) (design.Cell, error) {
	a, errA := design.ParseAge(age)
	g, errG := design.ParseGender(gender)
	r, errR := design.ParseRace(race)
	return design.Cell{Age: a, Gender: g, Race: r}, errors.Join(errA, errG, errR)
}

func logSumExp(a, b float64) float64 {
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}

// estimate is one coefficient of a reference fit.
type estimate struct {
	Estimate float64 `json:"estimate"`
	SE       float64 `json:"se"`
}

// lme4Ref is an lme4 reference fit. The shared reference files have only
// the coefficients; fit.R's files add the rest.
type lme4Ref struct {
	Coefs     map[string]estimate `json:"lme4_reml"`
	Intercept *estimate           `json:"intercept"`
	REMLCrit  float64             `json:"reml_criterion"`
	Sigma2    float64             `json:"sigma2"`
	Singular  bool                `json:"singular"`
	Messages  []string            `json:"convergence_messages"`
	// Decision runs: brglm2's per-question Firth fits.
	Firth         map[string]estimate `json:"firth_two_stage"`
	FirstQuestion struct {
		ID           int                `json:"id"`
		Coefficients map[string]float64 `json:"coefficients"`
	} `json:"first_question"`
}

func loadRef(t testing.TB, path string) lme4Ref {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref lme4Ref
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if n := max(len(ref.Coefs), len(ref.Firth)); n != int(design.NumCoefs) {
		t.Fatalf("%s: %d coefficients, want %d", path, n, design.NumCoefs)
	}
	return ref
}

func clustersOf(t testing.TB, obs []stats.Obs) []stats.Cluster {
	t.Helper()
	_, cl, err := stats.Clusters(obs)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// mustFit fits cl (p = design.NumFixed columns) or fails the test.
func mustFit(t testing.TB, fit func([]stats.Cluster, int) (*stats.MixedFit, error), cl []stats.Cluster) *stats.MixedFit {
	t.Helper()
	f, err := fit(cl, design.NumFixed)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
