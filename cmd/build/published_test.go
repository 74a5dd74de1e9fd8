package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// TestHostilePublishedSite gives -verify and -diff a published site
// changed as an attacker or a broken disk might: each is read with the
// input rules (internal/input), so a link leading out is refused and not
// followed, a named pipe is refused before it is opened (it would block
// both commands), and a 3 GB sparse page costs no more memory than the
// rebuilt one: it is reported as changed.
func TestHostilePublishedSite(t *testing.T) {
	baseRepo(t)
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-q", "-cache", "off", "-o", "site"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	fresh := tree(t, "site")
	restore := func(p string) {
		t.Helper()
		os.Remove(filepath.Join("site", p))
		if err := os.WriteFile(filepath.Join("site", p), fresh[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, path, want string
		change           func(p string) error
	}{
		{"link to /dev/zero", "index.html", "a symbolic link that leads outside the input folder",
			func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"link to /etc/passwd", "data/leaderboard.json", "a symbolic link that leads outside the input folder",
			func(p string) error { return os.Symlink("/etc/passwd", p) }},
		{"named pipe", "data/leaderboard.json", "is a named pipe (FIFO), not a regular file",
			func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join("site", filepath.FromSlash(c.path))
			os.Remove(p)
			if err := c.change(p); err != nil {
				t.Fatal(err)
			}
			defer restore(c.path)
			modes := []string{"-verify", "-diff"}
			if raceDetector && testing.Short() {
				// -diff builds as -verify does, then compares in one
				// goroutine (verify.Compare): the plain run checks it.
				modes = modes[:1]
			}
			for _, mode := range modes {
				stdout.Reset()
				err := run([]string{"-q", "-cache", "off", mode, "site"}, &stdout, &stderr)
				at, _, ok := fileerr.Position(err)
				if err == nil || !ok || at != "site/"+c.path || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: got %v, want an error at site/%s: %s", mode, err, c.path, c.want)
				}
				if mode == "-diff" && !strings.HasPrefix(stdout.String(), "this build succeeded, but the other site cannot be read: ") {
					t.Errorf("-diff report: %s", stdout.String())
				}
			}
		})
	}
	t.Run("3 GB sparse index.html", func(t *testing.T) {
		if err := os.Truncate(filepath.Join("site", "index.html"), 3<<30); err != nil {
			t.Fatal(err)
		}
		defer restore("index.html")
		stdout.Reset()
		err := run([]string{"-q", "-cache", "off", "-verify", "site"}, &stdout, &stderr)
		if !errors.Is(err, errDiffers) || !strings.Contains(stdout.String(), "changed:\n  index.html") {
			t.Errorf("-verify: %v\n%s", err, stdout.String())
		}
		if raceDetector && testing.Short() {
			return
		}
		stdout.Reset()
		if err := run([]string{"-q", "-cache", "off", "-diff", "site"}, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "index.html") {
			t.Errorf("-diff: %v\n%s", err, stdout.String())
		}
	})
}
