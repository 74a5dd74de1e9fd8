package buildcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// A rebuild with nothing changed (Build with Config.Cache) verifies the
// site it would replace and stops there. The build records, under the
// whole-build key — the generator (executable, templates, assets, version)
// and the bytes of every file of the content and runs folders and of
// METHODOLOGY.md — the list of the files it wrote with their hashes, and
// the warnings it printed. A later build with the same key reads every
// file of the previous site and takes it as the build's result only when
// the folder holds exactly those files — each a regular file of mode 0644,
// with the recorded SHA-256 and size, in folders of mode 0755, and nothing
// else but the files a rebuild keeps (.gitignore) — so the result is the
// clean build's, byte for byte; anything else, and the build runs as
// usual. The cache stays only a shortcut: a missing or damaged entry is a
// build.

//
// Reading the site is most of such a rebuild's cost, so the record also
// keeps, for each file, what the kernel said of it when the build recorded
// it, its bytes then read back and found the build's: device, inode,
// size, mode, modification time and status-change time (statOf). A file
// the kernel describes the same way now is not read again. A change of a
// file's bytes sets its status-change time to the clock, which no program
// can set back, so a file edited by hand, or replaced, or copied over
// with its times kept (cp -p, rsync -t) is read and found different. Only
// a file whose status-change time is older than a stamp taken before it
// was described has its description kept (a file created beside the
// site, on the same file system and clock): a change after the
// description then gets a later time, even where the file system's clock
// is coarse. Elsewhere than on Linux every file is read.

// siteRecord is what the cache keeps of a build under its whole-build key.
type SiteRecord struct {
	Files []outdir.HashedFile // by path
	// Stats holds, for each of Files, the file as described when it was
	// recorded, or the zero fileStat when its description is not to be
	// trusted (it is then read and hashed).
	Stats    []FileStat
	Warnings string
	Read     int // files unchangedSite read (not kept)
}

// FileStat is what the kernel says of a file (StatOf): outdir's, which
// notes it of every file it puts.
type FileStat = outdir.FileStat

// StatOf is outdir.StatOf.
func StatOf(info fs.FileInfo) (FileStat, bool) { return outdir.StatOf(info) }

// inputsHash hashes every file of the content and runs folders (by path
// and bytes, folders followed through links the way the build opens them)
// and the methodology; an error means no shortcut, the build then reports
// what is wrong.
func inputsHash(cfg stage.Config) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "labels %q %q %q\n", cfg.ContentLabel, cfg.RunsLabel, cfg.MethodologyLabel)
	fmt.Fprintf(h, "page rows %d\n", cfg.PageRows)
	fmt.Fprintf(h, "runs url %q\n", cfg.RunsURL)
	fmt.Fprintf(h, "methodology %d\n", len(cfg.Methodology))
	h.Write(cfg.Methodology)
	if err := hashTree(h, "content", cfg.Content, ".", 0); err != nil {
		return "", err
	}
	// The runs as the build lists them: a linked run folder is followed.
	// The entries it skips with a warning are part of the key, so that
	// the recorded warnings are the ones this build would print.
	ids, skipped, err := run.List(cfg.Runs, cfg.RunsLabel)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "runs %q\n", ids)
	for _, w := range skipped {
		fmt.Fprintf(h, "skipped %q\n", w.Error())
	}
	for _, id := range ids {
		if err := hashTree(h, "runs", cfg.Runs, id, 0); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashTree writes every file under dir of fsys to h, path and bytes,
// following links (fs.Stat) as the build's reads do, to a depth of 8.
func hashTree(h io.Writer, label string, fsys fs.FS, dir string, depth int) error {
	if depth > 8 {
		return fmt.Errorf("%s/%s: folders nested too deep to hash", label, dir)
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		st, err := fs.Stat(fsys, p)
		if err != nil {
			return err
		}
		switch {
		case st.IsDir():
			fmt.Fprintf(h, "dir %s/%s\n", label, p)
			if err := hashTree(h, label, fsys, p, depth+1); err != nil {
				return err
			}
		case st.Mode().IsRegular():
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "file %s/%s %d\n", label, p, st.Size())
			n, err := io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
			if n != st.Size() {
				return fmt.Errorf("%s/%s changed while it was hashed", label, p)
			}
		default:
			return fmt.Errorf("%s/%s: not a file or folder", label, p)
		}
	}
	return nil
}

