package gitrepo

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarOf(t *testing.T, hs ...*tar.Header) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, h := range hs {
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := w.Write(make([]byte, h.Size)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &b
}

// TestUntar: regular files and folders are written inside dir; a link, or
// a path out of dir, is refused.
func TestUntar(t *testing.T) {
	dir := t.TempDir()
	err := untar(tarOf(t, &tar.Header{Name: "a/", Typeflag: tar.TypeDir, Mode: 0o755}, &tar.Header{Name: "a/b.txt", Typeflag: tar.TypeReg, Size: 3, Mode: 0o644}), dir)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a", "b.txt")); err != nil || len(data) != 3 {
		t.Errorf("a/b.txt: %q, %v", data, err)
	}
	for _, h := range []*tar.Header{
		{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		{Name: "../out.txt", Typeflag: tar.TypeReg, Size: 1},
		{Name: "/abs.txt", Typeflag: tar.TypeReg, Size: 1},
	} {
		err := untar(tarOf(t, h), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), h.Name) {
			t.Errorf("%s: %v, want it refused", h.Name, err)
		}
	}
}
