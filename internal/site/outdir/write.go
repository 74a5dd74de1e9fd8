package outdir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/flock"
)

// keep lists files of an existing output folder that are not ours but must
// survive a rebuild: the .gitignore that keeps the output out of git.
var Keep = []string{".gitignore"}

// writeStep, when set (by tests), is called at every step of Write that
// changes the disk, so a test can kill the build at each of them.
var WriteStep func(step string)

func step(s string) {
	if WriteStep != nil {
		WriteStep(s)
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
		if err := o.Put(f.Path, f.Data); err != nil {
			o.Abort()
			return err
		}
	}
	return o.Commit()
}

// output is a site being written: a temporary folder beside the output
// folder, under its lock. Files are put into it as they come (from several
// goroutines); commit swaps it into place, abort throws it away.
type output struct {
	Out, parent, base, tmp string
	Unlock                 func() error
	logf                   func(string, ...any)
	mu                     sync.Mutex
	dirs                   map[string]bool // folders made so far
	// prev lists the regular files of the site being replaced (found
	// without following links): a file put with the same bytes as one of
	// them is hard-linked from it instead of written again.
	prev map[string]bool
	// put holds, for each file put, its status as the build left it (after
	// writing it, or after linking it from the previous site), so that the
	// site's description (buildcache.RecordSite) needs no second read of
	// it (Put).
	putMu sync.Mutex
	put   map[string]PutFile
	// hashed holds the status of each previous site's file Has read and
	// hashed, for PutByHash to check that the file it links is that one.
	hashed map[string]fs.FileInfo
}

// PutFile is a file of the site being written as the build left it: its
// status then (Stat, StatOf), and whether it is the previous site's file
// linked, read once to compare or hash it (its status-change time moves
// when the previous site's link to it goes), or written from the bytes
// the Recorder hashed.
type PutFile struct {
	Stat   FileStat
	Linked bool
}

// PutFile reports how the build left the file it put at path (false for
// a file it did not put, or on a system without StatOf).
func (o *output) PutFile(path string) (PutFile, bool) {
	o.putMu.Lock()
	defer o.putMu.Unlock()
	f, ok := o.put[path]
	return f, ok
}

func (o *output) notePut(path string, info fs.FileInfo, linked bool) {
	st, ok := StatOf(info)
	if !ok {
		return
	}
	o.putMu.Lock()
	if o.put == nil {
		o.put = map[string]PutFile{}
	}
	o.put[path] = PutFile{st, linked}
	o.putMu.Unlock()
}

// openOutput takes the lock on out (waiting for another build to finish),
// removes what killed builds left, and makes the temporary folder.
func openOutput(out string, opt WriteOptions) (*output, error) {
	o, err := LockOutput(out, opt)
	if err != nil {
		return nil, err
	}
	if err := o.Begin(); err != nil {
		return nil, err
	}
	return o, nil
}

// lockOutput takes the lock on out and removes what killed builds left;
// the site at out is then the previous build's, whole, until unlock.
func LockOutput(out string, opt WriteOptions) (*output, error) {
	out = filepath.Clean(out)
	o := &output{Out: out, parent: filepath.Dir(out), base: filepath.Base(out), dirs: map[string]bool{}}
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
	o.Unlock = unlock
	step("locked")
	if err := recoverDebris(o.parent, o.base, o.logf); err != nil {
		unlock()
		return nil, err
	}
	return o, nil
}

// begin makes the temporary folder the new site is written into, and
// lists the previous site's files; on an error the lock is released.
func (o *output) Begin() error {
	var err error
	if o.tmp, err = os.MkdirTemp(o.parent, o.base+".tmp-"); err != nil {
		o.Unlock()
		return err
	}
	o.tmp = filepath.Clean(o.tmp)                  // MkdirTemp(".", …) gives "./…"
	if err := os.Chmod(o.tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		o.Abort()
		return err
	}
	o.prev = previousFiles(o.Out)
	return nil
}

