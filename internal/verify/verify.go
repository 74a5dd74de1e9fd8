// Package verify compares a freshly built site with a published copy, byte
// for byte, and explains differences in the data: which runs' scores or
// ranks changed and by how much.
//
// The published copy is read with the rules of every input
// (internal/input): open it with input.Dir, so that a symbolic link
// leading out of it is refused, not followed; a named pipe or a device is
// refused before it is opened; and no published file is read further than
// its rebuilt counterpart's length and one byte (a run's data file, whose
// old numbers the report explains, up to input.MaxTextBytes), so a huge or
// endless file costs no more memory than the rebuild itself.
//
// The rebuild must be computed from the inputs alone: cmd/build's -verify
// never uses the build cache, whose pages would otherwise be compared with
// themselves (an entry kept wrongly would be on both sides).
package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"path"
	"slices"
	"sort"
	"sync"

	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// Report is the outcome of a comparison.
type Report struct {
	Same                    int      // files identical in both
	Added, Removed, Changed []string // relative to the published copy: Added = only in the rebuild
	Scores                  []string // explanations of changed data, one line each
}

// Identical reports whether the two sites are byte-for-byte the same.
func (r *Report) Identical() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0
}

// Ignored lists files a published folder may hold that are not part of the
// site: the .gitignore that keeps a local site/ out of git.
var Ignored = map[string]bool{".gitignore": true}

// Compare compares rebuilt files (path → contents) with the tree published,
// named label in errors.
func Compare(rebuilt map[string][]byte, published fs.FS, label string) (*Report, error) {
	c := NewComparer(published, label)
	for _, p := range slices.Sorted(maps.Keys(rebuilt)) {
		if err := c.Put(p, rebuilt[p]); err != nil {
			return nil, err
		}
	}
	return c.Finish()
}

// Comparer compares a rebuild with the published tree file by file, as
// the rebuild produces them, so neither site is ever held in memory. Put
// may be called from several goroutines.
type Comparer struct {
	published fs.FS
	label     string
	mu        sync.Mutex
	seen      map[string]bool
	same      int
	added     []string
	changed   map[string][]string // path → explanations of changed data
}

// NewComparer compares with the published tree, whose files are named
// label/PATH in errors. Open the tree with input.Dir.
func NewComparer(published fs.FS, label string) *Comparer {
	return &Comparer{published: published, label: label, seen: map[string]bool{}, changed: map[string][]string{}}
}

// name is a published file's path as the user knows it.
func (c *Comparer) name(p string) string { return path.Join(c.label, p) }

// Put compares one rebuilt file with the published file at the same path.
// An error names the published file.
func (c *Comparer) Put(p string, data []byte) error {
	// One byte more than the rebuild tells a longer file from an equal
	// one; a run's data file is read whole (to its limit) to explain it.
	limit := int64(len(data)) + 1
	if sitedata.IsRunFile(p) {
		limit = max(limit, input.MaxTextBytes+1)
	}
	// Most files are the same: compared piece by piece in a reused
	// buffer, without reading them into memory; a file that differs is
	// then read whole to explain it.
	equal, err := c.equal(p, data)
	var why []string
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case !equal:
		got, err := c.read(p, limit)
		if err != nil {
			return err
		}
		why = explain(p, got, data)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen[p] = true
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.added = append(c.added, p)
	case !equal:
		c.changed[p] = why
	default:
		c.same++
	}
	return nil
}

// pieces are the buffers equal reads the published files into.
var pieces = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// equal reports whether the published file p holds exactly data, reading
// it in pieces and no further than len(data) + 1 bytes; it opens the file
// as read does.
func (c *Comparer) equal(p string, data []byte) (bool, error) {
	f, err := input.Open(c.published, p, c.name(p))
	if err != nil {
		return false, err
	}
	defer f.Close()
	bp := pieces.Get().(*[]byte)
	defer pieces.Put(bp)
	buf, rest := *bp, data
	for {
		// One byte more than is left tells a longer file.
		n, err := io.ReadFull(f, buf[:min(len(buf), len(rest)+1)])
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return false, nil
		}
		rest = rest[n:]
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return len(rest) == 0, nil
		case err != nil:
			return false, input.Explain(c.name(p), err)
		}
	}
}

// read reads at most limit bytes of the published file p, a regular file
// (input.Open: no link leading out, no pipe or device).
func (c *Comparer) read(p string, limit int64) ([]byte, error) {
	f, err := input.Open(c.published, p, c.name(p))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, input.Explain(c.name(p), err)
	}
	return data, nil
}

