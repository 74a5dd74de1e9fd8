package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// The importers' limits, stated in CONTRIBUTING.md ("Import rules and
// limits"). They are checked while reading, before memory is taken for what is read, so a gzip or zip bomb
// or an endless line stops with an error in bounded time and memory. A
// complete Discrim-Eval run is far below each: its lm-eval samples file is
// about 60 MB, its Inspect log a few hundred.
var (
	// MaxFileBytes is the decompressed size of one input file: a samples
	// file, a results file, a .json log; for a .eval log, of all its
	// members together.
	MaxFileBytes int64 = 4 << 30
	// MaxLineBytes is the length of one line of a samples file.
	MaxLineBytes = 16 << 20
	// MaxValueBytes is the decompressed size of one .eval member and of
	// one value of a .json log (a sample, or the eval header).
	MaxValueBytes int64 = 64 << 20
	// MaxSamples is the number of lines of a samples file, or of samples
	// (counting each epoch) of an Inspect log. Discrim-Eval has 9,450
	// prompts per variant.
	MaxSamples = 1_000_000
)

// Size formats a byte count for messages ("16 MiB").
var Size = input.Size

// ErrTooLarge is wrapped by the errors of a reader that went over a limit.
var ErrTooLarge = errors.New("over the limit")

// Source is an input file opened for streaming: gunzipped when its name
// ends in .gz, capped at MaxFileBytes decompressed, and hashed as stored.
type Source struct {
	Path string
	f    *os.File
	h    hash.Hash
	zr   *gzip.Reader
	r    io.Reader
	n    int64 // decompressed bytes read
}

// Open opens a regular file for streaming.
func Open(path string) (*Source, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	s := &Source{Path: path, f: f, h: sha256.New()}
	stored := io.TeeReader(f, s.h)
	s.r = stored
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(stored)
		if err != nil {
			f.Close()
			return nil, fileerr.New(path, 0, "not a gzip file (%v): gunzip it, or drop the .gz from its name", err)
		}
		zr.Multistream(true)
		s.zr, s.r = zr, zr
	}
	return s, nil
}

// OpenRegular opens path, refusing anything but a regular file: a named
// pipe would block the import, a device never ends.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := input.CheckMode(path, st.Mode()); err != nil {
		return nil, err
	}
	return os.Open(path)
}

// Read reads decompressed bytes, failing past MaxFileBytes.
func (s *Source) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if s.n > MaxFileBytes {
		return n, fmt.Errorf("the file is larger than the limit of %s decompressed: %w", Size(MaxFileBytes), ErrTooLarge)
	}
	return n, err
}

// Close closes the file.
func (s *Source) Close() error { return s.f.Close() }

// Sum drains what is left of the stored file and returns its SHA-256.
func (s *Source) Sum() (string, error) {
	if _, err := io.Copy(io.Discard, s.f); err != nil {
		return "", fileerr.New(s.Path, 0, "%v", err)
	}
	return hex.EncodeToString(s.h.Sum(nil)), nil
}

// Lines calls fn for every line (without its end of line) with its 1-based
// number. A line longer than MaxLineBytes, invalid UTF-8 or more than
// MaxSamples lines are errors; errors from fn are placed on the line.
func (s *Source) Lines(fn func(line int, b []byte) error) error {
	br := bufio.NewReaderSize(s, 64<<10)
	var buf []byte
	for line := 1; ; line++ {
		b, err := readLine(br, &buf)
		if errors.Is(err, errLongLine) {
			return fileerr.New(s.Path, line, "line longer than the limit of %s", Size(int64(MaxLineBytes)))
		}
		if err != nil && err != io.EOF {
			return fileerr.Wrap(s.Path, line, err)
		}
		if len(b) > 0 || err == nil {
			if line > MaxSamples {
				return fileerr.New(s.Path, line, "more than the limit of %d lines", MaxSamples)
			}
			if !utf8.Valid(b) {
				return fileerr.New(s.Path, line, "invalid UTF-8 at byte %d of the line", InvalidUTF8(b)+1)
			}
			if err := fn(line, b); err != nil {
				return fileerr.Wrap(s.Path, line, err)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

var errLongLine = errors.New("line too long")

// readLine reads one line into *buf, reusing it, without the "\n" or
// "\r\n"; it stops with errLongLine as soon as the line passes
// MaxLineBytes, so a file without newlines never takes more memory.
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	b := (*buf)[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b)+len(chunk) > MaxLineBytes+2 {
			return nil, errLongLine
		}
		b = append(b, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		*buf = b
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		if len(b) > MaxLineBytes {
			return nil, errLongLine
		}
		return b, err
	}
}

// InvalidUTF8 returns the offset of the first byte of b that is not valid
// UTF-8, or -1.
func InvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// ReadAll reads a whole small file (a results file), within limit bytes
// decompressed, and returns it with the SHA-256 of the stored file.
func ReadAll(path string, limit int64) (data []byte, sum string, err error) {
	s, err := Open(path)
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	data, err = io.ReadAll(io.LimitReader(s, limit+1))
	if err != nil {
		return nil, "", fileerr.Wrap(path, 0, err)
	}
	if int64(len(data)) > limit {
		return nil, "", fileerr.New(path, 0, "larger than the limit of %s: %w", Size(limit), ErrTooLarge)
	}
	if i := InvalidUTF8(data); i >= 0 {
		return nil, "", fileerr.New(path, LineAt(data, int64(i)), "invalid UTF-8")
	}
	sum, err = s.Sum()
	return data, sum, err
}

// LineCounter passes a stream through and tells the line of an offset
// already read, for the positions of values a json.Decoder decodes from
// it. The offsets asked must not decrease; it keeps only the bytes read
// since the last one, and fails when they pass MaxValueBytes (one value,
// plus the decoder's read-ahead).
type LineCounter struct {
	r    io.Reader
	buf  []byte
	base int64 // stream offset of buf[0]
	line int   // newlines before base
}

// NewLineCounter wraps r.
func NewLineCounter(r io.Reader) *LineCounter { return &LineCounter{r: r} }

func (l *LineCounter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.buf = append(l.buf, p[:n]...)
	if int64(len(l.buf)) > MaxValueBytes+1<<20 {
		return n, fmt.Errorf("a value larger than the limit of %s: %w", Size(MaxValueBytes), ErrTooLarge)
	}
	return n, err
}

// LineAt returns the 1-based line of stream offset off, clamped to what
// was read, and forgets the bytes before it.
func (l *LineCounter) LineAt(off int64) int {
	k := min(max(off-l.base, 0), int64(len(l.buf)))
	l.line += bytes.Count(l.buf[:k], []byte("\n"))
	l.buf = l.buf[:copy(l.buf, l.buf[k:])]
	l.base += k
	return l.line + 1
}
