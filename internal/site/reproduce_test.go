package site

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// python3 is the interpreter reproduce.py runs with; without one the test
// skips, unless DISCRIM_PYTHON_REQUIRED is set (CI skips nothing).
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("DISCRIM_PYTHON_REQUIRED") != "" {
			t.Fatal("no python3: reproduce.py cannot be run")
		}
		t.Skip("no python3: reproduce.py cannot be run")
	}
	return p
}

// writeSite writes a site's files under dir.
func writeSite(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// reproduce runs the site's own reproduce.py (assets/reproduce.py) on dir.
func reproduce(t *testing.T, py, dir string) (out string, err error) {
	t.Helper()
	cmd := exec.Command(py, filepath.Join(dir, "assets", "reproduce.py"), dir)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	return buf.String(), err
}

// The site ships reproduce.py, and it recomputes the fixture site's
// numbers from the site's own files and agrees with them; with one number
// moved in a copy — a view's lower end, a rank set, a paired difference —
// it exits 1 naming that number.
func TestReproduceScript(t *testing.T) {
	skipReaderUnderRace(t)
	py := python3(t)
	files := fixtureSite(t)
	if files["assets/reproduce.py"] == nil {
		t.Fatal("the site has no assets/reproduce.py")
	}
	dir := t.TempDir()
	writeSite(t, dir, files)
	out, err := reproduce(t, py, dir)
	if err != nil || !strings.Contains(out, "numbers agree") {
		t.Fatalf("reproduce.py on the fixture site: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]))
	// Each change to a copy of one run's data file, and the words the
	// failure must name.
	var ranked, withDiff string
	for p, data := range files {
		var rec map[string]any
		if !strings.HasPrefix(p, "data/runs/") || !strings.HasSuffix(p, ".json") || json.Unmarshal(data, &rec) != nil {
			continue
		}
		if _, ok := rec["rank_set"]; ok && ranked == "" || ok && p < ranked {
			ranked = p
		}
		if _, ok := rec["intervention_difference"]; ok {
			withDiff = p
		}
	}
	if ranked == "" || withDiff == "" {
		t.Fatalf("no ranked run (%q) or intervention (%q) in the fixture site", ranked, withDiff)
	}
	for _, tc := range []struct {
		file, want string
		edit       func(rec map[string]any)
	}{
		{ranked, "views.composite.ci95[0]", func(rec map[string]any) {
			ci := rec["views"].(map[string]any)["composite"].(map[string]any)["ci95"].([]any)
			ci[0] = ci[0].(float64) + 0.01
		}},
		{ranked, "rank_set.race", func(rec map[string]any) {
			s := rec["rank_set"].(map[string]any)["race"].([]any)
			s[1] = s[1].(float64) + 1
		}},
		{withDiff, "intervention_difference.views.race.se", func(rec map[string]any) {
			d := rec["intervention_difference"].(map[string]any)["views"].(map[string]any)["race"].(map[string]any)
			d["se"] = d["se"].(float64) * 1.001
		}},
	} {
		var rec map[string]any
		if err := json.Unmarshal(files[tc.file], &rec); err != nil {
			t.Fatal(err)
		}
		tc.edit(rec)
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		moved := t.TempDir()
		writeSite(t, moved, files)
		writeSite(t, moved, map[string][]byte{tc.file: data})
		out, err := reproduce(t, py, moved)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "MISMATCH "+tc.file) || !strings.Contains(out, tc.want) {
			t.Errorf("%s with %s moved: %v, want exit status 1 naming it:\n%s", tc.file, tc.want, err, out)
		}
	}
}

// A board with a run fitted by REML (3% of its prompts missing, still
// ranked) and its intervention, also REML: reproduce.py reads their
// replicates from data/replicates/<id>.csv for the rank sets and the
// paired difference, and agrees with every number; with one replicate
// moved it names the view's standard error that no longer matches.
func TestReproduceScriptREML(t *testing.T) {
	skipReaderUnderRace(t)
	py := python3(t)
	rows := referenceRows(t)
	var some []run.Row // every 33rd prompt left out
	for i, r := range rows {
		if i%33 != 5 {
			some = append(some, r)
		}
	}
	runs := fstest.MapFS{}
	addRun(t, runs, "alpha", manifest("Alpha", run.Explicit, "default", run.Logprob), rows)
	addRun(t, runs, "omega", manifest("Omega", run.Explicit, "default", run.Logprob), shift(some, design.Black, 0.4))
	addRun(t, runs, "omega-illegal", manifest("Omega", run.Explicit, "illegal-to-discriminate", run.Logprob), shift(some, design.Black, 0.1))
	md, err := os.ReadFile("testdata/METHODOLOGY.md")
	if err != nil {
		t.Fatal(err)
	}
	files := generateMap(t, stage.Config{Content: os.DirFS("testdata/content"), Runs: runs, Methodology: md, Version: "test"})
	for _, id := range []string{"omega", "omega-illegal"} {
		var rec sitedata.Run
		if err := json.Unmarshal(files[sitedata.RunFile(id)], &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Fit == nil || rec.Fit.Method != "reml" || rec.Replicates == "" || files[rec.Replicates] == nil {
			t.Fatalf("%s: fit %+v, replicates %q", id, rec.Fit, rec.Replicates)
		}
		if id == "omega" && rec.Rank == nil {
			t.Fatalf("%s is not ranked: %s", id, rec.Unranked)
		}
	}
	dir := t.TempDir()
	writeSite(t, dir, files)
	out, err := reproduce(t, py, dir)
	if err != nil || !strings.Contains(out, "omega-illegal against omega: paired differences agree") || !strings.Contains(out, "rank sets agree") {
		t.Fatalf("reproduce.py on a board with REML runs: %v\n%s", err, out)
	}
	// One replicate moved.
	name := sitedata.ReplicatesFile("omega")
	lines := strings.Split(string(files[name]), "\n")
	cells := strings.Split(lines[1], ",")
	cells[1] = "9"
	lines[1] = strings.Join(cells, ",")
	moved := t.TempDir()
	writeSite(t, moved, files)
	writeSite(t, moved, map[string][]byte{name: []byte(strings.Join(lines, "\n"))})
	out, err = reproduce(t, py, moved)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "views.composite.se") {
		t.Errorf("a replicate of %s moved: %v, want exit status 1 naming the composite's standard error:\n%s", name, err, out)
	}
}
