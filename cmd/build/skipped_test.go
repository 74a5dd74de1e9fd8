package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkippedEntriesWarn: entries the build passes over where passing
// over is right are each named in a warning, before the site is written:
// files beside the runs and in a run's folder, in the content folder and
// its benchmarks/, a README.txt included; only a folder's README.md (its
// notes on GitHub) and git's files go without a word, and so does an
// import's left_out.jsonl, which the build reads.
func TestSkippedEntriesWarn(t *testing.T) {
	skipUnderRace(t, "one run loaded and its warnings read, checked by the plain run")
	root := baseRepo(t)
	applyOps(t, root, []byte(`
write runs/.tmp-demo-123/manifest.yaml "half an import"
write runs/notes.yaml "x: 1"
write runs/README.md "# Runs"
write runs/README.txt "Runs"
write runs/.gitkeep ""
write runs/demo/evil.html "<script>alert(1)</script>"
write runs/demo/left_out.jsonl "{\"id\":\"a\",\"reason\":\"error\"}\n"
write content/pages/draft.txt "# Draft"
write content/notes.txt "notes"
write content/benchmarks/other.json "{}"
`))
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"build: warning: content/pages/draft.txt: skipped: not a Markdown page (pages are NAME.md); rename it, or move it out of content/pages\n",
		"build: warning: runs/.tmp-demo-123: skipped: the temporary folder of an import under way or interrupted; remove it when no import is running\n",
		"build: warning: runs/notes.yaml: skipped: a file, not a run folder (a run is a folder runs/ID/ with manifest.yaml); move it out of runs\n",
		"build: warning: runs/README.txt: not read: the build reads the run folders in runs, not the files beside them, and the site does not show this one (a README.md, the folder's notes on GitHub, goes without a word)\n",
		"build: warning: runs/demo/evil.html: not read: a run folder holds manifest.yaml, the scored file it names (scored.jsonl) and, from an import, left_out.jsonl; the site neither shows nor copies this file; move it out of runs\n",
		"build: warning: content/notes.txt: not read: content holds site.yaml, benchmarks/, pages/ and releases/, and the build reads nothing else there; move it out of content\n",
		"build: warning: content/benchmarks/other.json: not read: site.yaml names the benchmark \"discrim_eval\", whose page is benchmarks/discrim_eval.json; the build reads no other\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no warning %q in:\n%s", want, stderr.String())
		}
	}
	for _, quiet := range []string{"runs/README.md", "runs/.gitkeep", "runs/demo/left_out.jsonl", "content/releases/README.md"} {
		if strings.Contains(stderr.String(), "warning: "+quiet) {
			t.Errorf("%s warned of:\n%s", quiet, stderr.String())
		}
	}
	// And the base run's own warning, that it is not ranked.
	if n := strings.Count(stderr.String(), "build: warning: "); n != 8 {
		t.Errorf("%d warnings, want 8:\n%s", n, stderr.String())
	}
}

// TestPreviousOfAnotherSiteWarns: a previous release of another site (here
// its title and date changed) builds, with a warning naming site.yaml's
// line.
func TestPreviousOfAnotherSiteWarns(t *testing.T) {
	skipUnderRace(t, "one run loaded and its warnings read, checked by the plain run")
	root := baseRepo(t)
	applyOps(t, root, []byte(`
replace content/releases/2026.10-demo.json "\"title\": \"Discrim-Eval Leaderboard\"" "\"title\": \"Another Board\""
replace content/releases/2026.10-demo.json "\"date\": \"2026-10-15\"" "\"date\": \"2026-12-15\""
`))
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"build: warning: content/site.yaml:17: previous: releases/2026.10-demo.json is the release of a site titled \"Another Board\", not \"Discrim-Eval Leaderboard\": is it this site's previous release?",
		"build: warning: content/site.yaml:17: previous: releases/2026.10-demo.json is dated 2026-12-15, not before this release (2026.11-demo, 2026-11-29)",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no warning %q in:\n%s", want, stderr.String())
		}
	}
}

// TestCopiesOverBudgetAtLoad: runs' files over the site's Pages budget,
// which the site would copy into data/runs/, with nowhere to link them
// (no runs_url), stop the build at load, before any run is read or page
// rendered (here two runs' sparse scored files of 0.6 GB, each under the
// limit of a scored file), naming the budget, the size and the way out;
// with -runs-url the build goes on (and fails on the sparse files' rows).
func TestCopiesOverBudgetAtLoad(t *testing.T) {
	skipUnderRace(t, "one run loaded and its warnings read, checked by the plain run")
	baseRepo(t)
	if err := os.CopyFS(filepath.Join("runs", "demo2"), os.DirFS(filepath.Join("runs", "demo"))); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"demo", "demo2"} {
		if err := os.Truncate(filepath.Join("runs", id, "scored.jsonl"), 600_000_000); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr)
	want := "load: runs: the runs' files are 1.20 GB (the largest, runs/demo, 0.60 GB), which the site would copy into data/runs/: over pages_budget 1 GB (content/site.yaml) before any page; set runs_url in content/site.yaml (or build -runs-url) to where the runs folder is published"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s…\n%s", err, want, stderr.String())
	}
	err = run([]string{"-q", "-cache", "off", "-o", "site", "-runs-url", "https://example.org/runs/"}, &stdout, &stderr)
	if err == nil || !strings.HasPrefix(err.Error(), "runs: runs/demo/scored.jsonl:") {
		t.Errorf("with -runs-url: %v, want an error of the runs' rows", err)
	}
}

// TestScoredFileOverTheLimit: a scored file larger than a scored file may
// be (a sparse 4 GB file) is refused at load, before the check that the
// runs' files outgrow the Pages budget, which would send its publisher to
// runs_url for a file that cannot build.
func TestScoredFileOverTheLimit(t *testing.T) {
	skipUnderRace(t, "one run loaded and its warnings read, checked by the plain run")
	baseRepo(t)
	if err := os.Truncate(filepath.Join("runs", "demo", "scored.jsonl"), 4_000_000_000); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr)
	want := "load: runs/demo/scored.jsonl: the file is 4.00 GB, over the limit of 1 GiB for a scored file (decompressed): split the run, or leave out the transcripts"
	if err == nil || err.Error() != want || strings.Contains(stderr.String(), "runs_url") {
		t.Errorf("%v\n%s", err, stderr.String())
	}
}
