package site

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/discrimeval/leaderboard/internal/flock"
)

// keep lists files of an existing output folder that are not ours but must
// survive a rebuild: the .gitignore that keeps the output out of git.
var keep = []string{".gitignore"}

// writeStep, when set (by tests), is called at every step of Write that
// changes the disk, so a test can kill the build at each of them.
var writeStep func(step string)

func step(s string) {
	if writeStep != nil {
		writeStep(s)
	}
}

// WriteOptions are the optional parts of writing.
type WriteOptions struct {
	// Log, when set, hears of waits for another build and of debris
	// removed.
	Log io.Writer
}

// Write writes files into a fresh temporary folder next to out and then
// swaps it into place, so a failed build leaves the previous site untouched
// and readers never see a half-written one.
//
// A lock file beside out (out + ".lock", e.g. site.lock) is held for the
// whole write, so two builds into one folder take turns and never mix. A
// build killed part-way leaves out.tmp-* or out.old-* folders; the next
// build removes them under the lock, when no build can be using them, and
// puts the previous site back first if the kill fell between the two
// renames of the swap.
func Write(out string, files []File) error { return WriteWith(out, files, WriteOptions{}) }

// WriteWith is Write with options.
func WriteWith(out string, files []File, opt WriteOptions) error {
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", args...)
		}
	}
	for _, f := range files {
		if strings.HasPrefix(f.Path, "/") || strings.Contains(f.Path, "..") || f.Path == "" {
			return fmt.Errorf("refusing to write outside the site: %q", f.Path)
		}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	step("lock")
	unlock, err := flock.Lock(out+".lock", func() {
		logf("%s: another build is writing it (%s.lock is held); waiting for it to finish", out, out)
	})
	switch {
	case errors.Is(err, flock.ErrUnsupported):
		unlock = func() error { return nil } // no guard on such systems
	case err != nil:
		return fmt.Errorf("locking %s: %w", out, err)
	}
	defer unlock()
	step("locked")
	if err := recoverDebris(parent, base, logf); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, base+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	for _, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
		step("file")
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
	step("modes")
	st, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
		step("renamed")
		return unlock()
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s exists and is not a folder: move it away", out)
	}
	for _, k := range keep {
		if data, err := os.ReadFile(filepath.Join(out, k)); err == nil {
			if err := os.WriteFile(filepath.Join(tmp, k), data, 0o644); err != nil {
				return err
			}
		}
	}
	step("kept")
	old, err := os.MkdirTemp(parent, base+".old-")
	if err != nil {
		return err
	}
	if err := os.Remove(old); err != nil {
		return err
	}
	if err := os.Rename(out, old); err != nil {
		return err
	}
	step("moved-old")
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out) // put the previous site back
		return err
	}
	step("renamed")
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	step("removed-old")
	return unlock()
}

// recoverDebris runs under the lock: every out.tmp-* and out.old-* folder
// is left by a killed build. When out is missing and an out.old-* exists,
// the kill fell between the renames of the swap: that folder is the
// previous site, complete, and is put back before the rest is removed.
func recoverDebris(parent, base string, logf func(string, ...any)) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	var tmps, olds []string
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasPrefix(n, base+".tmp-"):
			tmps = append(tmps, n)
		case strings.HasPrefix(n, base+".old-"):
			olds = append(olds, n)
		}
	}
	out := filepath.Join(parent, base)
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) && len(olds) > 0 {
		// One swap at a time (the lock), so there is one such folder;
		// should there be more, the newest is the previous site.
		sort.Slice(olds, func(i, j int) bool { return newer(parent, olds[i], olds[j]) })
		if err := os.Rename(filepath.Join(parent, olds[0]), out); err != nil {
			return err
		}
		logf("%s: put back the previous site from %s (a build was killed while swapping)", out, olds[0])
		step("restored")
		olds = olds[1:]
	}
	for _, n := range append(tmps, olds...) {
		if err := os.RemoveAll(filepath.Join(parent, n)); err != nil {
			return fmt.Errorf("removing %s, left by a killed build: %w", filepath.Join(parent, n), err)
		}
		logf("%s: removed %s, left by a killed build", out, n)
		step("cleaned")
	}
	return nil
}

func newer(dir, a, b string) bool {
	sa, ea := os.Stat(filepath.Join(dir, a))
	sb, eb := os.Stat(filepath.Join(dir, b))
	if ea != nil || eb != nil || sa.ModTime().Equal(sb.ModTime()) {
		return a > b
	}
	return sa.ModTime().After(sb.ModTime())
}
