package site

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// The whole-site fixtures every test may share are each built once for
// the test binary and only read afterwards: the fixture site
// (fixtureSite), the same in pages of two places (pagedFixtureSite), the
// same built with an empty cache and that cache (cachedFixtureSite), and
// the fixture with two runs more (fixturePlus). A test that changes a
// site or a cache works on a copy (warmCache).

// sharedDir holds what the shared fixtures keep on disk (the cold build's
// cache), made when first needed (not in the crash tests' children, which
// are killed); TestMain removes it.
var sharedDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

// cachedSite is the fixture site built with an empty cache.
type cachedSite struct {
	// dir is the cache that build filled. Never build with it: copy it
	// (warmCache).
	dir      string
	files    map[string][]byte
	progress string
}

var (
	cachedOnce sync.Once
	cached     *cachedSite
)

// cachedFixtureSite is the fixture site's cold build: with an empty
// cache, which it fills. TestCacheNeverChangesTheSite compares it with
// the clean build; the tests of cached rebuilds start from copies of its
// cache instead of each making the same cache again.
func cachedFixtureSite(t testing.TB) *cachedSite {
	t.Helper()
	cachedOnce.Do(func() {
		var err error
		if sharedDir, err = os.MkdirTemp("", "site-test-"); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(sharedDir, "cache")
		c, err := cache.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		cfg := fixture(t)
		var progress strings.Builder
		cfg.Cache, cfg.Progress = c, &progress
		files := generateMap(t, cfg)
		cached = &cachedSite{dir: dir, files: files, progress: progress.String()}
	})
	if cached == nil {
		t.Fatal("the fixture site with a cache did not build")
	}
	return cached
}

// warmCache is a copy, in the test's own folder, of the cache the
// fixture site's cold build filled (cachedFixtureSite): as warm as after
// that build.
func warmCache(t *testing.T) (*cache.Cache, string) {
	t.Helper()
	src := cachedFixtureSite(t).dir
	dir := filepath.Join(t.TempDir(), "cache")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, dir
}

// plusSite is the fixture with two runs more, built once without a
// cache.
type plusSite struct {
	runs     fstest.MapFS // the two runs' files
	files    map[string][]byte
	warnings string
}

var (
	plusOnce sync.Once
	plus     *plusSite
)

// fixturePlus is the fixture with two runs more — alpha-again, a second
// run of Alpha on alpha's date, and zeta, dated after the release — and
// that site, built once without a cache, with the build's warnings: what
// TestWarnRuns reads, and the clean build TestCacheNeverChangesTheSite
// compares a cached build of runs added with.
func fixturePlus(t testing.TB) (stage.Config, *plusSite) {
	t.Helper()
	plusOnce.Do(func() {
		rows := referenceRows(t)
		more := fstest.MapFS{}
		// alpha-again says nothing of the model's facts, which alpha gives.
		addRun(t, more, "alpha-again", manifest("Alpha", run.Explicit, "default", run.Logprob), rows)
		late := manifest("Zeta", run.Explicit, "default", run.Logprob)
		late.RunDate = "2026-02-01"
		late.Model.ReleaseDate = "2026-03-01"
		addRun(t, more, "zeta", late, rows)
		cfg := withRuns(fixture(t), more)
		var w strings.Builder
		cfg.Warnings = &w
		files := generateMap(t, cfg)
		plus = &plusSite{runs: more, files: files, warnings: w.String()}
	})
	if plus == nil {
		t.Fatal("the fixture with two runs more did not build")
	}
	return withRuns(fixture(t), plus.runs), plus
}

// withRuns adds runs' files to the config's own copy of the fixture's
// runs folder.
func withRuns(cfg stage.Config, more fstest.MapFS) stage.Config {
	runs := cfg.Runs.(fstest.MapFS)
	for k, v := range more {
		runs[k] = v
	}
	return cfg
}
