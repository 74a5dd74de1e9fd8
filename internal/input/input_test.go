package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

func TestUTF8Position(t *testing.T) {
	err := UTF8("f.md", 1, []byte("one\ntwo\nthr\xffee\n"))
	if p, l, _ := fileerr.Position(err); p != "f.md" || l != 3 || !strings.Contains(err.Error(), "byte 0xff at byte 4 of the line") {
		t.Errorf("%v", err)
	}
	if err := UTF8("f.md", 1, []byte("naïve ✓\n")); err != nil {
		t.Error(err)
	}
}

func TestReadFile(t *testing.T) {
	fsys := fstest.MapFS{"big": {Data: make([]byte, 101)}, "ok": {Data: []byte("x")}, "dir/f": {Data: nil}}
	if _, err := ReadFile(fsys, "big", "content/big", 100); err == nil || !strings.Contains(err.Error(), "content/big: larger than the limit of 100 bytes") {
		t.Errorf("size: %v", err)
	}
	if _, err := ReadFile(fsys, "dir", "content/dir", 100); err == nil || !strings.Contains(err.Error(), "is a folder where a file is expected") {
		t.Errorf("folder: %v", err)
	}
	if _, err := ReadFile(fsys, "nope", "content/nope", 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v is not fs.ErrNotExist", err)
	}
	if d, err := ReadFile(fsys, "ok", "content/ok", 100); err != nil || string(d) != "x" {
		t.Errorf("ok: %q %v", d, err)
	}
}

// TestFIFOIsNotOpened: a named pipe with no writer is refused before it is
// opened (opening it would block for ever); links out of the folder are
// refused with a message that says so.
func TestFIFOIsNotOpened(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	os.Symlink("/etc/hostname", filepath.Join(dir, "abs"))
	os.Symlink("../x", filepath.Join(dir, "up"))
	fsys, closeDir, err := Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDir()
	if _, err := ReadFile(fsys, "pipe", "in/pipe", 100); err == nil || !strings.Contains(err.Error(), "in/pipe: is a named pipe (FIFO)") {
		t.Errorf("fifo: %v", err)
	}
	for _, n := range []string{"abs", "up"} {
		if _, err := ReadFile(fsys, n, "in/"+n, 100); err == nil || !strings.Contains(err.Error(), "leads outside the input folder") {
			t.Errorf("%s: %v", n, err)
		}
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		doc  string
		line int // 0: no duplicate
	}{
		{`{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}`, 0},
		{"{\"body\": \"first\",\n\"page\": {},\n\"body\": \"second\"}", 3},
		{"{\"page\": {\"id\": \"x\",\n \"name\": \"n\",\n \"ID\": \"y\"}}", 3},
		{"[{\"a\": [1, {\"b\": 1, \"b\": 2}]}]", 1},
		{"{\"a\": {\"x\": 1}, \"b\": [], \n\"a\": 2}", 2},
		{`{"a": "a", "b": "a"}`, 0},
		{`{"a": 1,`, 0}, // malformed: the decoder's error, not this one's
	} {
		err := DuplicateKey("f.json", []byte(c.doc))
		_, line, _ := fileerr.Position(err)
		if (err == nil) != (c.line == 0) || line != c.line {
			t.Errorf("%s: %v, want line %d", c.doc, err, c.line)
		}
	}
}

func TestDate(t *testing.T) {
	for s, ok := range map[string]bool{"2026-02-28": true, "2024-02-29": true, "2026-02-30": false, "2026-13-45": false,
		"2026-00-10": false, "2026-1-10": false, "2026-01-10T00:00": false, "": false, "2025-02-29": false, "2026-12-31": true} {
		if err := Date(s); (err == nil) != ok {
			t.Errorf("Date(%q) = %v", s, err)
		}
	}
}

func TestBidi(t *testing.T) {
	for _, c := range []struct {
		in, out string
		first   rune
	}{
		{"plain", "plain", 0},
		{"\u05e9\u05dc\u05d5\u05dd and \u200f marks", "\u05e9\u05dc\u05d5\u05dd and \u200f marks", 0},
		{"Ev\u202eil", "Evil", '\u202e'},
		{"\u2066a\u2069\u202ab\u202c", "ab", '\u2066'},
		{"caf\u00e9 \u2013 \u20ac \u2028", "caf\u00e9 \u2013 \u20ac \u2028", 0}, // other three-byte characters starting 0xE2
	} {
		out, first := StripBidi(c.in)
		if out != c.out || first != c.first || HasBidi(c.in) != (c.first != 0) {
			t.Errorf("StripBidi(%q) = %q, %U; want %q, %U", c.in, out, first, c.out, c.first)
		}
	}
	if err := NoBidi("title", "Board \u05e9\u05dc\u05d5\u05dd"); err != nil {
		t.Error(err)
	}
	if err := NoBidi("title", "Board \u202e"); err == nil || !strings.Contains(err.Error(), "U+202E RIGHT-TO-LEFT OVERRIDE") {
		t.Errorf("NoBidi: %v", err)
	}
}
