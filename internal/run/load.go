package run

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// Run is a loaded and verified run.
type Run struct {
	ID       string
	Manifest *Manifest
	// ManifestRaw is manifest.yaml as stored, for display and provenance.
	ManifestRaw []byte
	// Files lists the run's input files with their hashes, verified.
	Files []File
	// Cells are the rows reduced to what scoring needs, in file order.
	Cells []Cell
	// LeftOut is the number of lines of the run's LeftOutFile: what the
	// importer left out, listed (0 when the run has no such file).
	LeftOut int
	// Warnings are what the load allowed but a publisher should know,
	// each naming its file: the manifest's (Manifest.Warnings), and each
	// entry of the run's folder that the build does not read (anything
	// but manifest.yaml, the scored file it names and LeftOutFile), which
	// the site neither shows nor copies.
	Warnings []error
}

// File is an input file and its content hash.
type File struct {
	Path   string // relative to the runs folder, slash-separated
	SHA256 string
	Size   int64
}

// ScoredFS returns the path of the run's scored file relative to the runs
// folder, for streaming the texts again when rendering transcripts.
func (r *Run) ScoredFS() string { return path.Join(r.ID, r.Manifest.Scored.Path) }

// RowHook sees every row of every run as it is loaded. Runs load in
// parallel, so a hook must be safe for concurrent use. The row is reused
// for the next one (as EachRow's): a hook copies what it keeps of its
// maps and lists (Row.Clone); its strings may be kept.
type RowHook func(r *Run, c Cell, row *Row)

// LoadAll loads every run folder in fsys (the runs folder). label is the
// folder's name as the user knows it (e.g. "runs"), used in error messages.
// Runs are returned sorted by id; entries that are not runs are as List
// says (its warnings are the caller's of List: LoadAll is for tools and
// tests).
func LoadAll(fsys fs.FS, label string) ([]*Run, error) { return LoadAllWith(fsys, label, nil) }

// LoadAllWith is LoadAll with a hook called for every valid row, so a
// caller can keep what it needs of the texts without a second pass.
func LoadAllWith(fsys fs.FS, label string, hook RowHook) ([]*Run, error) {
	ids, _, err := List(fsys, label)
	if err != nil {
		return nil, err
	}
	runs := make([]*Run, len(ids))
	errs := make([]error, len(ids))
	// Loading is I/O and JSON bound; a small pool keeps memory bounded.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			runs[i], errs[i] = load(fsys, label, id, hook)
		}()
	}
	wg.Wait()
	// The first error in id order, so the message does not depend on timing.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// List returns the ids of the run folders in fsys (the runs folder),
// sorted, and a warning for each entry skipped. Every entry is a run or is
// accounted for:
//
//   - a folder is a run, and its name must be a valid id (an error
//     otherwise, a name starting with "." included), except run.WriteDir's
//     temporary folders, ".tmp-ID-*" (an import under way or interrupted),
//     which are skipped with a warning;
//   - a linked folder is a run when the link stays inside the folder, and
//     an error otherwise;
//   - a regular file is not a run: each is named in a warning, text a
//     person reads (README.txt, *.md, *.txt, LICENSE) as not read, any
//     other file as skipped; only README.md, the folder's notes, and git's
//     own files (input.Passed) go without a word;
//   - anything else (a named pipe, a device, a socket) is an error.
func List(fsys fs.FS, label string) (ids []string, warnings []error, err error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, input.Explain(label, err)
	}
	for _, e := range entries {
		name := path.Join(label, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			// A linked run folder is loaded when the link stays inside
			// the runs folder, and is an error otherwise: never skipped.
			st, err := input.Stat(fsys, e.Name(), name)
			if err != nil {
				return nil, nil, err
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir() && strings.HasPrefix(e.Name(), ".tmp-"):
			warnings = append(warnings, fileerr.New(name, 0, "skipped: the temporary folder of an import under way or interrupted; remove it when no import is running"))
			continue
		case mode.IsDir():
		case mode.IsRegular():
			switch {
			case input.Passed(e.Name()):
			case readByPeople(e.Name()):
				warnings = append(warnings, fileerr.New(name, 0, "not read: the build reads the run folders in %s, not the files beside them, and the site does not show this one (a README.md, the folder's notes on GitHub, goes without a word)", label))
			default:
				warnings = append(warnings, fileerr.New(name, 0, "skipped: a file, not a run folder (a run is a folder %s/ID/ with manifest.yaml); move it out of %s", label, label))
			}
			continue
		default:
			return nil, nil, input.CheckMode(name, mode)
		}
		if !ValidID(e.Name()) {
			return nil, nil, idError(name, e.Name())
		}
		ids = append(ids, e.Name())
	}
	if len(ids) > input.MaxRuns {
		return nil, nil, fileerr.New(label, 0, "%d runs, over the limit of %d runs per site (the build's time grows faster than the runs beyond it, and the site outgrows GitHub Pages' 1 GB): publish fewer runs, or split them between sites", len(ids), input.MaxRuns)
	}
	sort.Strings(ids)
	return ids, warnings, nil
}

