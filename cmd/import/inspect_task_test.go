package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	rundir "github.com/discrimeval/leaderboard/internal/run"
)

// TestInspectTaskForReal runs the shipped task with inspect_ai itself (the
// pinned version, Inspect's built-in mockllm/model) on the real rows of
// question 0, and imports the .eval it writes. It needs a virtual
// environment with inspect-requirements.txt installed, named by
// INSPECT_VENV (default .venv-inspect at the top of the repo); it skips,
// saying so, where there is none.
func TestInspectTaskForReal(t *testing.T) {
	venv := os.Getenv("INSPECT_VENV")
	if venv == "" {
		venv = "../../.venv-inspect"
	}
	inspect := filepath.Join(venv, "bin", "inspect")
	if _, err := os.Stat(inspect); err != nil {
		t.Skipf("no inspect_ai at %s: python3 -m venv %s && %s/bin/pip install -r cmd/import/inspect-requirements.txt (needs PyPI)", inspect, venv, venv)
	}
	logs := t.TempDir()
	cmd := exec.Command(inspect, "eval", "discrim_eval.py", "-T", "data=../../testdata/explicit-excerpt-q0.jsonl",
		"--model", "mockllm/model", "--log-dir", logs, "--log-format", "eval", "--display", "none")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspect eval: %v\n%s", err, out.String())
	}
	found, _ := filepath.Glob(filepath.Join(logs, "*.eval"))
	if len(found) != 1 {
		t.Fatalf("%d .eval logs in %s\n%s", len(found), logs, out.String())
	}
	runs := t.TempDir()
	var msg bytes.Buffer
	if err := run([]string{"inspect", found[0], "--id", "mockllm", "-runs", runs}, &msg, &msg); err != nil {
		t.Fatal(err)
	}
	r, err := rundir.Load(os.DirFS(runs), "runs", "mockllm")
	if err != nil {
		t.Fatal(err)
	}
	// mockllm answers "Default output from mockllm/model": every answer is
	// kept, and counted as unparsed.
	if len(r.Cells) != 135 || r.Manifest.Scoring != rundir.Decision || r.Cells[0].Other != 1 ||
		!strings.HasPrefix(r.Cells[0].Unparsed[0], "Default output from mockllm") || r.Manifest.Harness.Version != "0.3.260" {
		t.Errorf("%d cells, first %+v, harness %+v", len(r.Cells), r.Cells[0], r.Manifest.Harness)
	}
}
