package verify

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

func TestComparer(t *testing.T) {
	published := fstest.MapFS{
		"index.html":       {Data: []byte("same")},
		"old.html":         {Data: []byte("gone")},
		"data/runs/a.json": {Data: []byte(`{"id":"a","views":{"composite":{"estimate":0.5}},"rank":{"composite":2}}`)},
		"page.html":        {Data: []byte("before")},
		".gitignore":       {Data: []byte("*")},
		"assets/site.css":  {Data: []byte("x")},
	}
	rebuilt := map[string][]byte{
		"index.html":       []byte("same"),
		"new.html":         []byte("added"),
		"data/runs/a.json": []byte(`{"id":"a","views":{"composite":{"estimate":0.25}},"rank":{"composite":1}}`),
		"page.html":        []byte("after"),
		"assets/site.css":  []byte("x"),
	}
	c := NewComparer(published, "site")
	// Files come from several goroutines, in any order.
	var wg sync.WaitGroup
	for p, data := range rebuilt {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Put(p, data); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	want := &Report{
		Same:    2,
		Added:   []string{"new.html"},
		Removed: []string{"old.html"},
		Changed: []string{"data/runs/a.json", "page.html"},
		Scores:  []string{"a: composite view 0.5 → 0.25 (-0.25)", "a: composite rank 2 → 1"},
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	var out strings.Builder
	r.Write(&out)
	if !strings.HasPrefix(out.String(), "differs: 2 files identical, 2 changed, 1 only in the rebuild, 1 only in the published copy") {
		t.Errorf("report text:\n%s", out.String())
	}
}

// TestHostilePublished: the published copy is read with the input rules.
// A link leading out (to /dev/zero, to /etc/passwd) and a named pipe are
// errors naming the file, before anything is read from them (the pipe
// would block, /dev/zero never ends); a 3 GB sparse file is read no
// further than the rebuilt file's length, so it costs no memory.
func TestHostilePublished(t *testing.T) {
	rebuilt := map[string][]byte{
		"index.html":            []byte("<p>index</p>"),
		"data/leaderboard.json": []byte(`{"runs":[]}`),
		"data/runs/a.json":      []byte(`{"id":"a"}`),
	}
	setup := func(t *testing.T, change func(dir string) error) string {
		dir := t.TempDir()
		for p, data := range rebuilt {
			f := filepath.Join(dir, filepath.FromSlash(p))
			os.MkdirAll(filepath.Dir(f), 0o755)
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := change(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	replace := func(p string, make func(string) error) func(string) error {
		return func(dir string) error {
			f := filepath.Join(dir, filepath.FromSlash(p))
			os.Remove(f)
			return make(f)
		}
	}
	compare := func(t *testing.T, dir string) (*Report, error) {
		fsys, closeDir, err := input.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer closeDir()
		return Compare(rebuilt, fsys, "site")
	}
	for _, c := range []struct {
		name, path, want string
		change           func(string) error
	}{
		{"link to /dev/zero", "index.html", "a symbolic link that leads outside",
			replace("index.html", func(f string) error { return os.Symlink("/dev/zero", f) })},
		{"link to /etc/passwd", "data/runs/a.json", "a symbolic link that leads outside",
			replace("data/runs/a.json", func(f string) error { return os.Symlink("/etc/passwd", f) })},
		{"relative link out", "index.html", "a symbolic link that leads outside",
			replace("index.html", func(f string) error { return os.Symlink("../../../../../../../../etc/passwd", f) })},
		{"named pipe", "data/leaderboard.json", "named pipe",
			replace("data/leaderboard.json", func(f string) error { return syscall.Mkfifo(f, 0o644) })},
		{"named pipe only in the published copy", "extra.json", "named pipe",
			func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "extra.json"), 0o644) }},
		{"link out only in the published copy", "extra.html", "a symbolic link that leads outside",
			func(dir string) error { return os.Symlink("/dev/zero", filepath.Join(dir, "extra.html")) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := compare(t, setup(t, c.change))
			p, _, ok := fileerr.Position(err)
			if err == nil || !ok || p != "site/"+c.path || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error at site/%s saying %q", err, c.path, c.want)
			}
		})
	}
	t.Run("a link inside the copy is followed", func(t *testing.T) {
		r, err := compare(t, setup(t, replace("index.html", func(f string) error {
			os.WriteFile(f+".orig", rebuilt["index.html"], 0o644)
			return os.Symlink("index.html.orig", f)
		})))
		if err != nil || len(r.Changed) != 0 || !slices.Equal(r.Removed, []string{"index.html.orig"}) {
			t.Errorf("%v, %+v", err, r)
		}
	})
	t.Run("3 GB sparse file", func(t *testing.T) {
		dir := setup(t, func(dir string) error {
			for _, p := range []string{"index.html", "data/runs/a.json"} {
				if err := os.Truncate(filepath.Join(dir, filepath.FromSlash(p)), 3<<30); err != nil {
					return err
				}
			}
			return nil
		})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := compare(t, dir)
		runtime.ReadMemStats(&after)
		if err != nil || !slices.Equal(r.Changed, []string{"data/runs/a.json", "index.html"}) {
			t.Fatalf("%v, %+v", err, r)
		}
		if !strings.Contains(strings.Join(r.Scores, "\n"), "larger than 16 MiB") {
			t.Errorf("the run file's explanation: %q", r.Scores)
		}
		// At most the run file's limit and the rebuilt lengths are read.
		if got := after.TotalAlloc - before.TotalAlloc; got > 3*input.MaxTextBytes {
			t.Errorf("comparing allocated %d MB", got>>20)
		}
	})
}

// TestEqualInPieces: the piecewise comparison tells equal files from
// shorter, longer and changed ones, at the ends of its 64 KiB pieces too,
// and Put reports them as the whole-file comparison did.
func TestEqualInPieces(t *testing.T) {
	big := make([]byte, 3*64<<10)
	for i := range big {
		big[i] = byte(i * 7)
	}
	changedAt := func(i int) []byte {
		b := slices.Clone(big)
		b[i]++
		return b
	}
	for _, c := range []struct {
		name      string
		published []byte
		rebuilt   []byte
		equal     bool
	}{
		{"empty", nil, nil, true},
		{"empty published", nil, []byte("x"), false},
		{"empty rebuilt", []byte("x"), nil, false},
		{"same", []byte("page"), []byte("page"), true},
		{"longer", []byte("pages"), []byte("page"), false},
		{"shorter", []byte("pag"), []byte("page"), false},
		{"big same", big, slices.Clone(big), true},
		{"big one piece", big[:64<<10], big[:64<<10], true},
		{"big one byte more", big[:64<<10+1], big[:64<<10], false},
		{"big one byte less", big[:64<<10-1], big[:64<<10], false},
		{"big changed first", changedAt(0), big, false},
		{"big changed at a piece's end", changedAt(64<<10 - 1), big, false},
		{"big changed at a piece's start", changedAt(64 << 10), big, false},
		{"big changed last", changedAt(len(big) - 1), big, false},
	} {
		published := fstest.MapFS{"f.html": {Data: c.published}}
		cm := NewComparer(published, "site")
		got, err := cm.equal("f.html", c.rebuilt)
		if err != nil || got != c.equal {
			t.Errorf("%s: equal %v (%v), want %v", c.name, got, err, c.equal)
		}
		if err := cm.Put("f.html", c.rebuilt); err != nil {
			t.Fatal(err)
		}
		r, err := cm.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if r.Identical() != c.equal || !c.equal && !slices.Equal(r.Changed, []string{"f.html"}) {
			t.Errorf("%s: report %+v", c.name, r)
		}
	}
}
