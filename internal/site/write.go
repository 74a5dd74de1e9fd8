package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

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
	o, err := openOutput(out, opt)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := o.put(f.Path, f.Data); err != nil {
			o.abort()
			return err
		}
	}
	return o.commit()
}

// output is a site being written: a temporary folder beside the output
// folder, under its lock. Files are put into it as they come (from several
// goroutines); commit swaps it into place, abort throws it away.
type output struct {
	out, parent, base, tmp string
	unlock                 func() error
	logf                   func(string, ...any)
	mu                     sync.Mutex
	dirs                   map[string]bool // folders made so far
}

// openOutput takes the lock on out (waiting for another build to finish),
// removes what killed builds left, and makes the temporary folder.
func openOutput(out string, opt WriteOptions) (*output, error) {
	out = filepath.Clean(out)
	o := &output{out: out, parent: filepath.Dir(out), base: filepath.Base(out), dirs: map[string]bool{}}
	o.logf = func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", args...)
		}
	}
	if err := os.MkdirAll(o.parent, 0o755); err != nil {
		return nil, err
	}
	step("lock")
	unlock, err := flock.Lock(out+".lock", func() {
		o.logf("%s: another build is writing it (%s.lock is held); waiting for it to finish", out, out)
	})
	switch {
	case errors.Is(err, flock.ErrUnsupported):
		unlock = func() error { return nil } // no guard on such systems
	case err != nil:
		return nil, fmt.Errorf("locking %s: %w", out, err)
	}
	o.unlock = unlock
	step("locked")
	if err := recoverDebris(o.parent, o.base, o.logf); err != nil {
		unlock()
		return nil, err
	}
	if o.tmp, err = os.MkdirTemp(o.parent, o.base+".tmp-"); err != nil {
		unlock()
		return nil, err
	}
	o.tmp = filepath.Clean(o.tmp)                  // MkdirTemp(".", …) gives "./…"
	if err := os.Chmod(o.tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		o.abort()
		return nil, err
	}
	return o, nil
}

// put writes one file into the temporary folder. Modes are set
// explicitly, whatever the umask: a published site must be readable, and
// two builds must not differ even in their modes.
func (o *output) put(path string, data []byte) error {
	if strings.HasPrefix(path, "/") || strings.Contains(path, "..") || path == "" {
		return fmt.Errorf("refusing to write outside the site: %q", path)
	}
	p := filepath.Join(o.tmp, filepath.FromSlash(path))
	if err := o.mkdirs(filepath.Dir(p)); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Chmod(0o644)
	if err := errors.Join(werr, cerr, f.Close()); err != nil {
		return err
	}
	step("file")
	return nil
}

// mkdirs makes a folder of the site (mode 0755) and its parents, once.
func (o *output) mkdirs(dir string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.mkdirLocked(dir)
}

func (o *output) mkdirLocked(dir string) error {
	if dir == o.tmp || o.dirs[dir] {
		return nil
	}
	if !strings.HasPrefix(dir, o.tmp+string(filepath.Separator)) {
		return fmt.Errorf("refusing to make %s outside %s", dir, o.tmp)
	}
	if err := o.mkdirLocked(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	o.dirs[dir] = true
	return nil
}

// abort removes the temporary folder and releases the lock.
func (o *output) abort() {
	os.RemoveAll(o.tmp)
	o.unlock()
}

// commit swaps the temporary folder into place: the previous site, if
// any, is renamed away, the new one renamed in, the previous one removed.
func (o *output) commit() (err error) {
	defer func() {
		if err != nil {
			o.abort()
		}
	}()
	step("modes")
	out, tmp := o.out, o.tmp
	st, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
		step("renamed")
		return o.unlock()
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
			if err := os.Chmod(filepath.Join(tmp, k), 0o644); err != nil {
				return err
			}
		}
	}
	step("kept")
	old, err := os.MkdirTemp(o.parent, o.base+".old-")
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
	return o.unlock()
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
