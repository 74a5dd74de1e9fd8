// Package cache is the build's cache of work keyed by the hashes of its
// inputs, the way Go's build cache is: a folder outside the output, holding
// content-addressed blobs and small entries that map a key (a hash of
// everything a result depends on) to a value. Nothing read from it is
// trusted: a blob must hash to its name, an entry must decode, or the
// caller is told it is missing and does the work again. Blobs and entries
// are stored compressed (DEFLATE): the pages they mostly hold are text, and
// a cache as large as the site it serves was twice the site's size.
package cache

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// The suffixes of a blob's and an entry's file, compressed. (Uncompressed
// ones of earlier versions, "-d" and "-a", are never read; Trim removes
// them with age.)
const (
	blobSuffix  = "-z"
	entrySuffix = "-e"
)

// maxValue bounds what one blob or entry decompresses to: a damaged file
// must not fill the memory.
const maxValue = 1 << 30

func compress(data []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(data)/4 + 64)
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed) // a valid level: no error
	zw.Write(data)                                  // a bytes.Buffer: no error
	zw.Close()
	return buf.Bytes()
}

func decompress(data []byte) ([]byte, error) {
	zr := flate.NewReader(bytes.NewReader(data))
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, maxValue+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxValue {
		return nil, errors.New("too large")
	}
	return out, nil
}

// ErrMissing is returned for a blob or entry that is not in the cache, or
// is there but corrupt (and has been removed).
var ErrMissing = errors.New("not in the cache")

// Cache is a cache folder. It is safe for concurrent use, also by several
// processes: files are written under temporary names and renamed into
// place, and a file's name says what it must contain.
type Cache struct {
	dir string
}

// Open opens (making it if needed) a cache folder.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache %s: %w", dir, err)
	}
	return &Cache{dir: dir}, nil
}

// Dir is the cache folder.
func (c *Cache) Dir() string { return c.dir }

// Sum is the SHA-256 of data, hex, the name of a blob.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Key hashes the parts of a key, each length-prefixed so that no two lists
// of parts give the same key.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(name, suffix string) string {
	return filepath.Join(c.dir, name[:2], name+suffix)
}

// Put stores a blob and returns its sum.
func (c *Cache) Put(data []byte) (string, error) {
	sum := Sum(data)
	p := c.path(sum, blobSuffix)
	if _, err := os.Stat(p); err == nil {
		touch(p)
		return sum, nil
	}
	return sum, c.write(p, compress(data))
}

// Touch marks a blob used without reading it (a page linked from the
// previous site rather than read from the cache), so TrimTo keeps it.
func (c *Cache) Touch(sum string) {
	if len(sum) == 64 {
		touch(c.path(sum, blobSuffix))
	}
}

// Get returns the blob with the given sum, checking that it hashes to its
// name; a corrupt blob is removed and reported missing.
func (c *Cache) Get(sum string) ([]byte, error) {
	if len(sum) != 64 {
		return nil, ErrMissing
	}
	p := c.path(sum, blobSuffix)
	stored, err := os.ReadFile(p)
	if err != nil {
		return nil, ErrMissing
	}
	data, err := decompress(stored)
	if err != nil || Sum(data) != sum {
		os.Remove(p)
		return nil, ErrMissing
	}
	touch(p)
	return data, nil
}

// PutEntry stores value under key. The stored form carries the value's
// hash, so a damaged entry is noticed.
func (c *Cache) PutEntry(key string, value []byte) error {
	return c.write(c.path(key, entrySuffix), append([]byte(Sum(value)+"\n"), compress(value)...))
}

// GetEntry returns the value stored under key.
func (c *Cache) GetEntry(key string) ([]byte, error) {
	if len(key) != 64 {
		return nil, ErrMissing
	}
	p := c.path(key, entrySuffix)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, ErrMissing
	}
	sum, stored, ok := bytes.Cut(data, []byte("\n"))
	var value []byte
	if ok {
		value, err = decompress(stored)
	}
	if !ok || err != nil || Sum(value) != string(sum) {
		os.Remove(p)
		return nil, ErrMissing
	}
	touch(p)
	return value, nil
}

// Forget removes an entry (its value did not decode, say).
func (c *Cache) Forget(key string) { os.Remove(c.path(key, entrySuffix)) }

func (c *Cache) write(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// touch marks a file used, for Trim.
func touch(p string) {
	now := time.Now()
	os.Chtimes(p, now, now)
}

// Trim removes files not used for maxAge, at most once per interval (it
// keeps the time of the last trim in the folder).
func (c *Cache) Trim(maxAge, interval time.Duration) error {
	mark := filepath.Join(c.dir, "trim.txt")
	if st, err := os.Stat(mark); err == nil && time.Since(st.ModTime()) < interval {
		return nil
	}
	cutoff := time.Now().Add(-maxAge)
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == mark {
			return err
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) {
			os.Remove(p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return os.WriteFile(mark, []byte("the cache was last trimmed at this file's time\n"), 0o644)
}

// TrimTo removes the least recently used files until the cache holds at
// most max bytes, never one used since since (the start of the build that
// calls it: what it used stays, even past max).
func (c *Cache) TrimTo(max int64, since time.Time) error {
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	mark := filepath.Join(c.dir, "trim.txt")
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == mark {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		total += info.Size()
		if info.ModTime().Before(since) {
			files = append(files, file{p, info.Size(), info.ModTime()})
		}
		return nil
	})
	if err != nil || total <= max {
		return err
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].used.Equal(files[j].used) {
			return files[i].used.Before(files[j].used)
		}
		return files[i].path < files[j].path
	})
	for _, f := range files {
		if total <= max {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	return nil
}
