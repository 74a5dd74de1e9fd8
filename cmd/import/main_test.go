package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/importer"
	rundir "github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site"
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
	// lm-eval's prompt: one line break before the question, its gen_prefix.
	if f := loaded[1].Manifest.PromptForm; f == nil || f.Break != "line break" || f.Quotes != "straight" || !strings.HasPrefix(f.Prefix, "Based on the information provided") {
		t.Errorf("lm-eval prompt form %+v", f)
	}
	if f := loaded[0].Manifest.PromptForm; f == nil || f.Break != "blank line" || f.Prefix != "" {
		t.Errorf("inspect prompt form %+v", f)
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
		{[]string{"lm-eval", "--samples", lmSamples, "--results", evalLog, "--id", "x"}, "logprob.eval:1: invalid UTF-8"},
		{[]string{"lm-eval", "--samples", lmSamples, "--id", "x"}, "lm-eval needs --from, or --samples and --results"},
		{[]string{"inspect", lmResults, "--id", "x"}, "not an Inspect log"},
		{[]string{"inspect", lmSamples, "--id", "x"}, "want an Inspect log ending in .eval or .json"},
		{[]string{"inspect", evalLog}, "missing --id"},
		{[]string{"inspect", evalLog, "--id", "Bad Id"}, `--id "Bad Id": use lower-case letters`},
		{[]string{"score", "x"}, `unknown subcommand "score"`},
		{[]string{"inspect", "../../internal/importer/inspect/testdata/grafted/mmlu-summary-choices.eval", "--id", "x"}, `task "inspect_evals/mmlu_0_shot" is not a Discrim-Eval task`},
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

func TestFrom(t *testing.T) {
	runs := t.TempDir()
	var out bytes.Buffer
	if err := run([]string{"lm-eval", "--from", filepath.Dir(lmSamples), "--id", "from", "-runs", runs}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "reading "+lmSamples+" and "+lmResults) || !strings.Contains(out.String(), "claimed numbers not comparable: the harness fitted") {
		t.Errorf("output:\n%s", out.String())
	}
}

// An import that succeeds always builds: every fixture, constructed and
// real (inspect_ai's own logs with Discrim-Eval metadata grafted on), and
// every log case the build cannot rank (logCases), is imported into one
// runs folder and the whole site is generated from it.
func TestEveryImportBuilds(t *testing.T) {
	runs := t.TempDir()
	var out bytes.Buffer
	imports := [][]string{
		{"lm-eval", "--samples", lmSamples, "--results", lmResults, "--id", "lm-limit150"},
		{"inspect", evalLog, "--id", "inspect-logprob"},
		{"inspect", "../../internal/importer/inspect/testdata/decision.json", "--id", "inspect-decision"},
	}
	grafted, _ := filepath.Glob("../../internal/importer/inspect/testdata/grafted/*")
	if len(grafted) != 11 {
		t.Fatalf("%d grafted logs", len(grafted))
	}
	for i, g := range grafted {
		imports = append(imports, []string{"inspect", g, "--id", fmt.Sprintf("real-%02d", i), "--task-name-ok"})
	}
	imports = append(imports, []string{"inspect", quirkyLog(t), "--id", "inspect-quirks"})
	for _, args := range imports {
		if err := run(append(args, "-runs", runs), &out, &out); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	// The logs the build cannot rank (one question, degenerate, not
	// converging) and others near them: one site, none taking it down.
	cases := logCases(t)
	warned := importLogCases(t, runs, cases)
	files, data, warnings := buildAll(t, runs)
	t.Logf("%d files generated", len(files))
	checkLogCases(t, cases, warned, data, warnings)
	if len(data) != len(imports)+len(cases) {
		t.Errorf("%d runs built, want %d", len(data), len(imports)+len(cases))
	}
	for _, want := range []string{"runs/lm-limit150/index.html", "runs/inspect-decision/index.html", "runs/real-00/index.html"} {
		if !slices.ContainsFunc(files, func(f site.File) bool { return f.Path == want }) {
			t.Errorf("no %s among %d files", want, len(files))
		}
	}
}

// quirkyLog is the logprob fixture with what real servers write in
// top_logprobs: every third sample lists "No" at the -9999 placeholder
// (probability zero), every fifth lacks "no" (a bounded form).
func quirkyLog(t *testing.T) string {
	t.Helper()
	zr, err := zip.OpenReader(evalLog)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	placeholder := regexp.MustCompile(`("token": "No",\s+"logprob": )[-0-9.e]+`)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if strings.HasPrefix(f.Name, "samples/") {
			switch {
			case i%3 == 0:
				b = placeholder.ReplaceAll(b, []byte("${1}-9999.0"))
			case i%5 == 0:
				b = bytes.Replace(b, []byte(`"token": "no"`), []byte(`"token": "nah"`), 1)
			}
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "quirks.eval")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

// editLog rewrites the logprob fixture's members: edit returns the new
// bytes of a member (nil drops it), extra adds members.
func editLog(t *testing.T, name string, edit func(name string, b []byte) []byte, extra map[string][]byte) string {
	t.Helper()
	zr, err := zip.OpenReader(evalLog)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if b = edit(f.Name, b); b == nil {
			continue
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	for _, n := range importer.SortedKeys(extra) {
		w, _ := zw.Create(n)
		w.Write(extra[n])
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), name+".eval")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

func sampleNumber(name string) int {
	var n, e int
	if _, err := fmt.Sscanf(name, "samples/%d_epoch_%d.json", &n, &e); err != nil {
		return 0
	}
	return n
}

func memberOf(t *testing.T, path, name string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			defer rc.Close()
			b, _ := io.ReadAll(rc)
			return b
		}
	}
	t.Fatalf("%s: no member %s", path, name)
	return nil
}

// modelgauge's own record of its Discrim-Eval test (internal/importer/
// modelgauge/testdata: modelgauge 0.6.3 with a fake SUT) imports as a
// decision run that builds, and the site publishes its left_out.jsonl
// beside the scored file.
func TestModelgaugeImportBuilds(t *testing.T) {
	runs := t.TempDir()
	var out bytes.Buffer
	rec := "../../internal/importer/modelgauge/testdata/record_for_discrim_eval-explicit_discrim-fake.json.gz"
	if err := run([]string{"modelgauge", rec, "--id", "mg-fake", "--model", "example-org/fake", "-runs", runs}, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"278 rows, example-org/fake, explicit, decision scoring", "left out: 12, listed in " + filepath.Join(runs, "mg-fake", "left_out.jsonl")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	files, data, _ := buildAll(t, runs)
	if d, ok := data["mg-fake"]; !ok || !d.Scored {
		t.Errorf("data %+v", d)
	}
	published := false
	for _, f := range files {
		if strings.HasSuffix(f.Path, "/mg-fake/left_out.jsonl") {
			published = bytes.Count(f.Data, []byte("\n")) == 12
		}
	}
	if !published {
		t.Error("the site does not publish left_out.jsonl with its 12 lines")
	}
}
