package inspect

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/importer"
)

// zipZstd is the zip method number of Zstandard, which inspect_ai uses for
// .eval members from 0.3.206 (April 2026) on; before, Deflate.
const zipZstd = 93

// zstdMaxWindow bounds the decoder's memory; inspect_ai compresses at
// level 3, whose window is a few MiB.
const zstdMaxWindow = 64 << 20

func zstdReader(r io.Reader) io.ReadCloser {
	d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderLowmem(true))
	if err != nil {
		return io.NopCloser(errReader{err})
	}
	return d.IOReadCloser()
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// sampleMember is a sample stored whole ("monolith"); chunkedMember the
// shell of one stored in pieces, which only inspect_ai's internal
// convert-chunked command writes.
var (
	sampleMember  = regexp.MustCompile(`^samples/[^/]+_epoch_\d+\.json$`)
	chunkedMember = regexp.MustCompile(`^samples/([^/]+_epoch_\d+)/sample\.json$`)
)

// readEval reads a .eval log (a zip): the header, then every sample
// member in name order, each passed to add. It returns the header and
// the SHA-256 of the file.
func readEval(path string, add func(importer.Position, *sample) error) (header, string, error) {
	var hdr header
	f, err := importer.OpenRegular(path)
	if err != nil {
		return hdr, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return hdr, "", err
	}
	if st.Size() > importer.MaxFileBytes {
		return hdr, "", fileerr.New(path, 0, "larger than the limit of %s", importer.Size(importer.MaxFileBytes))
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return hdr, "", fileerr.New(path, 0, "not a .eval zip: %v", err)
	}
	zr.RegisterDecompressor(zipZstd, zstdReader)
	members := map[string]*zip.File{}
	var names []string
	for _, zf := range zr.File {
		members[zf.Name] = zf
		if sampleMember.MatchString(zf.Name) {
			names = append(names, zf.Name)
		}
		if m := chunkedMember.FindStringSubmatch(zf.Name); m != nil {
			return hdr, "", fileerr.New(path+":"+zf.Name, 0, "sample %s is stored in pieces (inspect_ai's internal convert-chunked), which this importer does not read: write the log out again with `inspect log convert %s --to json`", m[1], path)
		}
	}
	if len(names) > importer.MaxSamples {
		return hdr, "", fileerr.New(path, 0, "%d samples, over the limit of %d", len(names), importer.MaxSamples)
	}
	budget := importer.MaxFileBytes
	// header.json is written when the eval ends; an interrupted log has only
	// the journal's start.json (and then its status is "started").
	hname := "header.json"
	if members[hname] == nil {
		hname = "_journal/start.json"
		hdr.Status = "started"
	}
	if members[hname] == nil {
		return hdr, "", fileerr.New(path, 0, "no header.json or _journal/start.json: not an Inspect log")
	}
	b, err := readMember(path, members[hname], &budget)
	if err != nil {
		return hdr, "", err
	}
	if err := decode(path+":"+hname, 1, b, &hdr); err != nil {
		return hdr, "", err
	}
	sort.Strings(names)
	for _, name := range names {
		b, err := readMember(path, members[name], &budget)
		if err != nil {
			return hdr, "", err
		}
		var s sample
		where := path + ":" + name
		if err := decode(where, 1, b, &s); err != nil {
			return hdr, "", err
		}
		if err := add(importer.Position{Path: where, Line: 1, Label: s.label()}, &s); err != nil {
			return hdr, "", err
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size())); err != nil {
		return hdr, "", fileerr.Wrap(path, 0, err)
	}
	return hdr, hex.EncodeToString(h.Sum(nil)), nil
}

// readMember decompresses one member, within MaxValueBytes and what is
// left of the log's budget, never trusting the sizes the zip states.
func readMember(path string, zf *zip.File, budget *int64) ([]byte, error) {
	where := path + ":" + zf.Name
	rc, err := zf.Open()
	if err != nil {
		if errors.Is(err, zip.ErrAlgorithm) {
			return nil, fileerr.New(where, 0, "compressed with zip method %d, which is neither Deflate nor Zstandard", zf.Method)
		}
		return nil, fileerr.New(where, 0, "%v", err)
	}
	defer rc.Close()
	limit := min(importer.MaxValueBytes, *budget)
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, fileerr.New(where, 0, "%v", err)
	}
	if int64(len(b)) > limit {
		if limit < importer.MaxValueBytes {
			return nil, fileerr.New(where, 0, "the log's members add up to more than the limit of %s decompressed", importer.Size(importer.MaxFileBytes))
		}
		return nil, fileerr.New(where, 0, "more than the limit of %s decompressed (a zip bomb, or a sample far larger than any Discrim-Eval sample)", importer.Size(importer.MaxValueBytes))
	}
	*budget -= int64(len(b))
	return b, nil
}

