package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkippedEntriesWarn: entries the build passes over where passing
// over is right are each named in a warning, before the site is written;
// only what a person reads (a README) goes without a word.
func TestSkippedEntriesWarn(t *testing.T) {
	root := baseRepo(t)
	applyOps(t, root, []byte(`
write runs/.tmp-demo-123/manifest.yaml "half an import"
write runs/notes.yaml "x: 1"
write runs/README.md "# Runs"
write content/pages/draft.txt "# Draft"
`))
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"build: warning: content/pages/draft.txt: skipped: not a Markdown page (pages are NAME.md); rename it, or move it out of content/pages\n",
		"build: warning: runs/.tmp-demo-123: skipped: the temporary folder of an import under way or interrupted; remove it when no import is running\n",
		"build: warning: runs/notes.yaml: skipped: a file, not a run folder (a run is a folder runs/ID/ with manifest.yaml); move it out of runs\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no warning %q in:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "README") {
		t.Errorf("a README warned of:\n%s", stderr.String())
	}
}

// TestCopiesWarnBeforeWrite: runs' files over GitHub Pages' limit, which
// the site would copy into data/runs/, are warned of at load, before any
// page is rendered or written (here two runs' sparse scored files of
// 0.6 GB, each under the limit of a scored file, then fail to load: the
// warning came first).
func TestCopiesWarnBeforeWrite(t *testing.T) {
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
	want := "build: warning: runs: the runs' files are 1.20 GB (the largest, runs/demo, 0.60 GB), and the site copies each into data/runs/: over GitHub Pages' limit of 1 GB before any page; set runs_url in content/site.yaml to link them instead\n"
	if err == nil || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("%v\n%s", err, stderr.String())
	}
}

// TestScoredFileOverTheLimit: a scored file larger than a scored file may
// be (a sparse 4 GB file) is refused at load, before the warning that the
// runs' files outgrow GitHub Pages, which would send its publisher to
// runs_url for a file that cannot build.
func TestScoredFileOverTheLimit(t *testing.T) {
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