// siteKey is the whole-build key, or "" when the inputs cannot be hashed.
func SiteKey(cfg stage.Config, gen string) string {
	in, err := inputsHash(cfg)
	if err != nil {
		return ""
	}
	return cache.Key(gen, "site", in)
}

// unchangedSite reports whether the site at out is the one recorded under
// key, every file read and hashed or described as when recorded; with it
// the record's warnings.
func UnchangedSite(c *cache.Cache, key, out string) (bool, *SiteRecord) {
	if key == "" {
		return false, nil
	}
	data, err := c.GetEntry(key)
	if err != nil {
		return false, nil
	}
	var rec SiteRecord
	if DecodeGob(data, &rec) != nil {
		c.Forget(key)
		return false, nil
	}
	same, ok := matchSite(out, &rec)
	if !ok {
		return false, nil
	}
	// Every other file read and hashed, on every core.
	var bad atomic.Bool
	var read atomic.Int64
	render.Parallel(len(rec.Files), func(i int) {
		if bad.Load() || same[i] {
			return
		}
		read.Add(1)
		f := rec.Files[i]
		if !outdir.Unchanged(filepath.Join(out, filepath.FromSlash(f.Path)), f.SHA256, f.Size) {
			bad.Store(true)
		}
	})
	if bad.Load() {
		return false, nil
	}
	rec.Read = int(read.Load())
	return true, &rec
}

// matchSite reports whether the folder out holds the recorded files and
// folders, in the modes a build gives them, and nothing else but the files
// a rebuild keeps; and which of the files the kernel describes as when
// they were recorded.
func matchSite(out string, rec *SiteRecord) ([]bool, bool) {
	want := make(map[string]int, len(rec.Files)) // path → index in rec.Files
	dirs := map[string]bool{".": true}
	for i, f := range rec.Files {
		want[f.Path] = i
		for d := path.Dir(f.Path); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	seen := 0
	same := make([]bool, len(rec.Files))
	described := len(rec.Stats) == len(rec.Files)
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if !dirs[rel] || info.Mode().Perm() != 0o755 {
				return errNotTheSite
			}
		case !info.Mode().IsRegular() || info.Mode().Perm() != 0o644:
			return errNotTheSite
		case slices.Contains(outdir.Keep, rel):
			if _, listed := want[rel]; listed {
				seen++
			}
		default:
			i, listed := want[rel]
			if !listed {
				return errNotTheSite
			}
			if described && rec.Stats[i] != (FileStat{}) {
				st, ok := StatOf(info)
				same[i] = ok && st == rec.Stats[i]
			}
			seen++
		}
		return nil
	})
	return same, err == nil && seen == len(rec.Files)
}

var errNotTheSite = errors.New("not the recorded site")

// recordSite keeps the build's files, as now found in the site at out,
// and warnings under key, when the inputs still hash to it (none changed
// while the site was built). put (nil for none) says how the build left
// each file it put (outdir's PutFile), for DescribePut.
func RecordSite(cfg stage.Config, c *cache.Cache, gen, key, out string, files []outdir.HashedFile, warnings string, put func(path string) (outdir.PutFile, bool)) error {
	if key == "" || SiteKey(cfg, gen) != key {
		return nil
	}
	files = slices.Clone(files)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	data, err := EncodeGob(SiteRecord{Files: files, Stats: DescribePut(out, files, put), Warnings: warnings})
	if err != nil {
		return err
	}
	return c.PutEntry(key, data)
}

// ReadBack counts the files DescribeFile read back to describe them (for
// tests: a build reads none of the files it put).
var ReadBack atomic.Int64

