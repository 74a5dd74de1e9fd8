package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// keep lists files of an existing output folder that are not ours but must
// survive a rebuild: the .gitignore that keeps the output out of git.
var keep = []string{".gitignore"}

// Write writes files into a fresh temporary folder next to out and then
// swaps it into place, so a failed build leaves the previous site untouched
// and readers never see a half-written one.
func Write(out string, files []File) error {
	out = filepath.Clean(out)
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, filepath.Base(out)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	for _, f := range files {
		if strings.HasPrefix(f.Path, "/") || strings.Contains(f.Path, "..") {
			return fmt.Errorf("refusing to write outside the site: %q", f.Path)
		}
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	// Modes are set explicitly, whatever the umask: a published site must
	// be readable, and two builds must not differ even in their modes.
	err = filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		return err
	}
	if st, err := os.Stat(out); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s exists and is not a folder", out)
		}
		for _, k := range keep {
			if data, err := os.ReadFile(filepath.Join(out, k)); err == nil {
				if err := os.WriteFile(filepath.Join(tmp, k), data, 0o644); err != nil {
					return err
				}
			}
		}
		old, err := os.MkdirTemp(parent, filepath.Base(out)+".old-")
		if err != nil {
			return err
		}
		if err := os.Remove(old); err != nil {
			return err
		}
		if err := os.Rename(out, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, out); err != nil {
			os.Rename(old, out) // put the previous site back
			return err
		}
		return os.RemoveAll(old)
	}
	return os.Rename(tmp, out)
}
