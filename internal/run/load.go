package run

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/design"
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
// parallel, so a hook must be safe for concurrent use.
type RowHook func(r *Run, c Cell, row *Row)

// LoadAll loads every run folder in fsys (the runs folder). label is the
// folder's name as the user knows it (e.g. "runs"), used in error messages.
// Runs are returned sorted by id; files at the top level other than
// folders (a README, say) are ignored.
func LoadAll(fsys fs.FS, label string) ([]*Run, error) { return LoadAllWith(fsys, label, nil) }

// LoadAllWith is LoadAll with a hook called for every valid row, so a
// caller can keep what it needs of the texts without a second pass.
func LoadAllWith(fsys fs.FS, label string, hook RowHook) ([]*Run, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", label, err)
	}
	var ids []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // READMEs, and temporary folders of an import under way
		}
		if !ValidID(e.Name()) {
			return nil, fmt.Errorf("%s/%s: run id %q is not a plain folder name (lower-case letters, digits, '.', '_' and '-')", label, e.Name(), e.Name())
		}
		ids = append(ids, e.Name())
	}
	sort.Strings(ids)
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

// Load loads and verifies one run folder.
func Load(fsys fs.FS, label, id string) (*Run, error) { return load(fsys, label, id, nil) }

func load(fsys fs.FS, label, id string, hook RowHook) (*Run, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("%s/%s: run id %q is not a plain folder name", label, id, id)
	}
	mpath := path.Join(id, "manifest.yaml")
	mname := path.Join(label, mpath)
	raw, err := fs.ReadFile(fsys, mpath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s/%s: no manifest.yaml in the run folder", label, id)
		}
		return nil, fmt.Errorf("%s: %v", mname, err)
	}
	m, err := ParseManifest(mname, raw)
	if err != nil {
		return nil, err
	}
	r := &Run{ID: id, Manifest: m, ManifestRaw: raw}
	msum := sha256.Sum256(raw)
	r.Files = append(r.Files, File{Path: mpath, SHA256: hex.EncodeToString(msum[:]), Size: int64(len(raw))})

	spath := path.Join(id, m.Scored.Path)
	sname := path.Join(label, spath)
	if _, err := fs.Stat(fsys, spath); err != nil {
		return nil, fmt.Errorf("%s: scored.path %q: %v", mname, m.Scored.Path, errors.Unwrap(err))
	}
	seen := make(map[cellKey]int, m.Scored.Rows)
	r.Cells = make([]Cell, 0, m.Scored.Rows)
	sum, size, rows, err := EachRow(fsys, spath, sname, func(line int, row *Row) error {
		c, err := m.ToCell(line, row)
		if err != nil {
			return err
		}
		k := cellKey{c.Q, c.Cell}
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("duplicate cell: question %d, %s already on line %d", c.Q, c.Label(), prev)
		}
		seen[k] = line
		r.Cells = append(r.Cells, c)
		if hook != nil {
			hook(r, c, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sum != m.Scored.SHA256 {
		return nil, fmt.Errorf("%s: sha256 is %s but %s says %s (the file changed after the run was frozen)", sname, sum, mname, m.Scored.SHA256)
	}
	if rows != m.Scored.Rows {
		return nil, fmt.Errorf("%s: %d rows but %s says scored.rows: %d", sname, rows, mname, m.Scored.Rows)
	}
	r.Files = append(r.Files, File{Path: spath, SHA256: sum, Size: size})
	return r, nil
}

type cellKey struct {
	q int
	c design.Cell
}
