package stats_test

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// Synthetic fixtures with lme4 / glm reference fits. The CSV files are
// written from the specs below by
//
//	go test ./internal/stats/ -run TestFixturesMatchSpecs -update
//
// and the reference JSON by testdata/lme4/fit.R (see its README).
var update = flag.Bool("update", false, "rewrite the synthetic fixtures in testdata/ from their specs")

var paperEffects = [design.NumCoefs]float64{-0.28, 0.36, 0.60, 1.25, 0.42, 0.54, 0.91}

// logitFixtures are scored runs with various seeds, drop rates, effect
// sizes and random-effect structures, to test REML beyond the two shared
// reference runs.
var logitFixtures = []struct {
	name string
	spec synth.Spec
}{
	{"synth-seed11-drop05", synth.Spec{
		Seed: 11, Intercept: 0.8, Effects: paperEffects,
		QuestionSD: [design.NumFixed]float64{1.2, 0.25, 0.3, 0.4, 0.5, 0.35, 0.4, 0.45},
		Corr:       0.3, Noise: 0.5, Drop: 0.05,
	}},
	{"synth-seed12-drop25", synth.Spec{
		// Small effects (an intervention prompt), little question variation.
		Seed: 12, Intercept: -0.4,
		Effects:    [design.NumCoefs]float64{-0.05, 0.08, 0.12, 0.15, 0.03, 0.06, 0.1},
		QuestionSD: [design.NumFixed]float64{0.8, 0.08, 0.1, 0.12, 0.1, 0.08, 0.1, 0.1},
		Noise:      0.3, Drop: 0.25,
	}},
	{"synth-seed13-drop40", synth.Spec{
		// Large effects and noise, heavy missingness.
		Seed: 13, Intercept: 1.5,
		Effects:    [design.NumCoefs]float64{-0.6, 0.9, -0.4, 2.0, -0.7, 1.1, 1.6},
		QuestionSD: [design.NumFixed]float64{1.5, 0.5, 0.6, 0.7, 0.8, 0.6, 0.7, 0.9},
		Corr:       0.5, Noise: 1.0, Drop: 0.40,
	}},
	{"synth-seed14-drop15-null", synth.Spec{
		// No effects at all; one slope with no question variation (a fit on
		// or near the boundary).
		Seed: 14, Questions: synth.DefaultQuestions()[:40],
		QuestionSD: [design.NumFixed]float64{1.0, 0.2, 0.3, 0, 0.2, 0.25, 0.2, 0.3},
		Noise:      0.6, Drop: 0.15,
	}},
}

// decisionFixture is a sampled-answer run: five yes/no decisions per prompt.
var decisionFixture = struct {
	name   string
	spec   synth.Spec
	trials int
	seed   uint64
}{"decisions-seed21", synth.Spec{
	Seed: 21, Intercept: 0.3, Effects: paperEffects,
	QuestionSD: [design.NumFixed]float64{1.0, 0.2, 0.2, 0.3, 0.3, 0.2, 0.2, 0.3},
	Noise:      0.4, Drop: 0.1,
}, 5, 22}

func fixturePath(name string) string { return filepath.Join("testdata", name+".csv.gz") }

// TestFixturesMatchSpecs checks that the committed fixtures are what their
// specs generate, or rewrites them under -update. Logits are stored with six
// decimals (the files stay small; Go and R fit the same stored values), so
// the check allows the rounding and other platforms' last bits.
func TestFixturesMatchSpecs(t *testing.T) {
	for _, fx := range logitFixtures {
		rows, err := synth.Generate(fx.spec)
		if err != nil {
			t.Fatal(err)
		}
		table := [][]string{{"q", "age", "gender", "race", "logit"}}
		for _, r := range rows {
			table = append(table, append(cellFields(r), strconv.FormatFloat(r.Logit, 'f', 6, 64)))
		}
		checkOrWrite(t, fx.name, table)
	}
	fx := decisionFixture
	rows, err := synth.Generate(fx.spec)
	if err != nil {
		t.Fatal(err)
	}
	yes := synth.Decisions(rows, fx.trials, fx.seed)
	table := [][]string{{"q", "age", "gender", "race", "yes", "trials"}}
	for i, r := range rows {
		table = append(table, append(cellFields(r), strconv.Itoa(yes[i]), strconv.Itoa(fx.trials)))
	}
	checkOrWrite(t, fx.name, table)
}

func cellFields(r synth.Row) []string {
	return []string{strconv.Itoa(r.Q), strconv.Itoa(r.Cell.Age), r.Cell.Gender.String(), r.Cell.Race.String()}
}

func checkOrWrite(t *testing.T, name string, table [][]string) {
	t.Helper()
	path := fixturePath(name)
	if *update {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		w := csv.NewWriter(zw)
		if err := w.WriteAll(table); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got := readTable(t, path)
	if len(got) != len(table) {
		t.Fatalf("%s: %d lines, spec generates %d (rerun with -update?)", path, len(got), len(table))
	}
	for i := range table {
		for j := range table[i] {
			a, b := got[i][j], table[i][j]
			if a == b {
				continue
			}
			x, errA := strconv.ParseFloat(a, 64)
			y, errB := strconv.ParseFloat(b, 64)
			if errA != nil || errB != nil || math.Abs(x-y) > 5e-7+1e-12 {
				t.Fatalf("%s line %d field %d: file has %q, spec generates %q", path, i+1, j+1, a, b)
			}
		}
	}
}

func readTable(t testing.TB, path string) [][]string {
	t.Helper()
	table, err := csv.NewReader(openGzip(t, path)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return table
}

// fixtureRow is one parsed CSV fixture row; Y is the logit column or, for
// decision fixtures, the yes count.
type fixtureRow struct {
	obs    stats.Obs
	trials float64
}

func loadFixture(t testing.TB, name string) []fixtureRow {
	t.Helper()
	table := readTable(t, fixturePath(name))
	var out []fixtureRow
	for i, rec := range table[1:] {
		r, err := parseFixtureRow(rec)
		if err != nil {
			t.Fatalf("%s line %d: %v", name, i+2, err)
		}
		out = append(out, r)
	}
	return out
}

func parseFixtureRow(rec []string) (fixtureRow, error) {
	var r fixtureRow
	q, errQ := strconv.Atoi(rec[0])
	age, errA := strconv.ParseFloat(rec[1], 64)
	y, errY := strconv.ParseFloat(rec[4], 64)
	if err := errors.Join(errQ, errA, errY); err != nil {
		return r, err
	}
	cell, err := parseCell(age, rec[2], rec[3])
	r.obs = stats.Obs{Q: q, Cell: cell, Y: y}
	if err == nil && len(rec) > 5 {
		r.trials, err = strconv.ParseFloat(rec[5], 64)
	}
	return r, err
}

func fixtureObs(rows []fixtureRow) []stats.Obs {
	out := make([]stats.Obs, len(rows))
	for i, r := range rows {
		out[i] = r.obs
	}
	return out
}
