package site

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// TestUnchangedRebuild: with the cache, a rebuild with nothing changed
// reads and verifies the previous site and leaves it as it is, printing
// the warnings of the build it recorded; a previous site damaged in any
// way — a byte changed, a file removed or added, a file made a link, a
// file's or a folder's mode changed — is refused and built again, and
// every result is the clean build's; the key changes with every input. A
// file described (statOf) as when recorded is not read, so each damage is
// also one its description shows (a byte changed with the file's times put
// back changes its status-change time).
func TestUnchangedRebuild(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	cfg := fixture(t)
	want := map[string]string{".gitignore": "*\n"}
	for p, data := range fixtureSite(t) {
		want[p] = string(data)
	}
	// The cache as the fixture's cold build left it (shared, copied):
	// it holds every run's pages, but no record of a site.
	c, _ := warmCache(t)
	cfg.Cache = c
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	var progress, warnings strings.Builder
	cfg.Progress, cfg.Warnings = &progress, &warnings
	build := func(what string) (shortcut bool) {
		t.Helper()
		progress.Reset()
		warnings.Reset()
		if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if d := sameTree(readTree(t, out), want); d != "" {
			t.Errorf("%s: the site is not the clean build: %s", what, d)
		}
		return strings.Contains(progress.String(), "nothing changed")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if build("first build") {
		t.Fatal("the first build took the shortcut")
	}
	recorded := warnings.String()
	if !strings.Contains(recorded, "build: warning: ") {
		t.Fatalf("the fixture's build gave no warning to record: %q", recorded)
	}
	before, err := os.Stat(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !build("nothing changed") {
		t.Fatalf("a rebuild with nothing changed did not take the shortcut:\n%s", progress.String())
	}
	if warnings.String() != recorded {
		t.Errorf("the shortcut's warnings:\n%s\nthe build's:\n%s", warnings.String(), recorded)
	}
	if after, err := os.Stat(filepath.Join(out, "index.html")); err != nil || !os.SameFile(before, after) {
		t.Errorf("the shortcut rewrote the site (%v)", err)
	}
	at := func(p string) string { return filepath.Join(out, filepath.FromSlash(p)) }
	gen, err := generatorID(cfg.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	key := buildcache.SiteKey(cfg.WithDefaults(), gen)
	restore := func(p string) error {
		os.Remove(at(p))
		if err := os.WriteFile(at(p), []byte(want[p]), 0o644); err != nil {
			return err
		}
		return os.Chmod(at(p), 0o644)
	}
	flip := func() error {
		data, err := os.ReadFile(at("runs/beta/q3.html"))
		if err != nil {
			return err
		}
		data[len(data)/2] ^= 1
		return os.WriteFile(at("runs/beta/q3.html"), data, 0o644)
	}
	// Each damage alone is refused by the check, then undone.
	damages := []struct {
		what     string
		do, undo func() error
	}{
		{"a byte changed", flip, flip},
		{"a file removed", func() error { return os.Remove(at("runs/alpha/q5.html")) }, func() error { return restore("runs/alpha/q5.html") }},
		{"a file added", func() error { return os.WriteFile(at("runs/extra.html"), []byte("<p>extra"), 0o644) }, func() error { return os.Remove(at("runs/extra.html")) }},
		{"a folder added", func() error { return os.Mkdir(at("runs/zzz"), 0o755) }, func() error { return os.Remove(at("runs/zzz")) }},
		{"a file made a link to its copy", func() error {
			copyPath := filepath.Join(dir, "copy.html")
			if err := os.WriteFile(copyPath, []byte(want["index.html"]), 0o644); err != nil {
				return err
			}
			if err := os.Remove(at("index.html")); err != nil {
				return err
			}
			return os.Symlink(copyPath, at("index.html"))
		}, func() error { return restore("index.html") }},
		{"a byte changed, the file's times put back", func() error { return keepTimes(at("runs/beta/q3.html"), flip) }, func() error { return keepTimes(at("runs/beta/q3.html"), flip) }},
		{"a file's mode changed", func() error { return os.Chmod(at("data/leaderboard.csv"), 0o600) }, func() error { return os.Chmod(at("data/leaderboard.csv"), 0o644) }},
		{"a folder's mode changed", func() error { return os.Chmod(at("runs/gamma"), 0o700) }, func() error { return os.Chmod(at("runs/gamma"), 0o755) }},
		{"the kept file's mode changed", func() error { return os.Chmod(at(".gitignore"), 0o600) }, func() error { return os.Chmod(at(".gitignore"), 0o644) }},
	}
	for _, d := range damages {
		if err := d.do(); err != nil {
			t.Fatal(err)
		}
		if ok, _ := buildcache.UnchangedSite(c, key, out); ok {
			t.Errorf("%s: the damaged site passes as the recorded one", d.what)
		}
		if err := d.undo(); err != nil {
			t.Fatal(err)
		}
		if ok, _ := buildcache.UnchangedSite(c, key, out); !ok {
			t.Fatalf("%s, undone: the site does not pass", d.what)
		}
	}
	// Every damage at once: the rebuild repairs them all.
	for _, d := range damages {
		if err := d.do(); err != nil {
			t.Fatal(err)
		}
	}
	if build("every damage at once") {
		t.Error("the damaged site was taken as the build")
	}
	if !build("nothing changed after the repairs") {
		t.Error("the rebuild after the repairs did not take the shortcut")
	}
	// The key changes with every input: the methodology, a content file, a
	// run's file, a file beside the runs, the templates.
	for what, change := range map[string]func(*stage.Config){
		"METHODOLOGY.md": func(c *stage.Config) { c.Methodology = append(append([]byte(nil), c.Methodology...), '\n') },
		"a content file": func(c *stage.Config) {
			m := fstest.MapFS{}
			fs.WalkDir(c.Content, ".", func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					data, _ := fs.ReadFile(c.Content, p)
					if p == "site.yaml" {
						data = append(data, '\n')
					}
					m[p] = &fstest.MapFile{Data: data}
				}
				return err
			})
			c.Content = m
		},
		"a run's scored file": func(c *stage.Config) {
			m := maps.Clone(c.Runs.(fstest.MapFS))
			f := *m["beta/scored.jsonl.gz"]
			f.Data = append(append([]byte(nil), f.Data...), 0)
			m["beta/scored.jsonl.gz"] = &f
			c.Runs = m
		},
		"a file in a run's folder": func(c *stage.Config) {
			m := maps.Clone(c.Runs.(fstest.MapFS))
			m["beta/notes.txt"] = &fstest.MapFile{Data: []byte("x")}
			c.Runs = m
		},
	} {
		changed := cfg
		change(&changed)
		if k := buildcache.SiteKey(changed.WithDefaults(), gen); k == key || k == "" {
			t.Errorf("%s changed: the whole-build key is %q, was %q", what, k, key)
		}
	}
	other := cfg
	other.Templates = fstest.MapFS{"layout.html": {Data: []byte("x")}}
	if g, err := generatorID(other.WithDefaults()); err != nil || g == gen {
		t.Errorf("other templates: generator %q (%v), was %q", g, err, gen)
	}
	if buildcache.SiteKey(cfg.WithDefaults(), gen) != key {
		t.Error("the same inputs, another key")
	}
}

// keepTimes does change to the file at p and puts its access and
// modification times back.
func keepTimes(p string, change func() error) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if err := change(); err != nil {
		return err
	}
	return os.Chtimes(p, st.ModTime(), st.ModTime())
}

