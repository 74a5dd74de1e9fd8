package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/crawl"
	"github.com/discrimeval/leaderboard/internal/site"
)

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	err := run([]string{"-h"}, &out, &errb)
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "-runs") {
		t.Errorf("-h: err %v, usage %q", err, errb.String())
	}
}

func TestMissingFolder(t *testing.T) {
	var out, errb bytes.Buffer
	err := run([]string{"-runs", filepath.Join(t.TempDir(), "nope")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("err %v", err)
	}
}

// TestBuildsCommittedSite builds the repository's own content and runs
// and checks the site; -verify from another working directory must find
// the rebuild identical, and then find a one-byte change, a changed score
// and an extra file in the published copy. -verify computes every page
// again without the cache, so one build and two verifies test both the
// output's independence of the working directory (which .ci/determinism
// also checks on two written builds) and -verify: TestVerify's own build
// and its separate verify of the one-byte change took two builds and a
// verify more (the two tests took 22.8 CPU-s, this one 14.1: the test
// binary under /usr/bin/time, load 10).
func TestBuildsCommittedSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole committed site")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"-content", filepath.Join(repo, "content"), "-runs", filepath.Join(repo, "runs"),
		"-methodology", filepath.Join(repo, "METHODOLOGY.md")}
	tmp := t.TempDir()
	t.Chdir(tmp)
	var stdout, stderr bytes.Buffer
	if err := run(append(base, "-o", "site"), &stdout, &stderr); err != nil {
		t.Fatalf("build from %s: %v\n%s", tmp, err, stderr.String())
	}
	out := filepath.Join(tmp, "site")
	other := filepath.Join(tmp, "x", "y")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	verify := func() (string, error) {
		t.Chdir(other)
		stdout.Reset()
		err := run(append(base, "-verify", "../../site"), &stdout, &stderr)
		return stdout.String(), err
	}
	if msg, err := verify(); err != nil || !strings.Contains(msg, "identical") {
		t.Fatalf("-verify from another working directory: %v\n%s", err, msg)
	}
	t.Chdir(tmp)
	a := tree(t, out)
	if len(a) == 0 {
		t.Fatal("no files")
	}
	if _, ok := a["index.html"]; !ok {
		t.Error("no index.html")
	}
	for _, p := range crawl.Site(a) {
		t.Error(p)
	}
	for _, p := range crawl.External(a) {
		t.Error(p)
	}
	checkReading(t, a)
	// The next release reads this release's leaderboard.json (and its
	// parts, if any) as its previous one: it must pass the check and the
	// reading that file gets.
	if _, err := content.ReadRelease(os.DirFS(out), out, "data/leaderboard.json"); err != nil {
		t.Errorf("this build's leaderboard.json would not load as the previous release: %v", err)
	}
	// Size budgets of the transcript browser: no page over 500 KB, and each
	// additional 9,450-row logprob run at most 0.715 MB of pages and data
	// (0.707 MB until the run's data file gave each scenario its outlier
	// test, each structure test its Holm-adjusted p and largest contrast,
	// and an intervention its paired differences: about 7.9 KB more a run;
	// measured by building without one of the committed runs: 689,865
	// bytes on 2026-12-01 at 37099f6, 2.4% under the budget; 693,505 at
	// 2f18163, after the scenario grids
	// left out their common colour classes and the scenario, scenarios and
	// swings pages their repeated notes and classes; 779,625 before, and
	// 0.998 MB before the compare pages became a row per run).
	var total int64
	for name, data := range a {
		total += int64(len(data))
		if strings.HasSuffix(name, ".html") && len(data) > 500_000 {
			t.Errorf("%s is %d bytes, over the 500 KB budget", name, len(data))
		}
	}
	runs := filepath.Join(tmp, "runs-minus-one")
	if err := os.CopyFS(runs, os.DirFS(filepath.Join(repo, "runs"))); err != nil {
		t.Fatal(err)
	}
	const dropped = "skew-13b-explicit-ignore"
	if err := os.RemoveAll(filepath.Join(runs, dropped)); err != nil {
		t.Fatal(err)
	}
	// Only its size is wanted: that build is made in memory, as run
	// makes it (config, the default cache) but not written.
	t.Chdir(tmp)
	cfg, closeInputs, err := config(inputs{filepath.Join(repo, "content"), runs, filepath.Join(repo, "METHODOLOGY.md")},
		inputs{filepath.Join(repo, "content"), runs, filepath.Join(repo, "METHODOLOGY.md")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeInputs()
	if cfg.Cache, err = cache.Open(defaultCache()); err != nil {
		t.Fatal(err)
	}
	var without atomic.Int64
	if err := site.Stream(cfg, func(_ string, data []byte) error { without.Add(int64(len(data))); return nil }); err != nil {
		t.Fatal(err)
	}
	// The site also offers the run's own files (data/runs/<id>/, copies of
	// runs/<id>/ unless site.yaml sets runs_url): counted, and reported
	// apart from the pages, which keep their own budget.
	var copies int64
	for name, data := range a {
		if strings.HasPrefix(name, "data/runs/"+dropped+"/") {
			copies += int64(len(data))
		}
	}
	added := total - without.Load()
	t.Logf("site %d bytes; run %s adds %d bytes: %d of pages and data, %d of its own files copied into data/runs/%s/",
		total, dropped, added, added-copies, copies, dropped)
	if added-copies > 715_000 {
		t.Errorf("run %s adds %d bytes of pages and data to the site, over the 0.715 MB budget", dropped, added-copies)
	}

	// The published copy changed three ways, found by one verify: one
	// byte of index.html; a score (the copy says skew-13b-explicit's
	// composite was 0.5 and it ranked 9th); and a file that is not part
	// of the site.
	idx := filepath.Join(out, "index.html")
	flipped := append([]byte(nil), a["index.html"]...)
	flipped[len(flipped)/2] ^= 1
	if err := os.WriteFile(idx, flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(a["data/runs/skew-13b-explicit.json"], &doc); err != nil {
		t.Fatal(err)
	}
	doc["views"].(map[string]any)["composite"].(map[string]any)["estimate"] = 0.5
	doc["rank"].(map[string]any)["composite"] = 9
	data, _ := json.MarshalIndent(doc, "", " ")
	if err := os.WriteFile(filepath.Join(out, "data", "runs", "skew-13b-explicit.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "extra.html"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := verify()
	for _, want := range []string{
		"changed:\n  data/runs/skew-13b-explicit.json\n  index.html\n",
		"skew-13b-explicit: composite view 0.5 →", "skew-13b-explicit: composite rank 9 → 5",
		"only in the published copy:\n  extra.html",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("changed copy: report lacks %q:\n%s", want, msg)
		}
	}
	if !errors.Is(err, errDiffers) {
		t.Errorf("exit error %v", err)
	}
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
