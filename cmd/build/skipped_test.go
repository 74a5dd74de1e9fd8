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
// page is rendered or written (here the 1.1 GB sparse scored file then
// fails to load: the warning came first).
func TestCopiesWarnBeforeWrite(t *testing.T) {
	baseRepo(t)
	if err := os.Truncate(filepath.Join("runs", "demo", "scored.jsonl"), 1_100_000_000); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr)
	want := "build: warning: runs: the runs' files are 1.10 GB (the largest, runs/demo, 1.10 GB), and the site copies each into data/runs/: over GitHub Pages' limit of 1 GB before any page; set runs_url in content/site.yaml to link them instead\n"
	if err == nil || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("%v\n%s", err, stderr.String())
	}
}