// Finish lists the published files the rebuild did not produce and
// returns the report. Each of them must be a regular file too: the
// published copy of a site holds nothing else.
func (c *Comparer) Finish() (*Report, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &Report{Same: c.same, Added: append([]string(nil), c.added...)}
	err := fs.WalkDir(c.published, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return input.Explain(c.name(p), err)
		}
		if d.IsDir() || Ignored[p] || c.seen[p] {
			return nil
		}
		if !d.Type().IsRegular() {
			if _, err := input.Regular(c.published, p, c.name(p)); err != nil {
				return err
			}
		}
		r.Removed = append(r.Removed, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range slices.Sorted(maps.Keys(c.changed)) {
		r.Changed = append(r.Changed, p)
		r.Scores = append(r.Scores, c.changed[p]...)
	}
	sort.Strings(r.Added)
	sort.Strings(r.Removed)
	return r, nil
}

// Write prints the report for a person.
func (r *Report) Write(w io.Writer) {
	if r.Identical() {
		fmt.Fprintf(w, "identical: %d files, byte for byte\n", r.Same)
		return
	}
	fmt.Fprintf(w, "differs: %d files identical, %d changed, %d only in the rebuild, %d only in the published copy\n",
		r.Same, len(r.Changed), len(r.Added), len(r.Removed))
	for _, l := range []struct {
		title string
		list  []string
	}{{"changed", r.Changed}, {"only in the rebuild", r.Added}, {"only in the published copy", r.Removed}, {"score and rank changes", r.Scores}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s:\n", l.title)
		for _, s := range l.list {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

// explain describes what changed in a data file of a run.
func explain(p string, old, new []byte) []string {
	if !sitedata.IsRunFile(p) {
		return nil
	}
	if int64(len(old)) > input.MaxTextBytes {
		return []string{fmt.Sprintf("%s: not comparable as run data (the published file is larger than %s)", p, input.Size(input.MaxTextBytes))}
	}
	var a, b sitedata.Run
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(new, &b) != nil {
		return []string{p + ": not comparable as run data"}
	}
	id := b.ID
	var out []string
	for _, name := range slices.Sorted(maps.Keys(b.Views)) {
		ea, ok := a.Views[name]
		if !ok {
			out = append(out, fmt.Sprintf("%s: %s view scored in one build only", id, name))
			continue
		}
		if x, y := float64(ea.Estimate), float64(b.Views[name].Estimate); x != y {
			out = append(out, fmt.Sprintf("%s: %s view %.6g → %.6g (%+.3g)", id, name, x, y, y-x))
		}
		if ra, rb := a.Rank[name], b.Rank[name]; ra != rb {
			out = append(out, fmt.Sprintf("%s: %s rank %d → %d", id, name, ra, rb))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Views)) {
		if _, ok := b.Views[name]; !ok {
			out = append(out, fmt.Sprintf("%s: %s view scored in one build only", id, name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.Coefficients)) {
		ea, ok := a.Coefficients[name]
		x, y := float64(ea.Estimate), float64(b.Coefficients[name].Estimate)
		if ok && !math.IsNaN(x) && !math.IsNaN(y) && x != y {
			out = append(out, fmt.Sprintf("%s: coefficient %s %.6g → %.6g (%+.3g)", id, name, x, y, y-x))
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("%s: scores and ranks unchanged (other fields differ)", id))
	}
	return out
}

// Linked checks the runs' files that a rebuilt site links instead of
// copying (a sitedata.File whose Download is a URL) against a folder
// holding what is published there — the runs folder at the published
// commit, or a download of it — named label in the lines it returns: one
// for each file missing, of another size, or with another SHA-256; none
// when every one is the file the site names. The folder is read as every
// input is: open it with input.Dir.
func Linked(runs fs.FS, label string, files []sitedata.File) ([]string, error) {
	var problems []string
	for _, f := range files {
		name := path.Join(label, f.Path)
		st, err := fs.Stat(runs, f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, fmt.Sprintf("%s: missing; the site links it at %s", name, f.Download))
			continue
		}
		if err != nil {
			return nil, input.Explain(name, err)
		}
		if st.Size() != f.Size {
			problems = append(problems, fmt.Sprintf("%s: %d bytes, the site says %d (%s)", name, st.Size(), f.Size, f.Download))
			continue
		}
		r, err := input.Open(runs, f.Path, name)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, io.LimitReader(r, f.Size+1))
		r.Close()
		if err != nil {
			return nil, input.Explain(name, err)
		}
		if sum := hex.EncodeToString(h.Sum(nil)); sum != f.SHA256 {
			problems = append(problems, fmt.Sprintf("%s: sha256 %s, the site says %s (%s)", name, sum, f.SHA256, f.Download))
		}
	}
	return problems, nil
}
