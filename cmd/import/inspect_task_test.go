package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	rundir "github.com/discrimeval/leaderboard/internal/run"
)

// The virtual environments .ci/run makes (.ci/python.sh): the pinned
// inspect_ai of inspect-requirements.txt, the oldest version the
// importer reads that writes no output.completion, and the lm-eval of
// lmeval-requirements.txt.
const (
	inspectVenv    = "../../.ci/venv/inspect"
	inspectOldVenv = "../../.ci/venv/inspect-old"
	lmevalVenv     = "../../.ci/venv/lmeval"
)

// venvOr returns the venv's bin folder, or skips (fails where .ci/run set
// DISCRIM_PYTHON_REQUIRED: CI skips nothing).
func venvOr(t *testing.T, env, def, exe string) string {
	t.Helper()
	venv := os.Getenv(env)
	if venv == "" {
		venv = def
	}
	bin := filepath.Join(venv, "bin")
	if _, err := os.Stat(filepath.Join(bin, exe)); err != nil {
		msg := "no " + exe + " in " + bin + " (" + env + "): bash .ci/python.sh makes it (needs PyPI)"
		if os.Getenv("DISCRIM_PYTHON_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// TestInspectTaskForReal runs the shipped task with inspect_ai itself on
// the real rows in testdata (questions 0 and 95 complete, 20 rows of
// question 1), through testdata/mock_eval.py: Inspect's eval() with
// mockllm/model giving outputs as real providers return them,
// log-probabilities and sampled answers. The .eval
// files are imported, checked against what the mock returned, and built
// into a site.
//
// The three tests that run a harness (this one, TestInspectTaskOldVersion
// and TestLMEvalForReal) run in parallel with each other, after the
// package's other tests (go test's -parallel, GOMAXPROCS at a time): each
// is mostly Python starting and running in one process, and one after the
// other they made cmd/import the slowest package.
func TestInspectTaskForReal(t *testing.T) {
	t.Parallel()
	inspectForReal(t, venvOr(t, "INSPECT_VENV", inspectVenv, "inspect"), "0.3.260")
}

// TestInspectTaskOldVersion is TestInspectTaskForReal with inspect_ai
// 0.3.122 (inspect-old-requirements.txt), the last version whose logs
// have no output.completion: the importer reads the answer from the first
// choice's message, in a log that version wrote.
func TestInspectTaskOldVersion(t *testing.T) {
	t.Parallel()
	inspectForReal(t, venvOr(t, "INSPECT_OLD_VENV", inspectOldVenv, "inspect"), "0.3.122")
}

func inspectForReal(t *testing.T, bin, version string) {
	logs := runMock(t, bin, realRows(t))
	// Not `inspect eval … --model mockllm/model` with its default output:
	// in 0.3.260 that output's token count loads tiktoken's o200k_base
	// from openaipublic.blob.core.windows.net, which CI cannot reach
	// ("every sample ended in an error: ConnectionError"); mock_eval.py
	// calls the same eval() the CLI calls, with outputs of its own.
	runs := t.TempDir()
	for mode, l := range logs {
		var msg bytes.Buffer
		if err := run([]string{"inspect", l.log, "--id", "mock-" + mode, "-runs", runs}, &msg, &msg); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, msg.String())
		}
		t.Logf("%s: %s", mode, strings.TrimSpace(msg.String()))
		if version == "0.3.122" && bytes.Contains(memberOf(t, l.log, "samples/explicit-q0-20-female-white_epoch_1.json"), []byte(`"completion"`)) {
			t.Errorf("%s: inspect_ai %s wrote output.completion", l.log, version)
		}
	}
	checkMock(t, runs, logs, version)
}

// realRows writes the repository's real dataset rows to one file.
func realRows(t *testing.T) string {
	var all []byte
	for _, f := range []string{"q0", "q95", "q1-partial"} {
		b, err := os.ReadFile("../../testdata/explicit-excerpt-" + f + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mockLog is a log mock_eval.py wrote and what the mock returned for each
// filled template.
type mockLog struct {
	log      string
	expected map[string]struct {
		Logit   *float64 `json:"logit"`
		Answers []string `json:"answers"`
	}
}

// runMock runs mock_eval.py, which runs the task in both modes, one after
// the other in one Python process: Inspect's imports cost more CPU than
// either mode's eval.
func runMock(t *testing.T, bin, rows string) map[string]mockLog {
	dir := t.TempDir()
	out, err := exec.Command(filepath.Join(bin, "python"), "testdata/mock_eval.py", rows, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("mock_eval.py: %v\n%s", err, out)
	}
	logs := map[string]mockLog{}
	for _, mode := range []string{"logprob", "decision"} {
		l := mockLog{log: oneLog(t, filepath.Join(dir, mode))}
		b, err := os.ReadFile(filepath.Join(dir, mode, "expected.json"))
		if err == nil {
			err = json.Unmarshal(b, &l.expected)
		}
		if err != nil {
			t.Fatal(err)
		}
		logs[mode] = l
	}
	return logs
}

func oneLog(t *testing.T, dir string) string {
	found, _ := filepath.Glob(filepath.Join(dir, "*.eval"))
	if len(found) != 1 {
		t.Fatalf("%d .eval logs in %s", len(found), dir)
	}
	return found[0]
}

func load(t *testing.T, runs, id string) *rundir.Run {
	t.Helper()
	r, err := rundir.Load(os.DirFS(runs), "runs", id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkMock checks the imported runs of mock_eval.py against what the mock
// returned, row by row, and the built site's numbers against the same.
func checkMock(t *testing.T, runs string, logs map[string]mockLog, version string) {
	t.Helper()
	var female, male [2]float64 // sum, count of the mock's logits
	for _, mode := range []string{"logprob", "decision"} {
		id := "mock-" + mode
		r := load(t, runs, id)
		rows, err := rundir.ReadRows(filepath.Join(runs, id, r.Manifest.Scored.Path))
		if err != nil {
			t.Fatal(err)
		}
		// The task's prompt: the scenario, a blank line, the question.
		if f := r.Manifest.PromptForm; f == nil || *f != (rundir.PromptForm{Break: "blank line", Quotes: "straight"}) {
			t.Errorf("%s: prompt form %+v", mode, f)
		}
		exp := logs[mode].expected
		if len(rows) != 290 || len(r.Cells) != 290 || len(exp) != 290 || r.Manifest.Harness.Version != version {
			t.Fatalf("%s: %d rows, %d cells, mock saw %d prompts; harness %+v", mode, len(rows), len(r.Cells), len(exp), r.Manifest.Harness)
		}
		for i, row := range rows {
			e, ok := exp[row.FilledTemplate]
			c := r.Cells[i]
			switch {
			case !ok:
				t.Fatalf("%s line %d: the mock never saw %.60q", mode, i+1, row.FilledTemplate)
			case mode == "logprob":
				if math.Abs(c.Logit-*e.Logit) > 1e-9 || len(row.Bounded) > 0 {
					t.Errorf("line %d: logit %v, the mock returned %v (bounded %v)", i+1, c.Logit, *e.Logit, row.Bounded)
				}
				s := &male
				if c.Gender == design.Female {
					s = &female
				}
				if c.Gender != design.NonBinary {
					s[0] += *e.Logit
					s[1]++
				}
			default:
				got, want := slices.Clone(row.Decisions), slices.Clone(e.Answers)
				slices.Sort(got)
				slices.Sort(want)
				yes := 0
				for _, a := range want {
					if strings.HasPrefix(strings.ToLower(strings.Trim(a, "*")), "yes") {
						yes++
					}
				}
				if !slices.Equal(got, want) || c.Yes != yes || c.No != len(want)-yes || c.Other != 0 {
					t.Errorf("line %d: answers %q (%d yes, %d no, %d other), the mock returned %q", i+1, row.Decisions, c.Yes, c.No, c.Other, e.Answers)
				}
			}
		}
	}
	files, data, _ := buildAll(t, runs)
	for _, id := range []string{"mock-logprob", "mock-decision"} {
		if d := data[id]; !d.Scored {
			t.Errorf("%s not scored: %s", id, d.Unranked)
		}
	}
	// The card's female − male difference of the logprob run is the mean
	// of the mock's logits by gender.
	var card struct {
		Card map[string]float64 `json:"card"`
	}
	for _, f := range files {
		if f.Path == "data/runs/mock-logprob.json" {
			json.Unmarshal(f.Data, &card)
		}
	}
	want := female[0]/female[1] - male[0]/male[1]
	if math.Abs(card.Card["female"]-want) > 1e-8 { // the data file rounds to 10 decimals
		t.Errorf("card female %v, the mock's logits give %v", card.Card["female"], want)
	}
}
