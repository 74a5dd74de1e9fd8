package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// A JSONStream reads one JSON object from a stream a member at a time, so
// that a log or record of any size holds one value in memory (within
// MaxValueBytes: LineCounter), and places each value and error on its
// line.
type JSONStream struct {
	Path  string
	Dec   *json.Decoder
	lines *LineCounter
}

// OpenJSONObject starts reading r, the file at path, as one JSON object:
// an error names what the file should be ("an Inspect log") when it is not
// one.
func OpenJSONObject(path string, r io.Reader, what string) (*JSONStream, error) {
	s := &JSONStream{Path: path, lines: NewLineCounter(r)}
	s.Dec = json.NewDecoder(s.lines)
	if t, err := s.Dec.Token(); err != nil || t != json.Delim('{') {
		if err != nil {
			return nil, s.Fail(err)
		}
		return nil, fileerr.New(path, 1, "not a JSON object: not %s", what)
	}
	return s, nil
}

// Line is the line of the decoder's offset: where the last value read
// ends.
func (s *JSONStream) Line() int { return s.lines.LineAt(s.Dec.InputOffset()) }

// Fail places a decoder's error on its line; an early end is "truncated".
func (s *JSONStream) Fail(err error) error {
	line := s.Line()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fileerr.New(s.Path, line, "truncated JSON (the file ends in the middle of a value)")
	}
	return fileerr.New(s.Path, line, "%v", err)
}

// Value reads the next value whole, with the line it starts on and the
// stream offset where it ends.
func (s *JSONStream) Value() (raw json.RawMessage, start int, end int64, err error) {
	if err := s.Dec.Decode(&raw); err != nil {
		return nil, 0, 0, s.Fail(err)
	}
	// The value ends at the offset; its first line is its last less the
	// newlines it spans.
	return raw, s.Line() - bytes.Count(raw, []byte("\n")), s.Dec.InputOffset(), nil
}

// Token reads the next token, failing on its line.
func (s *JSONStream) Token() (json.Token, error) {
	t, err := s.Dec.Token()
	if err != nil {
		return nil, s.Fail(err)
	}
	return t, nil
}
