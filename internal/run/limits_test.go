package run

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
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
	os.MkdirAll(filepath.Join(runs, ".stored"), 0o755)
	if err := os.Rename(filepath.Join(dir, "store", "real"), filepath.Join(runs, ".stored", "real")); err != nil {
		t.Fatal(err)
	}
	// runs/linked -> .stored/real (a folder link inside runs/).
	if err := os.Symlink(".stored/real", filepath.Join(runs, "linked")); err != nil {
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
	if err != nil || len(all) != 1 || all[0].ID != "linked" {
		t.Errorf("LoadAll with a linked run folder: %v %v", all, err)
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