// DescribePut is Describe without reading again the files the build put
// and noted (put, nil for none): each was read or hashed once as it was
// put — a file written new hashed from its bytes in memory (the
// Recorder's hash), a file linked from the previous site compared with
// those bytes or hashed to the recorded sum — and is described by its
// status now when that is the status the build left it with: the same
// device, inode, size, mode and modification time, and for a file written
// the same status-change time (a linked file's moves when the previous
// site's link to it goes), before a stamp taken first. Any other file is
// read back as Describe reads it.
func DescribePut(out string, files []outdir.HashedFile, put func(path string) (outdir.PutFile, bool)) []FileStat {
	if put == nil {
		return Describe(out, files)
	}
	stamp, ok := ClockStamp(out)
	if !ok {
		return nil
	}
	stats := make([]FileStat, len(files))
	render.Parallel(len(files), func(i int) {
		p := filepath.Join(out, filepath.FromSlash(files[i].Path))
		pf, ok := put(files[i].Path)
		if !ok {
			stats[i] = DescribeFile(p, files[i], stamp)
			return
		}
		stats[i] = describeStatus(p, files[i], pf, stamp)
	})
	return stats
}

// describeStatus is the status of the file at p, found without following
// a link, when it is the file the build put as pf says (DescribePut),
// regular, of mode 0644 and of the recorded size, changed last before
// stamp; the zero FileStat otherwise.
func describeStatus(p string, want outdir.HashedFile, pf outdir.PutFile, stamp int64) FileStat {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o644 || info.Size() != want.Size {
		return FileStat{}
	}
	st, ok := StatOf(info)
	was := pf.Stat
	if !ok || st.Ctime >= stamp || st.Dev != was.Dev || st.Ino != was.Ino || st.Size != was.Size ||
		st.Mode != was.Mode || st.Mtime != was.Mtime || !pf.Linked && st.Ctime != was.Ctime {
		return FileStat{}
	}
	return st
}

// describe reads back each of the files in the site at out, and returns
// the description of each found with the recorded bytes, regular, of mode
// 0644, described the same before and after the read, and with a
// status-change time before a stamp taken first (the zero fileStat for
// any other); nil when no stamp can be taken.
func Describe(out string, files []outdir.HashedFile) []FileStat {
	stamp, ok := ClockStamp(out)
	if !ok {
		return nil
	}
	stats := make([]FileStat, len(files))
	render.Parallel(len(files), func(i int) {
		stats[i] = DescribeFile(filepath.Join(out, filepath.FromSlash(files[i].Path)), files[i], stamp)
	})
	return stats
}

func DescribeFile(p string, want outdir.HashedFile, stamp int64) FileStat {
	ReadBack.Add(1)
	f, before, ok := outdir.OpenUnchanged(p, want.Size)
	if !ok {
		return FileStat{}
	}
	defer f.Close()
	st, ok := StatOf(before)
	if !ok || st.Ctime >= stamp || !outdir.HashIs(f, want.SHA256, want.Size) {
		return FileStat{}
	}
	after, err := f.Stat()
	if err != nil {
		return FileStat{}
	}
	if st2, ok := StatOf(after); !ok || st2 != st {
		return FileStat{}
	}
	return st
}

// clockStamp is the status-change time the file system of the folder out
// is in gives a file created now (one made beside out, then removed).
func ClockStamp(out string) (int64, bool) {
	f, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".tmp-stamp-")
	if err != nil {
		return 0, false
	}
	defer os.Remove(f.Name())
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, false
	}
	st, ok := StatOf(info)
	return st.Ctime, ok
}

// teeWarnings passes warnings on to w and keeps them.
type TeeWarnings struct {
	W   io.Writer
	Buf bytes.Buffer
}

func (t *TeeWarnings) Write(p []byte) (int, error) {
	t.Buf.Write(p)
	if t.W == nil {
		return len(p), nil
	}
	return t.W.Write(p)
}
