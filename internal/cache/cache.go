// Package cache is the build's cache of work keyed by the hashes of its
// inputs, the way Go's build cache is: a folder outside the output, holding
// content-addressed blobs and small entries that map a key (a hash of
// everything a result depends on) to a value. Nothing read from it is
// trusted: a blob must hash to its name, an entry must decode, or the
// caller is told it is missing and does the work again. An entry carries
// the key it was stored under and the hash of its value, both checked when
// it is read: an entry swapped with another, renamed, or left by an older
// format is a miss, never another key's value. Blobs and entries are stored
// compressed (S2, of github.com/klauspost/compress): the pages they mostly
// hold are text, and a cache as large as the site it serves was twice the
// site's size.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/s2"
)

// The suffixes of a blob's and an entry's file, compressed with S2.
// (Those of earlier versions — uncompressed, "-d" and "-a", and DEFLATE,
// "-z" and "-e" — are never read; Trim removes them with age.)
const (
	blobSuffix  = "-s"
	entrySuffix = "-t"
)

// maxValue bounds what one blob or entry decompresses to: a damaged file
// must not fill the memory.
const maxValue = 1 << 30

// compress is S2 (klauspost's Snappy extension). The cache holds mostly
// pages, which it makes a third of their size, and runs' records (scores
// with bootstrap replicates), which no codec makes much smaller: DEFLATE
// at its fastest level took them to 0.79 of their size and pages to 0.25,
// at 30-50 MB/s each way, where S2 runs at hundreds of MB/s to GB/s
// (go test -bench on a 437 KB record and a 6 KB page of a 1,000-run
// cache, load 20): decompressing every run's record was a fifth of adding
// a run to a cached site of 1,000.
func compress(data []byte) []byte { return s2.Encode(nil, data) }

func decompress(data []byte) ([]byte, error) {
	n, err := s2.DecodedLen(data)
	if err != nil {
		return nil, err
	}
	if n > maxValue {
		return nil, errors.New("too large")
	}
	return s2.Decode(nil, data)
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

// entryHeader starts an entry's file: the format, the key the entry was
// stored under and the hash of its value, then a newline and the value
// compressed. (Entries of the earlier format began with the value's hash
// alone: they do not match and are misses.)
func entryHeader(key, sum string) string { return "entry " + key + " " + sum + "\n" }

// PutEntry stores value under key. The stored form carries the key and the
// value's hash, so a damaged entry, or one moved from another key's place,
// is noticed.
func (c *Cache) PutEntry(key string, value []byte) error {
	if len(key) != 64 {
		return fmt.Errorf("cache: key %q is not a hash", key)
	}
	return c.write(c.path(key, entrySuffix), append([]byte(entryHeader(key, Sum(value))), compress(value)...))
}

// GetEntry returns the value stored under key. An entry that does not
// carry key (another key's entry, swapped or renamed into its place), or
// whose value does not hash to the sum it carries, is removed and
// reported missing.
func (c *Cache) GetEntry(key string) ([]byte, error) {
	if len(key) != 64 {
		return nil, ErrMissing
	}
	p := c.path(key, entrySuffix)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, ErrMissing
	}
	value, ok := decodeEntry(key, data)
	if !ok {
		os.Remove(p)
		return nil, ErrMissing
	}
	touch(p)
	return value, nil
}

// decodeEntry returns the value of an entry's file when the file is the
// entry of key and its value hashes to the sum it carries.
func decodeEntry(key string, data []byte) ([]byte, bool) {
	header, stored, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, false
	}
	// The header's length is fixed: "entry " + 64 + " " + 64.
	const n = len("entry ") + 64 + 1 + 64
	if len(header) != n || string(header[:len("entry ")+64]) != "entry "+key || header[len("entry ")+64] != ' ' {
		return nil, false
	}
	value, err := decompress(stored)
	if err != nil || Sum(value) != string(header[n-64:]) {
		return nil, false
	}
	return value, true
}

// Forget removes an entry (its value did not decode, say).
func (c *Cache) Forget(key string) { os.Remove(c.path(key, entrySuffix)) }

// tmpPrefix starts the name of a file being written. One left behind (its
// writer was killed) is debris, which TrimTo removes.
const tmpPrefix = ".tmp-"

func (c *Cache) write(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// Twice at most: a temporary file can vanish before its rename only
	// when another build's TrimTo took it for debris, its writer having
	// stalled since before that build began.
	var err error
	for range 2 {
		if err = writeOnce(p, data); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return err
}

func writeOnce(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), tmpPrefix)
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

// RemoveDebris removes the debris of writers that were killed: temporary
// files last written before before (the start of the calling build, which
// holds its lock; a live writer's file exists only between its creation and
// its rename). TrimTo does the same on its way; a build that trims nothing
// calls this. Only names are listed, and only a temporary file's time read.
func (c *Cache) RemoveDebris(before time.Time) error {
	dirs, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		sub := filepath.Join(c.dir, d.Name())
		names, err := os.ReadDir(sub)
		if err != nil {
			continue // removed meanwhile
		}
		for _, n := range names {
			if !strings.HasPrefix(n.Name(), tmpPrefix) {
				continue
			}
			if info, err := n.Info(); err == nil && info.ModTime().Before(before) {
				os.Remove(filepath.Join(sub, n.Name()))
			}
		}
	}
	return nil
}

// TrimTo removes the least recently used files until the cache holds at
// most max bytes, never one used since since (the start of the build that
// calls it: what it used stays, even past max). First it removes the
// debris of writers that were killed: temporary files last written before
// since, so before the calling build took its lock (a live writer's
// file exists for the moment between its creation and its rename).
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
		if strings.HasPrefix(d.Name(), tmpPrefix) && info.ModTime().Before(since) {
			os.Remove(p)
			return nil
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
