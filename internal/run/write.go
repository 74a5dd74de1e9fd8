package run

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// EncodeScored serialises rows as JSON lines, gzipped when gz is set. The
// gzip header carries no name or time, so equal rows give equal bytes.
func EncodeScored(rows []Row, gz bool) ([]byte, error) {
	var buf bytes.Buffer
	var zw *gzip.Writer
	var w interface{ Write([]byte) (int, error) } = &buf
	if gz {
		zw, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w = zw
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range rows {
		if err := enc.Encode(&rows[i]); err != nil {
			return nil, fmt.Errorf("row %d: %v", i+1, err)
		}
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// Freeze encodes rows, pins them in m.Scored (path, sha256, row count) and
// returns the manifest and scored file contents.
func Freeze(m *Manifest, rows []Row, gz bool) (manifest, scored []byte, err error) {
	scored, err = EncodeScored(rows, gz)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(scored)
	m.Scored = ScoredFile{Path: "scored.jsonl", SHA256: hex.EncodeToString(sum[:]), Rows: len(rows)}
	if gz {
		m.Scored.Path += ".gz"
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, nil, err
	}
	enc.Close()
	return buf.Bytes(), scored, nil
}

// WriteDir freezes a run into dir (runs/<id>): it writes into a temporary
// sibling folder and renames it into place, so a failure leaves nothing
// half-written. An existing run folder is replaced only when force is set.
func WriteDir(dir string, m *Manifest, rows []Row, gz, force bool) error {
	return WriteDirLeftOut(dir, m, rows, nil, gz, force)
}

// WriteDirLeftOut is WriteDir that also writes LeftOutFile, listing what
// the importer left out, when left is not empty.
func WriteDirLeftOut(dir string, m *Manifest, rows []Row, left []LeftOut, gz, force bool) error {
	if !ValidID(filepath.Base(dir)) {
		return fmt.Errorf("%s: run id %q is not a plain folder name", dir, filepath.Base(dir))
	}
	if _, err := os.Stat(dir); err == nil && !force {
		return fmt.Errorf("%s already exists (use -force to replace it)", dir)
	}
	manifest, scored, err := Freeze(m, rows, gz)
	if err != nil {
		return err
	}
	if _, err := ParseManifest(filepath.Join(dir, "manifest.yaml"), manifest); err != nil {
		return fmt.Errorf("the manifest would not load: %w", err)
	}
	var leftOut []byte
	if len(left) > 0 {
		if leftOut, err = EncodeLeftOut(left); err != nil {
			return err
		}
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-"+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "manifest.yaml"), manifest, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, m.Scored.Path), scored, 0o644); err != nil {
		return err
	}
	if leftOut != nil {
		if err := os.WriteFile(filepath.Join(tmp, LeftOutFile), leftOut, 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if force {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	return os.Rename(tmp, dir)
}
