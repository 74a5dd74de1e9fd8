package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
)

// hostileBidi gives three of the committed runs (two ranked on one board,
// and an intervention on one of them, so that boards, pairs, mitigation
// and changes pages show them) names with bidi controls (U+202E
// RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE without its end)
// and Hebrew letters, and the site and a page Hebrew letters (a bidi
// control there is an error), as inputs may hold them.
const hostileBidi = `
replace runs/fair-7b-explicit/manifest.yaml "name: Synthetic Fair 7B" "name: \"Demo \u202eModel \u05e9\u05dc\u05d5\u05dd\""
replace runs/fair-7b-explicit/manifest.yaml "provider: Synthetic (cmd/synth)" "provider: \"De\u202emo\""
replace runs/fair-7b-explicit/manifest.yaml "name: cmd/synth" "name: \"test\u2066data\""
replace runs/fair-7b-explicit/manifest.yaml "license: apache-2.0" "license: \"apa\u202eche \u05e9\""
replace runs/skew-13b-explicit-ignore/manifest.yaml "intervention: ignore-demographics" "intervention: \"ign\u202eore \u05e2\u05d1\u05e8\u05d9\u05ea\""
replace runs/skew-13b-explicit-ignore/manifest.yaml "name: Synthetic Skew 13B" "name: \"\u05e9\u05dc\u05d5\u05dd Skew\u202e 13B\""
replace runs/skew-13b-explicit/manifest.yaml "name: Synthetic Skew 13B" "name: \"\u05e9\u05dc\u05d5\u05dd Skew\u202e 13B\""
replace content/site.yaml "title: Discrim-Eval Leaderboard" "title: \"Board \u05e9\u05dc\u05d5\u05dd\""
replace content/pages/about.md "# About" "# About \u05e9\u05dc\u05d5\u05dd"
`

// TestBidiIsolated: text of the inputs that could reorder the site's own
// words around it (a U+202E in a model's name made "(demo): mean answer
// mass…" read backwards on index.html; a right-to-left site title reached
// 39 of 62 files) is isolated wherever a page shows it, and no bidi
// control is left where nothing can isolate it: attributes, titles, the
// CSV (crawl.Bidi). The manifests' controls are taken out, each with a
// warning. Three committed runs and the committed content: 2.1 CPU-s.
func TestBidiIsolated(t *testing.T) {
	skipUnderRace(t, "the pages of three runs checked: templates, not goroutines")
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, d := range []string{"content", "runs/fair-7b-explicit", "runs/skew-13b-explicit", "runs/skew-13b-explicit-ignore"} {
		if err := os.CopyFS(filepath.Join(root, d), os.DirFS(filepath.Join(repo, d))); err != nil {
			t.Fatal(err)
		}
	}
	applyOps(t, root, []byte(hostileBidi))
	out := filepath.Join(root, "site")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", "off", "-content", filepath.Join(root, "content"), "-runs", filepath.Join(root, "runs"),
		"-methodology", filepath.Join(repo, "METHODOLOGY.md"), "-o", out}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	files := tree(t, out)
	problems := crawl.Bidi(files)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d files checked", len(files))
	// The names are there, without their controls, and the manifest as
	// stored says what it held.
	for page, want := range map[string]string{
		"index.html":                               "<bdi>Demo Model \u05e9\u05dc\u05d5\u05dd</bdi>",
		"runs/fair-7b-explicit/index.html":         "· <bdi>apache \u05e9</bdi> ·",
		"runs/skew-13b-explicit-ignore/index.html": "<bdi>ignore \u05e2\u05d1\u05e8\u05d9\u05ea</bdi>",
		"runs/fair-7b-explicit/provenance.html":    "[U+202E]Model",
		"data/leaderboard.csv":                     ",Demo Model \u05e9\u05dc\u05d5\u05dd,",
	} {
		if !strings.Contains(string(files[page]), want) {
			t.Errorf("%s has no %q", page, want)
		}
	}
	for _, want := range []string{
		"/runs/fair-7b-explicit/manifest.yaml:2: model.name holds the bidi control U+202E RIGHT-TO-LEFT OVERRIDE, which would reorder the words a page prints after it: the site shows it without (\"Demo Model \u05e9\u05dc\u05d5\u05dd\"); remove it from the manifest\n",
		"/runs/fair-7b-explicit/manifest.yaml:4: model.provider holds the bidi control U+202E RIGHT-TO-LEFT OVERRIDE",
		"/runs/fair-7b-explicit/manifest.yaml:8: model.license holds the bidi control U+202E RIGHT-TO-LEFT OVERRIDE",
		"/runs/fair-7b-explicit/manifest.yaml:28: harness.name holds the bidi control U+2066 LEFT-TO-RIGHT ISOLATE",
		"/runs/skew-13b-explicit-ignore/manifest.yaml:11: intervention holds the bidi control U+202E RIGHT-TO-LEFT OVERRIDE",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no warning %q in\n%s", want, stderr.String())
		}
	}
}
