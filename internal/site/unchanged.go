package site

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

// siteRecord is what the cache keeps of a build under its whole-build key.
type siteRecord struct {
	Files    []hashedFile // by path
	Warnings string
}

// inputsHash hashes every file of the content and runs folders (by path
// and bytes, folders followed through links the way the build opens them)
// and the methodology; an error means no shortcut, the build then reports
// what is wrong.
func inputsHash(cfg Config) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "labels %q %q %q\n", cfg.ContentLabel, cfg.RunsLabel, cfg.MethodologyLabel)
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
func siteKey(cfg Config, gen string) string {
	in, err := inputsHash(cfg)
	if err != nil {
		return ""
	}
	return cache.Key(gen, "site", in)
}

// unchangedSite reports whether the site at out is the one recorded under
// key, every file read and hashed; with it the record's warnings.
func unchangedSite(c *cache.Cache, key, out string) (bool, *siteRecord) {
	if key == "" {
		return false, nil
	}
	data, err := c.GetEntry(key)
	if err != nil {
		return false, nil
	}
	var rec siteRecord
	if decodeGob(data, &rec) != nil {
		c.Forget(key)
		return false, nil
	}
	want := make(map[string]int, len(rec.Files)) // path → index in rec.Files
	dirs := map[string]bool{".": true}
	for i, f := range rec.Files {
		want[f.Path] = i
		for d := path.Dir(f.Path); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	// The folder holds the recorded files and folders, in the modes a
	// build gives them, and nothing else but the files a rebuild keeps.
	seen := 0
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
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
		case slices.Contains(keep, rel):
			if _, listed := want[rel]; listed {
				seen++
			}
		default:
			if _, listed := want[rel]; !listed {
				return errNotTheSite
			}
			seen++
		}
		return nil
	})
	if err != nil || seen != len(rec.Files) {
		return false, nil
	}
	// Every file read and hashed, on every core.
	var bad atomic.Bool
	parallel(len(rec.Files), func(i int) {
		if bad.Load() {
			return
		}
		f := rec.Files[i]
		if !sameFile(filepath.Join(out, filepath.FromSlash(f.Path)), f.SHA256, f.Size) {
			bad.Store(true)
		}
	})
	if bad.Load() {
		return false, nil
	}
	return true, &rec
}

var errNotTheSite = errors.New("not the recorded site")

// sameFile reports whether the file at p, opened without following a
// link, is a regular file of mode 0644 with this SHA-256 and size.
func sameFile(p, sum string, size int64) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 || st.Size() != size {
		return false
	}
	h := sha256.New()
	if n, err := io.Copy(h, f); err != nil || n != size {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == sum
}

// recordSite keeps the build's files and warnings under key, when the
// inputs still hash to it (none changed while the site was built).
func recordSite(cfg Config, c *cache.Cache, gen, key string, files []hashedFile, warnings string) error {
	if key == "" || siteKey(cfg, gen) != key {
		return nil
	}
	files = slices.Clone(files)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	data, err := encodeGob(siteRecord{Files: files, Warnings: warnings})
	if err != nil {
		return err
	}
	return c.PutEntry(key, data)
}

// teeWarnings passes warnings on to w and keeps them.
type teeWarnings struct {
	w   io.Writer
	buf bytes.Buffer
}

func (t *teeWarnings) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if t.w == nil {
		return len(p), nil
	}
	return t.w.Write(p)
}
