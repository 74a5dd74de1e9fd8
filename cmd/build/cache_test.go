package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/cache"
)

// TestMain keeps the tests' build cache in a folder of their own, not the
// user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "build-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// skipUnderRace skips a test under the race detector with -short (make
// race), saying why the plain run is enough: each of these costs the race
// step several CPU-seconds (TestBidiIsolated 8.8, the three cache tests
// 7.9 together) for code that runs in one goroutine or is checked so
// elsewhere.
func skipUnderRace(t *testing.T, why string) {
	t.Helper()
	if raceDetector && testing.Short() {
		t.Skip(why)
	}
}

// cacheEntries lists the entries' files of a cache folder (KEY-t), sorted.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var entries []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "-t") {
			entries = append(entries, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(entries)
	return entries
}

// baseRepo copies the bad-input corpus's base (content, one run of 270
// rows) to a folder of its own and makes it the working directory.
func baseRepo(t *testing.T) string {
	t.Helper()
	base, err := filepath.Abs(filepath.Join(badDir, "_base"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(root, os.DirFS(base)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	return root
}

// TestSwappedCacheEntries: the files of the cache's entries exchanged
// among themselves (each takes the next one's bytes) change nothing: every
// entry carries its key, so each is a miss and its work is done again, and
// the site is byte for byte the first build's.
func TestSwappedCacheEntries(t *testing.T) {
	skipUnderRace(t, "builds of one run with the cache, checked by the plain run")
	root := baseRepo(t)
	dir := filepath.Join(root, "cache")
	build := func(out string) map[string][]byte {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := run([]string{"-q", "-cache", dir, "-o", out}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		return tree(t, out)
	}
	want := build("site")
	entries := cacheEntries(t, dir)
	if len(entries) < 3 {
		t.Fatalf("the build left %d cache entries", len(entries))
	}
	datas := make([][]byte, len(entries))
	for i, p := range entries {
		var err error
		if datas[i], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range entries {
		if err := os.WriteFile(p, datas[(i+1)%len(entries)], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range []string{"site2", "site"} {
		got := build(out)
		if d := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))); d != "" {
			t.Fatalf("%s: files (-want +got):\n%s", out, d)
		}
		for p, data := range want {
			if !bytes.Equal(got[p], data) {
				t.Errorf("%s/%s differs from the build before the entries were swapped", out, p)
			}
		}
	}
	t.Logf("%d entries swapped", len(entries))
}

// TestVerifyNeverTrustsTheCache: a cache entry rewritten with another page
// under its own key (which no check of the cache can tell) makes the next
// build publish that page; -verify with the same cache computes everything
// again and says so.
func TestVerifyNeverTrustsTheCache(t *testing.T) {
	skipUnderRace(t, "builds of one run with the cache, checked by the plain run")
	root := baseRepo(t)
	dir := filepath.Join(root, "cache")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", dir, "-o", "site"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	forged := 0
	for _, p := range cacheEntries(t, dir) {
		key := strings.TrimSuffix(filepath.Base(p), "-t")
		v, err := c.GetEntry(key)
		if err != nil || !bytes.Contains(v, []byte("<title>")) {
			continue
		}
		if err := c.PutEntry(key, bytes.Replace(v, []byte("<title>"), []byte("<title>FORGED "), 1)); err != nil {
			t.Fatal(err)
		}
		forged++
	}
	if forged == 0 {
		t.Fatal("no cache entry holds a page")
	}
	if err := run([]string{"-q", "-cache", dir, "-o", "published"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	n := 0
	for _, data := range tree(t, "published") {
		n += bytes.Count(data, []byte("<title>FORGED "))
	}
	if n == 0 {
		t.Fatal("the build did not take the forged pages from the cache: the test shows nothing")
	}
	stdout.Reset()
	err = run([]string{"-q", "-cache", dir, "-verify", "published"}, &stdout, &stderr)
	if !errors.Is(err, errDiffers) || !strings.Contains(stdout.String(), "changed:") {
		t.Errorf("-verify of a site with %d forged pages, with the cache that forged them: %v\n%s", n, err, stdout.String())
	}
	stdout.Reset()
	if err := run([]string{"-q", "-cache", dir, "-verify", "site"}, &stdout, &stderr); err != nil {
		t.Errorf("-verify of the site built before: %v\n%s", err, stdout.String())
	}
}

// TestCacheDebrisRemoved: the empty temporary file a SIGKILL leaves in the
// cache goes at the next build, a build with nothing to do included
// (which writes no page and trims nothing).
func TestCacheDebrisRemoved(t *testing.T) {
	skipUnderRace(t, "builds of one run with the cache, checked by the plain run")
	root := baseRepo(t)
	dir := filepath.Join(root, "cache")
	build := func() string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := run([]string{"-cache", dir, "-o", "site"}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		return stderr.String()
	}
	build()
	entries := cacheEntries(t, dir)
	if len(entries) == 0 {
		t.Fatal("no cache entries")
	}
	for i, what := range []string{"a build with nothing to do", "a build"} {
		debris := filepath.Join(filepath.Dir(entries[0]), fmt.Sprintf(".tmp-%d", i))
		if err := os.WriteFile(debris, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		long := time.Now().Add(-time.Hour)
		os.Chtimes(debris, long, long)
		if i == 1 {
			// Something to do: the site's pages, so a whole build.
			os.WriteFile("content/pages/new.md", []byte("# New\n\nA page.\n"), 0o644)
		}
		progress := build()
		if nothing := strings.Contains(progress, "nothing changed"); nothing != (i == 0) {
			t.Fatalf("%s: not the build meant:\n%s", what, progress)
		}
		if _, err := os.Stat(debris); err == nil {
			t.Errorf("%s left the debris of a killed writer in the cache", what)
		}
	}
}
