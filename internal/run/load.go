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
	ids, err := List(fsys, label)
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
// sorted. Entries starting with "." (an import under way) and files (a
// README) are skipped; a linked folder is a run when the link stays inside
// the folder, and an error otherwise; an invalid id is an error.
func List(fsys fs.FS, label string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, input.Explain(label, err)
	}
	var ids []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // temporary folders of an import under way
		}
		dir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// A linked run folder is loaded when the link stays inside
			// the runs folder, and is an error otherwise: never skipped.
			st, err := input.Stat(fsys, e.Name(), path.Join(label, e.Name()))
			if err != nil {
				return nil, err
			}
			dir = st.IsDir()
		}
		if !dir {
			continue // READMEs
		}
		if !ValidID(e.Name()) {
			return nil, fileerr.New(path.Join(label, e.Name()), 0, "run id %q is not a plain folder name (lower-case letters, digits, '.', '_' and '-'): rename the folder", e.Name())
		}
		ids = append(ids, e.Name())
	}
	sort.Strings(ids)
	return ids, nil
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
		return nil, fileerr.New(path.Join(label, id), 0, "run id %q is not a plain folder name (lower-case letters, digits, '.', '_' and '-'): rename the folder", id)
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
	r := &Run{ID: id, Manifest: m, ManifestRaw: raw}
	msum := sha256.Sum256(raw)
	r.Files = append(r.Files, File{Path: mpath, SHA256: hex.EncodeToString(msum[:]), Size: int64(len(raw))})
	return r, nil
}

// LoadRows reads the run's scored file into Cells, checking every row and
// the file's hash and row count against the manifest; hook, when not nil,
// sees every valid row.
func (r *Run) LoadRows(fsys fs.FS, label string, hook RowHook) error {
	m, id := r.Manifest, r.ID
	mname := path.Join(label, id, "manifest.yaml")

	spath := path.Join(id, m.Scored.Path)
	sname := path.Join(label, spath)
	if _, err := input.Regular(fsys, spath, sname); err != nil {
		return fileerr.New(mname, m.Line("scored", "path"), "scored.path %q: %v", m.Scored.Path, err)
	}
	// Nothing is sized from scored.rows: it is only compared with the
	// count of the rows read.
	seen := make(map[design.Prompt]int)
	sum, size, rows, err := EachRow(fsys, spath, sname, func(line int, row *Row) error {
		c, err := m.ToCell(line, row)
		if err != nil {
			return err
		}
		k := c.Prompt
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
