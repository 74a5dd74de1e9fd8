package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	err := run([]string{"-h"}, &out, &errb)
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "-runs") {
		t.Errorf("-h: err %v, usage %q", err, errb.String())
	}
}

func TestMissingFolder(t *testing.T) {
	var out, errb bytes.Buffer
	err := run([]string{"-runs", filepath.Join(t.TempDir(), "nope")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("err %v", err)
	}
}

// TestBuildsCommittedSite builds the repository's own content and runs from
// two working directories and requires identical output.
func TestBuildsCommittedSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole committed site")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	args := func(out string) []string {
		return []string{"-content", filepath.Join(repo, "content"), "-runs", filepath.Join(repo, "runs"),
			"-methodology", filepath.Join(repo, "METHODOLOGY.md"), "-o", out}
	}
	tmp := t.TempDir()
	var outs []string
	for _, wd := range []string{tmp, filepath.Join(tmp, "x", "y")} {
		if err := os.MkdirAll(wd, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Chdir(wd)
		var stdout, stderr bytes.Buffer
		out := "site-" + filepath.Base(wd)
		if err := run(args(out), &stdout, &stderr); err != nil {
			t.Fatalf("build from %s: %v\n%s", wd, err, stderr.String())
		}
		outs = append(outs, filepath.Join(wd, out))
	}
	a, b := tree(t, outs[0]), tree(t, outs[1])
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d files vs %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between working directories", name)
		}
	}
	if _, ok := a["index.html"]; !ok {
		t.Error("no index.html")
	}
}

func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
