package run

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// TestStreamingLimits: the decompressed size and the row count are checked
// while reading, at the line where they are exceeded, whatever the
// manifest says.
func TestStreamingLimits(t *testing.T) {
	rows := realRows(t)[:20]
	fsys := mapFS(t, "x", testManifest(), rows, true)
	defer func(b int64, r int) { maxScoredBytes, maxRows = b, r }(maxScoredBytes, maxRows)

	// The limit falls inside the fifth line.
	plain, err := EncodeScored(rows, false)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(plain, []byte("\n"))
	maxScoredBytes = int64(len(bytes.Join(lines[:4], nil)) + 10)
	_, err = LoadAll(fsys, "runs")
	path, line, ok := fileerr.Position(err)
	if !ok || path != "runs/x/scored.jsonl.gz" || line != 5 || !strings.Contains(err.Error(), "larger than the limit") {
		t.Errorf("size limit: %v (at %s:%d)", err, path, line)
	}
	maxScoredBytes, maxRows = input.MaxScoredBytes, 7
	_, err = LoadAll(fsys, "runs")
	if path, line, _ := fileerr.Position(err); path != "runs/x/scored.jsonl.gz" || line != 8 || !strings.Contains(err.Error(), "more than 7 rows") {
		t.Errorf("row limit: %v", err)
	}
}

// TestGzipBombStopsEarly: 256 MiB of zeros (256 gzip members of 1 MiB
// each, about 260 KB compressed, which any gzip reader reads as one stream)
// stop at the line limit. The member is compressed once: compressing 256
// MiB took most of this package's time under the race detector.
func TestGzipBombStopsEarly(t *testing.T) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	if n, err := io.Copy(io.Discard, mustGzipReader(t, member.Bytes())); err != nil || n != 1<<20 {
		t.Fatalf("a member decompresses to %d bytes (%v), want 1 MiB", n, err)
	}
	buf := bytes.Repeat(member.Bytes(), 256)
	fsys := fstest.MapFS{"bomb.jsonl.gz": {Data: buf}}
	_, _, _, err := EachRow(fsys, "bomb.jsonl.gz", "bomb.jsonl.gz", func(int, *Row) error { return nil })
	if path, line, _ := fileerr.Position(err); path != "bomb.jsonl.gz" || line != 1 || !strings.Contains(err.Error(), "line longer than the limit of 8 MiB") {
		t.Errorf("%v", err)
	}
}

// TestLinksInsideTheRunsFolder: with the runs folder opened as the build
// opens it, a run folder and a scored file linked inside the folder load,
// and a FIFO is refused without being opened.
func TestLinksInsideTheRunsFolder(t *testing.T) {
	dir := t.TempDir()
	fsys := mapFS(t, "real", testManifest(), realRows(t)[:5], false)
	delete(fsys, "README.md")
	if err := os.CopyFS(filepath.Join(dir, "store"), fsys); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	os.MkdirAll(runs, 0o755)
	if err := os.Rename(filepath.Join(dir, "store", "real"), filepath.Join(runs, "real")); err != nil {
		t.Fatal(err)
	}
	// runs/linked -> real (a folder link inside runs/; a folder there is
	// a run, a hidden one included, so the target is a run too).
	if err := os.Symlink("real", filepath.Join(runs, "linked")); err != nil {
		t.Fatal(err)
	}
	root, closeRoot, err := input.Dir(runs)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRoot()
	r, err := Load(root, "runs", "linked")
	if err != nil || len(r.Cells) != 5 {
		t.Fatalf("a run folder linked inside runs/: %v", err)
	}
	all, err := LoadAll(root, "runs")
	if err != nil || len(all) != 2 || all[0].ID != "linked" || all[1].ID != "real" {
		t.Errorf("LoadAll with a linked run folder: %v %v", all, err)
	}
}