// previousFiles lists the regular files of the site at out, if there is
// one, by site path. WalkDir follows no symbolic link, so no file reached
// through one is listed; unreadable parts are left out.
func previousFiles(out string) map[string]bool {
	files := map[string]bool{}
	if st, err := os.Lstat(out); err != nil || !st.IsDir() {
		return files
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() {
			if rel, err := filepath.Rel(out, p); err == nil {
				files[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	return files
}

// linkUnchanged hard-links the previous site's file at path into the new
// one when it holds exactly data (Unchanged): a rebuild that changes a few
// files of a large site writes only those (creating a file costs ten
// times linking one). The bytes are compared, never assumed from a
// listing, so the result is the clean build's.
func (o *output) linkUnchanged(path, dst string, data []byte) bool {
	if !o.prev[path] {
		return false
	}
	src := filepath.Join(o.Out, filepath.FromSlash(path))
	f, st, ok := OpenUnchanged(src, int64(len(data)))
	if !ok {
		return false
	}
	defer f.Close()
	if !sameBytes(f, data) || os.Link(src, dst) != nil {
		return false
	}
	// The link is of the file compared, not of one swapped in meanwhile,
	// nor written to since it was opened.
	lst, err := os.Lstat(dst)
	if err != nil || !os.SameFile(st, lst) || !sameContentStatus(st, lst) {
		os.Remove(dst)
		return false
	}
	o.notePut(path, lst, true)
	return true
}

// sameContentStatus reports whether two statuses of one file say its
// bytes did not change between them: the same size, modification time
// and mode (a link added or removed moves only the status-change time).
func sameContentStatus(a, b fs.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}

// has reports whether the previous site's file at path has this SHA-256
// and size (Unchanged).
func (o *output) Has(path, sum string, size int64) bool {
	if !o.prev[path] {
		return false
	}
	f, st, ok := OpenUnchanged(filepath.Join(o.Out, filepath.FromSlash(path)), size)
	if !ok {
		return false
	}
	defer f.Close()
	if !HashIs(f, sum, size) {
		return false
	}
	o.putMu.Lock()
	if o.hashed == nil {
		o.hashed = map[string]fs.FileInfo{}
	}
	o.hashed[path] = st
	o.putMu.Unlock()
	return true
}

// Unchanged is the one check of whether a site's file is as a build wrote
// it: the file at p, opened without following a link, is a regular file
// of mode 0644 with this size and SHA-256, read and hashed whole (the
// rebuild that finds a site unchanged, buildcache.UnchangedSite, and the
// previous site's files a build links instead of writing). linkUnchanged
// makes the same check with the bytes in place of their hash, and
// buildcache.DescribeFile with the file's status around it.
func Unchanged(p, sum string, size int64) bool {
	f, _, ok := OpenUnchanged(p, size)
	if !ok {
		return false
	}
	defer f.Close()
	return HashIs(f, sum, size)
}

// HashIs reports whether r holds size bytes whose SHA-256 is sum.
func HashIs(r io.Reader, sum string, size int64) bool {
	h := sha256.New()
	if n, err := io.Copy(h, r); err != nil || n != size {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == sum
}

// OpenUnchanged opens the file at p without following a link when it is
// a regular file of mode 0644 and the given size, as a build writes them:
// the first half of Unchanged, for a caller that reads the file itself.
func OpenUnchanged(p string, size int64) (*os.File, fs.FileInfo, bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|ONoFollow, 0)
	if err != nil {
		return nil, nil, false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 || st.Size() != size {
		f.Close()
		return nil, nil, false
	}
	return f, st, true
}

// putByHash links the previous site's file at path, which has checked to
// have these bytes, into the new site.
func (o *output) PutByHash(path, sum string, size int64) error {
	if err := checkSitePath(path); err != nil {
		return err
	}
	p := filepath.Join(o.tmp, filepath.FromSlash(path))
	if err := o.mkdirs(filepath.Dir(p)); err != nil {
		return err
	}
	src := filepath.Join(o.Out, filepath.FromSlash(path))
	if err := os.Link(src, p); err != nil {
		return err
	}
	// Still the file checked (when Has checked it: the same file, not
	// written to since), of the size and mode checked.
	st, err := os.Lstat(p)
	o.putMu.Lock()
	checked, ok := o.hashed[path]
	o.putMu.Unlock()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 || st.Size() != size ||
		ok && (!os.SameFile(checked, st) || !sameContentStatus(checked, st)) {
		return fmt.Errorf("%s: the previous site's copy changed while the site was built", path)
	}
	if ok {
		o.notePut(path, st, true)
	}
	step("file")
	return nil
}

var compareBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// sameBytes reports whether r holds exactly data.
func sameBytes(r io.Reader, data []byte) bool {
	bp := compareBufs.Get().(*[]byte)
	defer compareBufs.Put(bp)
	buf := *bp
	for {
		n, err := io.ReadFull(r, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return len(data) == 0
		}
		if err != nil {
			return false
		}
	}
}

// put writes one file into the temporary folder. Modes are set
// explicitly, whatever the umask: a published site must be readable, and
// two builds must not differ even in their modes.
func (o *output) Put(path string, data []byte) error {
	if err := checkSitePath(path); err != nil {
		return err
	}
	p := filepath.Join(o.tmp, filepath.FromSlash(path))
	if err := o.mkdirs(filepath.Dir(p)); err != nil {
		return err
	}
	if o.linkUnchanged(path, p, data) {
		step("file")
		return nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Chmod(0o644)
	st, serr := f.Stat()
	if err := errors.Join(werr, cerr, serr, f.Close()); err != nil {
		return err
	}
	o.notePut(path, st, false)
	step("file")
	return nil
}

// mkdirs makes a folder of the site (mode 0755) and its parents, once.
// The lock guards the record only: two writers making one folder at once
// both succeed (an existing folder is not an error).
func (o *output) mkdirs(dir string) error {
	o.mu.Lock()
	made := dir == o.tmp || o.dirs[dir]
	o.mu.Unlock()
	if made {
		return nil
	}
	if !strings.HasPrefix(dir, o.tmp+string(filepath.Separator)) {
		return fmt.Errorf("refusing to make %s outside %s", dir, o.tmp)
	}
	if err := o.mkdirs(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	o.mu.Lock()
	o.dirs[dir] = true
	o.mu.Unlock()
	return nil
}

// abort removes the temporary folder and releases the lock.
func (o *output) Abort() {
	os.RemoveAll(o.tmp)
	o.Unlock()
}

// commit swaps the temporary folder into place: the previous site, if
// any, is renamed away, the new one renamed in, the previous one removed.
func (o *output) Commit() (err error) {
	defer func() {
		if err != nil {
			o.Abort()
		}
	}()
	step("modes")
	out, tmp := o.Out, o.tmp
	st, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
		step("renamed")
		return o.Unlock()
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s exists and is not a folder: move it away", out)
	}
	for _, k := range Keep {
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
	return o.Unlock()
}
