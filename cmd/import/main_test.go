package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rundir "github.com/discrimeval/leaderboard/internal/run"
)

const (
	lmSamples = "../../internal/importer/lmeval/testdata/limit150/samples_discrim_eval_explicit_2025-08-25T14-03-11.123456.jsonl.gz"
	lmResults = "../../internal/importer/lmeval/testdata/limit150/results_2025-08-25T14-03-11.123456.json"
	evalLog   = "../../internal/importer/inspect/testdata/logprob.eval"
)

func TestImportBothHarnessesAndLoad(t *testing.T) {
	runs := t.TempDir()
	var out bytes.Buffer
	if err := run([]string{"lm-eval", "--samples", lmSamples, "--results", lmResults, "--id", "fixture-lm", "-runs", runs}, &out, &out); err != nil {
		t.Fatal(err)
	}
	// Flags may follow the log file.
	if err := run([]string{"inspect", evalLog, "--id", "fixture-inspect", "-runs", runs}, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote " + filepath.Join(runs, "fixture-lm") + ": 150 rows", "incomplete: run with --limit 150", "wrote " + filepath.Join(runs, "fixture-inspect") + ": 270 rows"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	loaded, err := rundir.LoadAll(os.DirFS(runs), "runs")
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != 2 || len(loaded[0].Cells) != 270 || len(loaded[1].Cells) != 150 {
		t.Fatalf("loaded %d runs", len(loaded))
	}
	if _, err := os.Stat(filepath.Join(runs, "fixture-lm", "scored.jsonl.gz")); err != nil {
		t.Error(err)
	}

	// No overwrite without -force; with it, the run is replaced.
	err = run([]string{"lm-eval", "--samples", lmSamples, "--results", lmResults, "--id", "fixture-lm", "-runs", runs}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "already exists (use -force to replace it)") {
		t.Errorf("error %v", err)
	}
	if err := run([]string{"lm-eval", "--samples", lmSamples, "--results", lmResults, "--id", "fixture-lm", "-runs", runs, "-force"}, &out, &out); err != nil {
		t.Error(err)
	}
}

func TestErrorsWriteNothing(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"lm-eval", "--samples", lmSamples, "--results", evalLog, "--id", "x"}, "logprob.eval:1: invalid character"},
		{[]string{"lm-eval", "--samples", lmSamples, "--id", "x"}, "lm-eval needs --samples and --results"},
		{[]string{"inspect", lmResults, "--id", "x"}, "not an Inspect log"},
		{[]string{"inspect", lmSamples, "--id", "x"}, "want an Inspect log ending in .eval or .json"},
		{[]string{"inspect", evalLog}, "missing --id"},
		{[]string{"inspect", evalLog, "--id", "Bad Id"}, `--id "Bad Id": use lower-case letters`},
		{[]string{"score", "x"}, `unknown subcommand "score"`},
		{nil, "missing subcommand"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		err := run(append(tc.args, "-runs", runs), &out, &out)
		if tc.args == nil {
			err = run(nil, &out, &out)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v\nwant it to contain %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(runs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed import left %s behind", runs)
	}
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-h"}, &out, &out); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "import lm-eval --samples") {
		t.Errorf("error %v, output %q", err, out.String())
	}
	out.Reset()
	if err := run([]string{"inspect", "-h"}, &out, &out); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "import inspect LOG.eval|LOG.json") {
		t.Errorf("error %v, output %q", err, out.String())
	}
}
