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
	"io/fs"
	"regexp"
	"sort"
	"strconv"
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

// knownMember matches the members inspect_ai writes that the importer
// does not need: the journal and the summaries.
var knownMember = regexp.MustCompile(`^(summaries\.json|reductions\.json|_journal/start\.json|_journal/summaries/\d+\.json)$`)

// oddMembers says, for warn, which members of a .eval log the importer
// does not read and inspect_ai does not write: names that are not plain
// paths inside the archive ("../x", "/etc/x", "a\\b": a zip-slip name,
// which the importer never writes out but which no Inspect log has), and
// any other member, listed up to a few. Nothing of a log goes unread in
// silence.
func oddMembers(path string, files []*zip.File, warn func(string)) {
	var slip, other []string
	for _, zf := range files {
		switch n := zf.Name; {
		case !fs.ValidPath(strings.TrimSuffix(n, "/")) || strings.Contains(n, `\`):
			slip = append(slip, strconv.Quote(n))
		case n == "header.json", sampleMember.MatchString(n), knownMember.MatchString(n):
		case n == "samples/", n == "_journal/", n == "_journal/summaries/":
		default:
			other = append(other, n)
		}
	}
	if len(slip) > 0 {
		warn(fmt.Sprintf("%s: %d members whose names are not plain paths inside the log (%s): not read; no Inspect log has them (a zip-slip name would write outside a folder it is unpacked into)", path, len(slip), importer.List(slip, 3)))
	}
	if len(other) > 0 {
		warn(fmt.Sprintf("%s: %d members that inspect_ai does not write (%s): not read", path, len(other), importer.List(other, 5)))
	}
}

// readEval reads a .eval log (a zip): the header, then every sample
// member in name order, each passed to add. It returns the header and
// the SHA-256 of the file. Members it does not read are told to warn
// (oddMembers), and so is a sample whose member is not named for its id
// and epoch.
func readEval(path string, add func(importer.Position, *sample) error, warn func(string)) (header, string, error) {
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
	oddMembers(path, zr.File, warn)
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
		if want := fmt.Sprintf("samples/%s_epoch_%d.json", s.id(), s.Epoch); name != want {
			warn(fmt.Sprintf("%s holds %s, whose member inspect_ai names %s: renamed, or copied in from elsewhere?", where, s.label(), want))
		}
		if err := add(importer.Position{Path: where, Line: 1, Label: s.label(), ID: s.id(), Epoch: s.Epoch}, &s); err != nil {
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
	clean, rewrites := importer.Sanitize(b)
	return decodeClean(where, first, clean, rewrites, v)
}

// decodeClean decodes sanitized JSON into v, a *header or a *sample. Where
// Python's bare NaN, Infinity or -Infinity were rewritten, it decodes
// again with numbers in their place (importer.Numbered) to read them as
// inspect_ai's pydantic models do: in a float field, or in a dict of any
// values (metadata, model_args), a bare token is the float; in a field of
// another type it is an error, which inspect_ai gives too (a string field,
// an int field, the sample id). Keys the models do not have are ignored,
// as pydantic ignores them.
func decodeClean(where string, first int, clean []byte, rewrites []int, v any) error {
	fail := func(data []byte, err error) error {
		line, msg := importer.DecodeErr(data, err)
		return fileerr.New(where, first+line-1, "%s", msg)
	}
	err := json.Unmarshal(clean, v)
	if len(rewrites) == 0 {
		if err != nil {
			return fail(clean, err)
		}
		return nil
	}
	num := importer.Numbered(clean, rewrites)
	if err != nil {
		// A bare token in a string or integer field shows as one in the
		// second decoding, below; any other error is reported as is.
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Value != "string" {
			return fail(clean, err)
		}
	}
	var again any
	switch v.(type) {
	case *header:
		again = new(header)
	case *sample:
		again = new(sample)
	default:
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(num))
	dec.UseNumber() // a dict of any values takes 1e999 as a number
	if err := dec.Decode(again); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			line := importer.LineAt(num, te.Offset)
			return fileerr.New(where, first+line-1, "%s: a bare NaN or Infinity, where inspect_ai wants %s", te.Field, pyType(te.Type.Kind().String()))
		}
		return fail(num, err)
	}
	if s, ok := v.(*sample); ok {
		return bareInSample(where, first, s, again.(*sample))
	}
	h := v.(*header)
	if field := bareIn(map[string][2][]byte{
		"eval.task_version": {h.Eval.TaskVersion, again.(*header).Eval.TaskVersion},
		"eval.config.limit": {h.Eval.Config.Limit, again.(*header).Eval.Config.Limit},
	}); field != "" {
		return fileerr.New(where, first, "%s is a bare NaN or Infinity, which inspect_ai does not read there (it wants an integer or a string)", field)
	}
	return nil
}

func pyType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "uint", "uint64":
		return "an integer"
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}

// bareIn returns the first field, in name order, whose raw JSON differs
// between the two decodings: where a bare token stood.
func bareIn(fields map[string][2][]byte) string {
	for _, k := range importer.SortedKeys(fields) {
		if !bytes.Equal(fields[k][0], fields[k][1]) {
			return k
		}
	}
	return ""
}

// bareInSample checks the raw fields of a sample the importer reads: the
// id (inspect_ai: int or str), the input and messages' content (str or a
// list of parts), and the Discrim-Eval metadata (any value in inspect_ai,
// but a number or a string in a dataset row).
func bareInSample(where string, first int, s, again *sample) error {
	fields := map[string][2][]byte{
		"id":     {s.ID, again.ID},
		"input":  {s.Input, again.Input},
		"target": {s.Target, again.Target},
	}
	for i := range min(len(s.Messages), len(again.Messages)) {
		fields[fmt.Sprintf("messages[%d].content", i)] = [2][]byte{s.Messages[i].Content, again.Messages[i].Content}
	}
	field := bareIn(fields)
	if field != "" {
		return fileerr.New(where, first, "%s is a bare NaN or Infinity, which inspect_ai does not read there (it wants %s)", field, map[bool]string{true: "an integer or a string", false: "a string or a list"}[field == "id"])
	}
	meta := map[string][2][]byte{}
	for _, k := range rowFields {
		meta["metadata."+k] = [2][]byte{s.Metadata[k], again.Metadata[k]}
	}
	if field := bareIn(meta); field != "" {
		return fileerr.New(where, first, "%s is a bare %s: not a Discrim-Eval dataset value", field, strings.Trim(string(s.Metadata[strings.TrimPrefix(field, "metadata.")]), `"`))
	}
	return nil
}

// decodeUTF8 is decode for JSON the stream already sanitized.
func decodeUTF8(where string, first int, clean []byte, rewrites []int, v any) error {
	if i := importer.InvalidUTF8(clean); i >= 0 {
		return fileerr.New(where, first+importer.LineAt(clean, int64(i))-1, "invalid UTF-8")
	}
	return decodeClean(where, first, clean, rewrites, v)
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
	san := importer.NewRecordingSanitizer(src)
	js, err := importer.OpenJSONObject(path, san, "an Inspect log")
	if err != nil {
		return hdr, "", err
	}
	samples := 0
	for js.Dec.More() {
		key, err := js.Token()
		if err != nil {
			return hdr, "", err
		}
		if key != "samples" {
			raw, start, end, err := js.Value()
			if err != nil {
				return hdr, "", err
			}
			rewrites := san.Rewrites(end-int64(len(raw)), end)
			if k, _ := key.(string); headerKeys[k] {
				prefix := `{"` + k + `":`
				obj := append(append([]byte(prefix), raw...), '}')
				for i := range rewrites {
					rewrites[i] += len(prefix)
				}
				if err := decodeUTF8(path, start, obj, rewrites, &hdr); err != nil {
					return hdr, "", err
				}
			}
			continue
		}
		t, err := js.Token()
		if err != nil {
			return hdr, "", err
		}
		if t != json.Delim('[') {
			continue // "samples": null
		}
		for js.Dec.More() {
			raw, start, end, err := js.Value()
			if err != nil {
				return hdr, "", err
			}
			if samples++; samples > importer.MaxSamples {
				return hdr, "", fileerr.New(path, js.Line(), "more than the limit of %d samples", importer.MaxSamples)
			}
			var s sample
			if err := decodeUTF8(path, start, raw, san.Rewrites(end-int64(len(raw)), end), &s); err != nil {
				return hdr, "", err
			}
			if err := add(importer.Position{Path: path, Line: start, Label: s.label(), ID: s.id(), Epoch: s.Epoch}, &s); err != nil {
				return hdr, "", err
			}
		}
		if _, err := js.Token(); err != nil {
			return hdr, "", err
		}
	}
	if _, err := js.Token(); err != nil {
		return hdr, "", err
	}
	if hdr.Eval.Task == "" && hdr.Eval.Model == "" {
		return hdr, "", fileerr.New(path, 1, "no \"eval\" header with a task and model: not an Inspect log")
	}
	sum, err := src.Sum()
	return hdr, sum, err
}

// headerKeys are the top-level keys of a .json log that header reads.
var headerKeys = map[string]bool{"version": true, "status": true, "eval": true, "plan": true, "results": true, "stats": true, "error": true}

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