// TestUnchangedDescribed: a file described as when it was recorded is not
// read (a record whose hash of it is wrong still passes), and one whose
// description changed is, even when rewritten with its own bytes; only
// files with the recorded bytes, and changed before the stamp, are
// described.
func TestUnchangedDescribed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	files := map[string]string{"index.html": "<p>index", "runs/a/q1.html": "<p>q1", "data/x.json": "{}"}
	var rec []outdir.HashedFile
	for _, p := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		h := outdir.HashBytes([]byte(files[p]))
		h.Path = p
		rec = append(rec, h)
	}
	for _, d := range []string{out, filepath.Join(out, "runs"), filepath.Join(out, "runs/a"), filepath.Join(out, "data")} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	last, ok := buildcache.StatOf(info)
	if !ok {
		t.Skip("no file descriptions on this system: every file is read")
	}
	// A stamp the files' times are before, however coarse the clock.
	for {
		if s, ok := buildcache.ClockStamp(out); ok && s > last.Ctime {
			break
		}
		time.Sleep(time.Millisecond)
	}
	stats := buildcache.Describe(out, rec)
	for i, st := range stats {
		if st == (buildcache.FileStat{}) {
			t.Fatalf("%s: not described", rec[i].Path)
		}
	}
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key := cache.Key("test", "site")
	put := func(r buildcache.SiteRecord) {
		t.Helper()
		data, err := buildcache.EncodeGob(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.PutEntry(key, data); err != nil {
			t.Fatal(err)
		}
	}
	at := slices.IndexFunc(rec, func(h outdir.HashedFile) bool { return h.Path == "index.html" })
	wrong := slices.Clone(rec)
	wrong[at].SHA256 = strings.Repeat("0", 64)
	put(buildcache.SiteRecord{Files: wrong, Stats: stats})
	if ok, r := buildcache.UnchangedSite(c, key, out); !ok || r.Read != 0 {
		t.Fatalf("a described file was read (%v)", ok)
	}
	put(buildcache.SiteRecord{Files: wrong})
	if ok, _ := buildcache.UnchangedSite(c, key, out); ok {
		t.Fatal("without descriptions, a wrong hash passes")
	}
	// Rewritten with its own bytes and times: its status-change time
	// moved, so it is read, and the record's wrong hash refuses it.
	put(buildcache.SiteRecord{Files: wrong, Stats: stats})
	index := filepath.Join(out, "index.html")
	if err := keepTimes(index, func() error { return os.WriteFile(index, []byte(files["index.html"]), 0o644) }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := buildcache.UnchangedSite(c, key, out); ok {
		t.Error("a rewritten file was not read")
	}
	put(buildcache.SiteRecord{Files: rec, Stats: stats})
	if ok, r := buildcache.UnchangedSite(c, key, out); !ok || r.Read != 1 {
		t.Errorf("the rewritten file, read, does not pass, or others were read (%v)", ok)
	}
	// Not described: a file changed at or after the stamp, or whose bytes
	// are not the recorded ones.
	now, _ := os.Stat(index)
	st, _ := buildcache.StatOf(now)
	if d := buildcache.DescribeFile(index, rec[at], st.Ctime); d != (buildcache.FileStat{}) {
		t.Error("a file changed at the stamp is described")
	}
	if d := buildcache.DescribeFile(index, wrong[at], st.Ctime+1); d != (buildcache.FileStat{}) {
		t.Error("a file of other bytes than the recorded is described")
	}
	if d := buildcache.DescribeFile(index, rec[at], st.Ctime+1); d != st {
		t.Errorf("the file as recorded, before the stamp: described %+v, want %+v", d, st)
	}
}