// TestListAccountsForEveryEntry: every entry of the runs folder is a run,
// an error, or named in a warning (a README.txt as not read); only the
// folder's README.md and git's own files are passed over without a word.
func TestListAccountsForEveryEntry(t *testing.T) {
	dir := fs.ModeDir | 0o755
	fsys := fstest.MapFS{
		"a-run/manifest.yaml":          {},
		"README.md":                    {},
		"README.txt":                   {},
		".gitkeep":                     {},
		"notes.yaml":                   {},
		".tmp-a-run-123/manifest.yaml": {},
		".tmp-b-run-456":               {Mode: dir},
	}
	ids, warnings, err := List(fsys, "runs")
	var got []string
	for _, w := range warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"runs/.tmp-a-run-123: skipped: the temporary folder of an import under way or interrupted; remove it when no import is running",
		"runs/.tmp-b-run-456: skipped: the temporary folder of an import under way or interrupted; remove it when no import is running",
		"runs/README.txt: not read: the build reads the run folders in runs, not the files beside them, and the site does not show this one (a README.md, the folder's notes on GitHub, goes without a word)",
		"runs/notes.yaml: skipped: a file, not a run folder (a run is a folder runs/ID/ with manifest.yaml); move it out of runs",
	}
	if err != nil || !slices.Equal(ids, []string{"a-run"}) || !slices.Equal(got, want) {
		t.Errorf("List: %v %v\n%s", ids, err, strings.Join(got, "\n"))
	}
	for name, f := range map[string]*fstest.MapFile{
		".hidden-run":            {Mode: dir},
		"...":                    {Mode: dir},
		strings.Repeat("a", 101): {Mode: dir},
		"pipe":                   {Mode: fs.ModeNamedPipe},
	} {
		fsys := fstest.MapFS{"a-run/manifest.yaml": {}, name: f}
		_, _, err := List(fsys, "runs")
		if p, _, _ := fileerr.Position(err); p != "runs/"+name {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, _, err := List(fstest.MapFS{strings.Repeat("a", 100): {Mode: dir}}, "runs"); err != nil {
		t.Errorf("a 100-character id: %v", err)
	}
	many := fstest.MapFS{}
	for i := range input.MaxRuns {
		many[fmt.Sprintf("run-%05d", i)] = &fstest.MapFile{Mode: dir}
	}
	if ids, _, err := List(many, "runs"); err != nil || len(ids) != input.MaxRuns {
		t.Errorf("%d runs: %v", input.MaxRuns, err)
	}
	many["one-more"] = &fstest.MapFile{Mode: dir}
	if _, _, err := List(many, "runs"); err == nil || err.Error() != "runs: 2001 runs, over the limit of 2000 runs per site (the build's time grows faster than the runs beyond it, and the site outgrows GitHub Pages' 1 GB): publish fewer runs, or split them between sites" {
		t.Errorf("%d runs: %v", input.MaxRuns+1, err)
	}
}

func mustGzipReader(t *testing.T, data []byte) io.Reader {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestGzipMembers: a scored file of several gzip members (cat a.gz b.gz)
// is read whole, and hashed whole; bytes after the last member that are no
// member are named for what they are, not "ends early" or "invalid
// header"; a member cut short still ends early.
func TestGzipMembers(t *testing.T) {
	rows := realRows(t)[:6]
	plain, err := EncodeScored(rows, false)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(plain, []byte("\n"))
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	two := append(member(bytes.Join(lines[:4], nil)), member(bytes.Join(lines[4:], nil))...)
	read := func(data []byte) (string, int, error) {
		fsys := fstest.MapFS{"s.jsonl.gz": {Data: data}}
		sum, _, n, err := EachRow(fsys, "s.jsonl.gz", "s.jsonl.gz", func(int, *Row) error { return nil })
		return sum, n, err
	}
	sum, n, err := read(two)
	if err != nil || n != len(rows) || sum != fmt.Sprintf("%x", sha256.Sum256(two)) {
		t.Errorf("two members: %d rows of %d, sum %s, %v", n, len(rows), sum, err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"junk", append(slices.Clone(two), "junk\n"...), `s.jsonl.gz: the compressed data end, and 5 bytes that are not gzip ("junk\n"…) follow`},
		{"zeros", append(slices.Clone(two), make([]byte, 40)...), "s.jsonl.gz: the compressed data end, and 40 zero bytes (padding"},
		{"many zeros", append(slices.Clone(two), make([]byte, 3<<20)...), "s.jsonl.gz: the compressed data end, and more than 1 MiB of zero bytes"},
		{"a bad header", append(slices.Clone(two), 0x1f, 0x8b, 0x09, 0, 0, 0, 0, 0, 0, 0xff), "s.jsonl.gz: after a whole gzip member, another whose header is not valid"},
		{"cut short", two[:len(two)-10], "s.jsonl.gz:7: the compressed stream ends early"},
	} {
		if _, _, err := read(c.data); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s…", c.name, err, c.want)
		}
	}
}

// TestUnreadInARunFolder: every entry of a run's folder that the build does
// not read is named (a page, a second scored file, a folder); the
// manifest, the scored file it names, left_out.jsonl and git's files are
// not.
func TestUnreadInARunFolder(t *testing.T) {
	good, _, err := Freeze(testManifest(), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	good = bytes.Replace(good, []byte("rows: 0"), []byte("rows: 1"), 1)
	fsys := fstest.MapFS{
		"x/manifest.yaml":   {Data: good},
		"x/scored.jsonl":    {},
		"x/" + LeftOutFile:  {Data: []byte(`{"id":"a","reason":"error"}` + "\n")},
		"x/.gitkeep":        {},
		"x/evil.html":       {},
		"x/scored.jsonl.gz": {},
		"x/extra/notes.txt": {},
	}
	r, err := LoadManifest(fsys, "runs", "x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range r.Warnings {
		p, _, _ := fileerr.Position(w)
		got = append(got, p)
		if !strings.Contains(w.Error(), ": not read: ") {
			t.Errorf("%v", w)
		}
	}
	if want := []string{"runs/x/evil.html", "runs/x/extra", "runs/x/scored.jsonl.gz"}; !slices.Equal(got, want) {
		t.Errorf("unread %q, want %q", got, want)
	}
}
