package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// A sink receives the site's files as they are rendered, in any order and
// from several goroutines: a folder being written (Build), a comparison
// with a published copy (-verify), or memory (Generate, for tests). Pages
// go to the sink as soon as they are rendered, so the build never holds
// the whole site in memory.
type Sink interface {
	Put(path string, data []byte) error
}

// recorder wraps a sink: it refuses two files at one path or a path
// outside the site, and keeps every file's hash and size for
// provenance.json, the manifest of the site written last.
type Recorder struct {
	next  Sink
	mu    sync.Mutex
	files map[string]HashedFile
}

func NewRecorder(next Sink) *Recorder {
	return &Recorder{next: next, files: map[string]HashedFile{}}
}

func (r *Recorder) Put(path string, data []byte) error {
	h := HashBytes(data)
	h.Path = path
	if err := r.record(h); err != nil {
		return err
	}
	return r.next.Put(path, data)
}

// record notes a file put, refusing a path outside the site or put twice.
func (r *Recorder) record(h HashedFile) error {
	if err := checkSitePath(h.Path); err != nil {
		return err
	}
	r.mu.Lock()
	_, dup := r.files[h.Path]
	r.files[h.Path] = h
	r.mu.Unlock()
	if dup {
		return fmt.Errorf("two outputs at %s", h.Path)
	}
	return nil
}

// checkSitePath refuses a path that would leave the site's folder.
func checkSitePath(path string) error {
	if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "..") {
		return fmt.Errorf("refusing to write outside the site: %q", path)
	}
	return nil
}

// byHash is a sink that may already hold a file known by its SHA-256 (in
// hex) and size: the output, when the site it replaces has that very file
// (it is linked, not written). has says so, having checked the bytes;
// putByHash then puts it.
type ByHash interface {
	Has(path, sum string, size int64) bool
	PutByHash(path, sum string, size int64) error
}

func (r *Recorder) Has(path, sum string, size int64) bool {
	h, ok := r.next.(ByHash)
	return ok && h.Has(path, sum, size)
}

// putByHash records the file as put does, with the hash it is given.
func (r *Recorder) PutByHash(path, sum string, size int64) error {
	if err := r.record(HashedFile{Path: path, SHA256: sum, Size: size}); err != nil {
		return err
	}
	return r.next.(ByHash).PutByHash(path, sum, size)
}

// outputs lists the files put so far, by path.
func (r *Recorder) Outputs() []HashedFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]HashedFile, 0, len(r.files))
	for _, h := range r.files {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// memSink keeps the files in memory.
type MemSink struct {
	mu    sync.Mutex
	files []File
}

func (m *MemSink) Put(path string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files = append(m.files, File{Path: path, Data: data})
	return nil
}

// sorted returns the files by path.
func (m *MemSink) Sorted() []File {
	sort.Slice(m.files, func(i, j int) bool { return m.files[i].Path < m.files[j].Path })
	return m.files
}

type HashedFile struct {
	Path   string `json:"path" jsonschema_description:"the file's path: an output relative to the site root, an input in the repository's layout"`
	SHA256 string `json:"sha256" jsonschema_description:"SHA-256 of the file, in hex"`
	Size   int64  `json:"size" jsonschema_description:"size in bytes"`
}

func HashBytes(data []byte) HashedFile {
	sum := sha256.Sum256(data)
	return HashedFile{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}
}

// File is one output file.
type File struct {
	Path string // slash-separated, relative to the site root
	Data []byte
}

// FileStat is what the kernel says of a file (StatOf).
type FileStat struct {
	Dev, Ino     uint64
	Size         int64
	Mode         uint32
	Mtime, Ctime int64 // nanoseconds since 1970
}
