package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

var update = flag.Bool("update", false, "rewrite the expected messages of testdata/bad")

// badDir is the bad-input corpus: _base holds good inputs (content/,
// runs/demo/ with 270 real rows, METHODOLOGY.md); every other folder is a
// case, whose file ops changes a copy of the base and whose file want is
// the message the build must fail with.
const badDir = "../../testdata/bad"

// TestBadInputs builds every case of the corpus from its own folder, as a
// user would from the repository root, and requires that the build fails
// with the expected message (a *fileerr.Error naming a file), writes no
// site, and leaves nothing beside it. Under the race detector with -short
// (make race) only the base builds: a case is one run's input checked, in
// one goroutine but for the hand-over of that run, and the cases cost the
// race step 5 CPU-s; the plain run has them all.
func TestBadInputs(t *testing.T) {
	base, err := filepath.Abs(filepath.Join(badDir, "_base"))
	if err != nil {
		t.Fatal(err)
	}
	// The control: the base builds, so each case fails for its own reason.
	t.Run("_base builds", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "repo")
		if err := os.CopyFS(root, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		t.Chdir(root)
		var stdout, stderr bytes.Buffer
		if err := run([]string{"-o", "site"}, &stdout, &stderr); err != nil {
			t.Fatalf("the base of the corpus does not build: %v", err)
		}
	})
	entries, err := os.ReadDir(badDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		n++
		caseDir, _ := filepath.Abs(filepath.Join(badDir, e.Name()))
		t.Run(e.Name(), func(t *testing.T) {
			if raceDetector && testing.Short() {
				t.Skip("a build of one run that fails on its input: checked by the plain run; under -race -short the base's build runs the concurrent code, and internal/site's TestDocListsPhases a failure while six runs load")
			}
			work := t.TempDir()
			root := filepath.Join(work, "repo")
			if err := os.CopyFS(root, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			ops, err := os.ReadFile(filepath.Join(caseDir, "ops"))
			if err != nil {
				t.Fatal(err)
			}
			applyOps(t, root, ops)
			t.Chdir(root)
			var stdout, stderr bytes.Buffer
			err = run([]string{"-o", "site"}, &stdout, &stderr)
			if err == nil {
				t.Fatalf("the build succeeded")
			}
			got := err.Error() + "\n"
			if _, _, ok := fileerr.Position(err); !ok {
				t.Errorf("the error names no file (not a *fileerr.Error): %s", got)
			}
			if _, err := os.Stat("site"); err == nil {
				t.Error("a failed build wrote the site")
			}
			left, _ := filepath.Glob("site.*")
			if len(left) > 0 {
				t.Errorf("a failed build left %v", left)
			}
			wantFile := filepath.Join(caseDir, "want")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("message (-want +got):\n%s", d)
			}
		})
	}
	t.Logf("%d cases", n)
	if n < 40 {
		t.Errorf("the corpus has %d cases; it should cover every class of bad input (at least 40)", n)
	}
}

// applyOps changes the inputs under root. One op per line, arguments
// separated by spaces, strings Go-quoted; # starts a comment:
//
//	replace PATH "old" "new"   replace the first occurrence (it must exist)
//	append PATH "text"
//	write PATH "text"
//	remove PATH
//	mkdir PATH                 a folder in place of the file
//	fifo PATH                  a named pipe in place of the file
//	symlink PATH "target"
//	rename PATH NEWPATH
//	truncate PATH N            keep the first N bytes (N < 0: drop the last -N)
//	gzip PATH                  PATH.gz holds PATH compressed; PATH is removed
//	zeros PATH N               N zero bytes (gzip-compressed when PATH ends in .gz)
//	pad PATH N                 append N bytes of YAML comment lines
func applyOps(t *testing.T, root string, ops []byte) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(ops))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		args, err := splitArgs(text)
		if err != nil || len(args) < 2 {
			t.Fatalf("ops:%d: %q: %v", line, text, err)
		}
		p := filepath.Join(root, filepath.FromSlash(args[1]))
		num := func(i int) int64 {
			n, err := strconv.ParseInt(args[i], 10, 64)
			if err != nil {
				t.Fatalf("ops:%d: %v", line, err)
			}
			return n
		}
		read := func() []byte {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("ops:%d: %v", line, err)
			}
			return data
		}
		write := func(data []byte) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatalf("ops:%d: %v", line, err)
			}
		}
		switch args[0] {
		case "replace":
			data := read()
			if !bytes.Contains(data, []byte(args[2])) {
				t.Fatalf("ops:%d: %s has no %q", line, args[1], args[2])
			}
			write(bytes.Replace(data, []byte(args[2]), []byte(args[3]), 1))
		case "append":
			write(append(read(), args[2]...))
		case "write":
			write([]byte(args[2]))
		case "remove":
			err = os.RemoveAll(p)
		case "mkdir":
			if err = os.RemoveAll(p); err == nil {
				err = os.MkdirAll(p, 0o755)
			}
		case "fifo":
			if err = os.RemoveAll(p); err == nil {
				err = syscall.Mkfifo(p, 0o644)
			}
		case "symlink":
			if err = os.RemoveAll(p); err == nil {
				err = os.Symlink(args[2], p)
			}
		case "rename":
			err = os.Rename(p, filepath.Join(root, filepath.FromSlash(args[2])))
		case "truncate":
			data := read()
			n := num(2)
			if n < 0 {
				n += int64(len(data))
			}
			write(data[:n])
		case "gzip":
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(read())
			zw.Close()
			if err = os.Remove(p); err == nil {
				err = os.WriteFile(p+".gz", buf.Bytes(), 0o644)
			}
		case "zeros":
			zero := make([]byte, num(2))
			if strings.HasSuffix(p, ".gz") {
				var buf bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
				zw.Write(zero)
				zw.Close()
				zero = buf.Bytes()
			}
			write(zero)
		case "pad":
			n := num(2)
			chunk := "# " + strings.Repeat("x", 77) + "\n"
			write(append(read(), strings.Repeat(chunk, int(n)/len(chunk)+1)...))
		default:
			t.Fatalf("ops:%d: unknown op %q", line, args[0])
		}
		if err != nil {
			t.Fatalf("ops:%d: %v", line, err)
		}
	}
}

// splitArgs splits an ops line into words and Go-quoted strings.
func splitArgs(s string) ([]string, error) {
	var args []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, err
			}
			u, _ := strconv.Unquote(q)
			args = append(args, u)
			s = s[len(q):]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		args = append(args, s[:i])
		s = s[i:]
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("empty")
	}
	return args, nil
}