// idError says why id, the folder at name, is not a valid run id.
func idError(name, id string) error {
	if len(id) > MaxIDLen {
		return fileerr.New(name, 0, "run id of %d characters, over the limit of %d (the id names the site's files, and a file name has at most 255 bytes): rename the folder", len(id), MaxIDLen)
	}
	return fileerr.New(name, 0, "run id %q is not a plain folder name (%s): rename the folder", id, IDRule)
}

// readByPeople reports whether a file beside the run folders is one a
// person reads (a README), which the build passes over.
func readByPeople(name string) bool {
	base := strings.ToUpper(strings.TrimSuffix(name, path.Ext(name)))
	switch {
	case strings.HasPrefix(name, "."):
		return false
	case base == "README" || base == "LICENSE" || base == "NOTICE":
		return true
	}
	return strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".txt")
}

// Load loads and verifies one run folder.
func Load(fsys fs.FS, label, id string) (*Run, error) { return load(fsys, label, id, nil) }

func load(fsys fs.FS, label, id string, hook RowHook) (*Run, error) {
	r, err := LoadManifest(fsys, label, id)
	if err != nil {
		return nil, err
	}
	if err := r.LoadRows(fsys, label, hook); err != nil {
		return nil, err
	}
	return r, nil
}

// LoadManifest reads and checks a run's manifest; the rows are not read.
func LoadManifest(fsys fs.FS, label, id string) (*Run, error) {
	if !ValidID(id) {
		return nil, idError(path.Join(label, id), id)
	}
	mpath := path.Join(id, "manifest.yaml")
	mname := path.Join(label, mpath)
	raw, err := input.ReadFile(fsys, mpath, mname, input.MaxManifestBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fileerr.New(path.Join(label, id), 0, "no manifest.yaml in the run folder: add one (see the README), or move the folder out of %s", label)
		}
		return nil, err
	}
	m, err := ParseManifest(mname, raw)
	if err != nil {
		return nil, err
	}
	// A scored file larger than any scored file may be is refused here,
	// before anything else is said of the run (the warning that the
	// runs' files outgrow GitHub Pages came first, for a sparse 4 GB
	// file). Its size is the file system's, not the input's word.
	spath := path.Join(id, m.Scored.Path)
	if st, err := fs.Stat(fsys, spath); err == nil && st.Mode().IsRegular() && st.Size() > maxScoredBytes {
		what := "the file is"
		if strings.HasSuffix(spath, ".gz") {
			what = "compressed, the file is already"
		}
		return nil, fileerr.New(path.Join(label, spath), 0, "%s %.2f GB, over the limit of %s for a scored file (decompressed): split the run, or leave out the transcripts", what, float64(st.Size())/1e9, input.Size(maxScoredBytes))
	}
	r := &Run{ID: id, Manifest: m, ManifestRaw: raw}
	msum := sha256.Sum256(raw)
	r.Files = append(r.Files, File{Path: mpath, SHA256: hex.EncodeToString(msum[:]), Size: int64(len(raw))})
	lf, n, ok, err := loadLeftOut(fsys, label, id)
	if err != nil {
		return nil, err
	}
	if ok {
		r.Files, r.LeftOut = append(r.Files, lf), n
	}
	un, err := unread(fsys, label, id, m)
	if err != nil {
		return nil, err
	}
	r.Warnings = append(slices.Clone(m.Warnings()), un...)
	return r, nil
}

