package importer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeGz(t *testing.T, name string, parts ...[]byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	for _, p := range parts {
		zw.Write(p)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func lines(path string) (int, error) {
	src, err := Open(path)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	n := 0
	err = src.Lines(func(int, []byte) error { n++; return nil })
	return n, err
}

// A gzip bomb stops at the limit, on the line where it passed it; a line
// without end stops at the line limit. Limits are lowered for speed.
func TestSourceLimits(t *testing.T) {
	defer func(f int64, l int) { MaxFileBytes, MaxLineBytes = f, l }(MaxFileBytes, MaxLineBytes)
	MaxFileBytes, MaxLineBytes = 4<<20, 1<<20
	bomb := writeGz(t, "samples.jsonl.gz", bytes.Repeat([]byte("{}                    \n"), 300_000))
	n, err := lines(bomb)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "samples.jsonl.gz:") || n > 200_000 {
		t.Errorf("bomb: %d lines, %v", n, err)
	}
	endless := writeGz(t, "endless.jsonl.gz", bytes.Repeat([]byte{'0'}, 3<<20))
	if _, err := lines(endless); err == nil || !strings.Contains(err.Error(), "endless.jsonl.gz:1: line longer than the limit of 1 MiB") {
		t.Errorf("endless line: %v", err)
	}
	ok := writeGz(t, "ok.jsonl.gz", []byte("a\r\nb\n\nc"))
	if n, err := lines(ok); n != 4 || err != nil {
		t.Errorf("%d lines, %v", n, err)
	}
	bad := writeGz(t, "bad.jsonl.gz", []byte("ok\nnot \xff ok\n"))
	if _, err := lines(bad); err == nil || err.Error() != bad+":2: invalid UTF-8 at byte 5 of the line" {
		t.Errorf("UTF-8: %v", err)
	}
	notGz := filepath.Join(t.TempDir(), "plain.jsonl.gz")
	os.WriteFile(notGz, []byte("{}\n"), 0o644)
	if _, err := lines(notGz); err == nil || !strings.Contains(err.Error(), "not a gzip file") {
		t.Errorf("not gzip: %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := lines(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	}
}

// The streaming sanitizer writes what Sanitize writes, wherever the reads
// cut the input, tokens included.
func TestSanitizerStreams(t *testing.T) {
	in := []byte(`{"a": NaN, "b": [Infinity, -Infinity, -1.5], "s": "NaN \"Infinity\"", "c": -Infinity}` + "\n")
	want, _ := Sanitize(in)
	for size := 1; size <= len(in); size++ {
		got, err := io.ReadAll(NewSanitizer(&chunked{in, size}))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("reads of %d: %s, %v\nwant %s", size, got, err, want)
		}
	}
}

type chunked struct {
	b []byte
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[n:]
	return n, nil
}

func TestLineCounter(t *testing.T) {
	lc := NewLineCounter(strings.NewReader("a\nb\nc\nd"))
	io.ReadAll(lc)
	for _, c := range []struct {
		off  int64
		want int
	}{{0, 1}, {2, 2}, {3, 2}, {6, 4}, {100, 4}} {
		if got := lc.LineAt(c.off); got != c.want {
			t.Errorf("LineAt(%d) = %d, want %d", c.off, got, c.want)
		}
	}
}