// decode decodes Python-written JSON (one member, or one value of a .json
// log starting on line first of where) into v.
func decode(where string, first int, b []byte, v any) error {
	if i := importer.InvalidUTF8(b); i >= 0 {
		return fileerr.New(where, first+importer.LineAt(b, int64(i))-1, "invalid UTF-8")
	}
	clean, _ := importer.Sanitize(b)
	if err := json.Unmarshal(clean, v); err != nil {
		line, msg := importer.DecodeErr(clean, err)
		return fileerr.New(where, first+line-1, "%s", msg)
	}
	return nil
}

// readJSON streams a .json log: the header fields, then each element of
// "samples", passed to add with the line it starts on. Only one value is
// held at a time.
func readJSON(path string, add func(importer.Position, *sample) error) (header, string, error) {
	var hdr header
	src, err := importer.Open(path)
	if err != nil {
		return hdr, "", err
	}
	defer src.Close()
	lc := importer.NewLineCounter(importer.NewSanitizer(src))
	dec := json.NewDecoder(lc)
	fail := func(err error) error {
		line := lc.LineAt(dec.InputOffset())
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fileerr.New(path, line, "truncated JSON (the file ends in the middle of a value)")
		}
		return fileerr.New(path, line, "%v", err)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		if err != nil {
			return hdr, "", fail(err)
		}
		return hdr, "", fileerr.New(path, 1, "not a JSON object: not an Inspect log")
	}
	samples := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return hdr, "", fail(err)
		}
		if key != "samples" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return hdr, "", fail(err)
			}
			start := lc.LineAt(dec.InputOffset()) - bytes.Count(raw, []byte("\n"))
			if k, _ := key.(string); headerKeys[k] {
				obj := append(append([]byte(`{"`+k+`":`), raw...), '}')
				if err := decode(path, start, obj, &hdr); err != nil {
					return hdr, "", err
				}
			}
			continue
		}
		t, err := dec.Token()
		if err != nil {
			return hdr, "", fail(err)
		}
		if t != json.Delim('[') {
			continue // "samples": null
		}
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return hdr, "", fail(err)
			}
			if samples++; samples > importer.MaxSamples {
				return hdr, "", fileerr.New(path, lc.LineAt(dec.InputOffset()), "more than the limit of %d samples", importer.MaxSamples)
			}
			// The value ends at the offset; its first line is its last less
			// the newlines it spans.
			start := lc.LineAt(dec.InputOffset()) - bytes.Count(raw, []byte("\n"))
			var s sample
			if err := decode(path, start, raw, &s); err != nil {
				return hdr, "", err
			}
			if err := add(importer.Position{Path: path, Line: start, Label: s.label()}, &s); err != nil {
				return hdr, "", err
			}
		}
		if _, err := dec.Token(); err != nil {
			return hdr, "", fail(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return hdr, "", fail(err)
	}
	if hdr.Eval.Task == "" && hdr.Eval.Model == "" {
		return hdr, "", fileerr.New(path, 1, "no \"eval\" header with a task and model: not an Inspect log")
	}
	sum, err := src.Sum()
	return hdr, sum, err
}

// headerKeys are the top-level keys of a .json log that header reads.
var headerKeys = map[string]bool{"version": true, "status": true, "eval": true, "results": true, "stats": true, "error": true}

// label names a sample in messages: "sample 12 epoch 1".
func (s *sample) label() string {
	return fmt.Sprintf("sample %s epoch %d", s.id(), s.Epoch)
}

// id is the sample id as written: a string unquoted, a number as is.
func (s *sample) id() string {
	var str string
	if json.Unmarshal(s.ID, &str) == nil {
		return str
	}
	return importer.Shorten(strings.TrimSpace(string(s.ID)), 60)
}