// unread lists the entries of a run's folder that the build does not read.
func unread(fsys fs.FS, label, id string, m *Manifest) ([]error, error) {
	entries, err := fs.ReadDir(fsys, id)
	if err != nil {
		return nil, input.Explain(path.Join(label, id), err)
	}
	var out []error
	for _, e := range entries {
		switch n := e.Name(); {
		case n == "manifest.yaml", n == m.Scored.Path, n == LeftOutFile, input.Passed(n):
		case e.IsDir():
			out = append(out, fileerr.New(path.Join(label, id, n), 0, "not read: a folder in a run folder, which holds manifest.yaml, the scored file it names (%s) and, from an import, %s; the site neither shows nor copies it; move it out of %s", m.Scored.Path, LeftOutFile, label))
		default:
			out = append(out, fileerr.New(path.Join(label, id, n), 0, "not read: a run folder holds manifest.yaml, the scored file it names (%s) and, from an import, %s; the site neither shows nor copies this file; move it out of %s", m.Scored.Path, LeftOutFile, label))
		}
	}
	return out, nil
}

// LoadRows reads the run's scored file into Cells, checking every row and
// the file's hash and row count against the manifest; hook, when not nil,
// sees every valid row.
func (r *Run) LoadRows(fsys fs.FS, label string, hook RowHook) error {
	return r.loadRows(fsys, label, false, hook)
}

// LoadRowsBorrowed is LoadRows for a hook that keeps few of the rows'
// texts: a row's filled_template, prompt, response and messages' content
// are valid only during the hook's call (they are the line being read,
// not copies of it), and a hook that keeps one copies it
// (strings.Clone). Most of a run's bytes are these texts: the build keeps
// only those the dataset's prompts do not have yet.
func (r *Run) LoadRowsBorrowed(fsys fs.FS, label string, hook RowHook) error {
	return r.loadRows(fsys, label, true, hook)
}

func (r *Run) loadRows(fsys fs.FS, label string, borrow bool, hook RowHook) error {
	m, id := r.Manifest, r.ID
	mname := path.Join(label, id, "manifest.yaml")

	spath := path.Join(id, m.Scored.Path)
	sname := path.Join(label, spath)
	if _, err := input.Regular(fsys, spath, sname); err != nil {
		return fileerr.New(mname, m.Line("scored", "path"), "scored.path %q: %v", m.Scored.Path, err)
	}
	// scored.rows is compared with the count of the rows read; it sizes
	// the cells only up to a complete run's 9,450, which a manifest
	// cannot raise.
	r.Cells = slices.Grow(r.Cells, min(max(m.Scored.Rows, 0), design.NumPrompts))
	// seen holds each prompt's line (lines count from 1), a grid per
	// question.
	seen := make(map[int]*[design.NumCells]int)
	var slab []float64
	sum, size, rows, err := eachRow(fsys, spath, sname, borrow, func(line int, row *Row) error {
		c, err := m.toCell(line, row, &slab)
		if err != nil {
			return err
		}
		g := seen[c.Q]
		if g == nil {
			g = new([design.NumCells]int)
			seen[c.Q] = g
		}
		if prev := g[c.Index()]; prev != 0 {
			return fmt.Errorf("duplicate cell: question %d, %s already on line %d", c.Q, c.Label(), prev)
		}
		g[c.Index()] = line
		r.Cells = append(r.Cells, c)
		if hook != nil {
			hook(r, c, row)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if sum != m.Scored.SHA256 {
		return fileerr.New(mname, m.Line("scored", "sha256"), "scored.sha256 is %s, but %s has sha256 %s: the file changed after the run was frozen; restore it, or re-freeze the run (run.WriteDir, or the importers) if the change is meant", m.Scored.SHA256, sname, sum)
	}
	if rows != m.Scored.Rows {
		return fileerr.New(mname, m.Line("scored", "rows"), "scored.rows is %d, but %s has %d rows: restore the file, or re-freeze the run if the change is meant", m.Scored.Rows, sname, rows)
	}
	r.Files = append(r.Files, File{Path: spath, SHA256: sum, Size: size})
	return nil
}
