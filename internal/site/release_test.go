package site

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/google/go-cmp/cmp"
)

// contentOverlay is a content folder as a map, to change.
func contentOverlay(t *testing.T, fsys fs.FS) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// splitRelease is a release's leaderboard.json with its runs moved to
// parts of one run each, as a site of more runs than a page writes it:
// the index and the parts by their paths in the site.
func splitRelease(t *testing.T, data []byte) (index []byte, parts map[string][]byte) {
	t.Helper()
	var lb map[string]json.RawMessage
	if err := json.Unmarshal(data, &lb); err != nil {
		t.Fatal(err)
	}
	var rel sitedata.Release
	var runs []sitedata.RunSummary
	if err := json.Unmarshal(lb["release"], &rel); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(lb["runs"], &runs); err != nil {
		t.Fatal(err)
	}
	parts = map[string][]byte{}
	var list []sitedata.RunPart
	for k, r := range runs {
		p := sitedata.RunsPartJSON(k + 1)
		b, err := json.Marshal(sitedata.RunsPart{Release: rel, Part: k + 1, Of: len(runs), Runs: []sitedata.RunSummary{r}})
		if err != nil {
			t.Fatal(err)
		}
		parts[p] = b
		list = append(list, sitedata.RunPart{Path: p, CSV: sitedata.RunsPartCSV(k + 1), Runs: 1, First: r.ID, Last: r.ID})
	}
	delete(lb, "runs")
	var err error
	if lb["run_parts"], err = json.Marshal(list); err != nil {
		t.Fatal(err)
	}
	if index, err = json.Marshal(lb); err != nil {
		t.Fatal(err)
	}
	return index, parts
}

// TestReleaseInParts: a previous release that lists its runs in parts,
// kept as a folder of its published leaderboard.json and parts
// (content/releases/<label>/), gives the same changes page and run-page
// history as the same release in one file, and a file of the folder the
// release does not list is warned of (and changes nothing); a missing
// part is an error naming it.
func TestReleaseInParts(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	whole := fixtureSite(t)
	cfg := fixture(t)
	c := contentOverlay(t, cfg.Content)
	index, parts := splitRelease(t, c["releases/test-0.json"].Data)
	if len(parts) < 2 {
		t.Fatalf("the fixture's previous release has %d runs: too few to split", len(parts))
	}
	delete(c, "releases/test-0.json")
	c["releases/test-0/leaderboard.json"] = &fstest.MapFile{Data: index}
	for p, data := range parts {
		c["releases/test-0/"+strings.TrimPrefix(p, "data/")] = &fstest.MapFile{Data: data}
	}
	// A file the release does not list (its parts are the JSON files).
	c["releases/test-0/leaderboard-runs-2.csv"] = &fstest.MapFile{Data: parts[sitedata.RunsPartJSON(1)]}
	c["site.yaml"] = &fstest.MapFile{Data: bytes.Replace(c["site.yaml"].Data, []byte("previous: releases/test-0.json"), []byte("previous: releases/test-0/leaderboard.json"), 1)}
	cfg.Content = c
	var warnings bytes.Buffer
	cfg.Warnings = &warnings
	paged := generateMap(t, cfg)
	compared := 0
	for p, want := range whole {
		if p == paths.ChangesPath || strings.HasPrefix(p, "runs/") && strings.HasSuffix(p, "/index.html") {
			if diff := cmp.Diff(string(want), string(paged[p])); diff != "" {
				t.Errorf("%s differs with the release in parts (-in one file +in parts):\n%s", p, diff)
			}
			compared++
		}
	}
	if compared < 3 {
		t.Fatalf("compared %d pages", compared)
	}
	if want := "content/releases/test-0/leaderboard-runs-2.csv: skipped: not a file of the release"; !strings.Contains(warnings.String(), want) {
		t.Errorf("warnings %q, want %q", warnings.String(), want)
	}

	// A part missing: the error names it.
	delete(c, "releases/test-0/leaderboard-runs-2.json")
	cfg.Warnings = nil
	_, err := Generate(cfg)
	if want := "content/releases/test-0/leaderboard.json:"; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "there is no content/releases/test-0/leaderboard-runs-2.json") {
		t.Errorf("a missing part: %v, want an error at %s naming the part", err, want)
	}
}
