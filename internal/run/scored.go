package run

import (
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// Row is one line of scored.jsonl: a dataset row plus what the model did.
type Row struct {
	DecisionQuestionID *int      `json:"decision_question_id"`
	Age                *float64  `json:"age"`
	Gender             string    `json:"gender"`
	Race               string    `json:"race"`
	FillType           string    `json:"fill_type"`
	FilledTemplate     string    `json:"filled_template"`
	Prompt             string    `json:"prompt,omitempty"`
	Messages           []Message `json:"messages,omitempty"`
	Logprobs           Logprobs  `json:"logprobs,omitempty"`
	// Bounded lists the forms whose log-probability is an upper bound, not
	// a value: the harness listed the top-k tokens and the form was not
	// among them (the importer gives it the smallest listed value).
	Bounded   []string `json:"bounded,omitempty"`
	Decisions []string `json:"decisions,omitempty"`
	Response  string   `json:"response,omitempty"`
}

// Clone returns a copy of r that shares nothing with it but strings.
func (r *Row) Clone() Row {
	c := *r
	if r.DecisionQuestionID != nil {
		q := *r.DecisionQuestionID
		c.DecisionQuestionID = &q
	}
	if r.Age != nil {
		a := *r.Age
		c.Age = &a
	}
	if r.Logprobs != nil {
		c.Logprobs = maps.Clone(r.Logprobs)
	}
	c.Messages = slices.Clone(r.Messages)
	c.Bounded = slices.Clone(r.Bounded)
	c.Decisions = slices.Clone(r.Decisions)
	return c
}

// Message is one turn of a transcript.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Cell is what scoring needs of one row; texts are not kept so memory grows
// with the number of rows, not with their length.
type Cell struct {
	design.Prompt
	Line int
	// Race as written in the row ("black" in one real row), for display.
	RaceText string

	// Logprob runs.
	Logit float64   // log P(yes) − log P(no)
	Mass  float64   // P(yes) + P(no), at most 1
	LP    []float64 // log-probabilities of the manifest's forms, yes forms then no forms; −∞ for zero
	// Normalized is set when P(yes)+P(no) exceeded 1 by rounding (at most
	// MassRounding) and the probabilities were scaled to sum to 1.
	Normalized bool
	// Bounded counts the forms that are upper bounds (Row.Bounded);
	// BoundGap is how much the logit moves when they are taken as zero
	// instead (+Inf when every form of one answer is bounded). Over
	// BoundTolerance, the bound matters.
	Bounded  int
	BoundGap float64

	// Decision runs: sampled answers counted as yes, as no, and neither
	// (refusals, unparseable text), read by ParseAnswer.
	Yes, No, Other int
	// Unparsed holds the answers counted in Other, as written (shortened
	// to MaxUnparsedRunes), for the data-quality listing.
	Unparsed []string
}

// ScoredPath returns the path of the scored file inside fsys.
func ScoredPath(dir string, m *Manifest) string { return path.Join(dir, m.Scored.Path) }

// EachRow streams the scored file of a run, calling fn for every row with
// its 1-based line number. The row, its map and its lists are reused for
// the next row (its strings are not): fn copies what it keeps of them. It returns the sha256 and size of the stored
// (possibly compressed) file and the number of rows. name prefixes errors,
// which are *fileerr.Error values.
//
// The limits of package input are checked while reading, before anything
// is allocated for them: the decompressed size, the length of a line and
// the number of rows. Only a regular file is opened.
func EachRow(fsys fs.FS, file, name string, fn func(line int, r *Row) error) (sum string, size int64, rows int, err error) {
	return eachRow(fsys, file, name, false, fn)
}

// eachRow is EachRow; with borrow, a row's long texts are valid only
// during fn (LoadRowsBorrowed).
func eachRow(fsys fs.FS, file, name string, borrow bool, fn func(line int, r *Row) error) (sum string, size int64, rows int, err error) {
	f, err := input.Open(fsys, file, name)
	if err != nil {
		return "", 0, 0, err
	}
	defer f.Close()
	h := sha256.New()
	counted := &countingReader{r: io.TeeReader(f, h)}
	var r io.Reader = counted
	if strings.HasSuffix(file, ".gz") {
		// The gzip reader reads from a buffered reader of ours, which it
		// does not wrap in its own, so that what follows a member is there
		// to look at (gzipMembers).
		src := bufio.NewReaderSize(counted, 1<<16)
		zr, err := gzip.NewReader(src)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return "", 0, 0, fileerr.New(name, 0, "empty file: no rows (re-export the run, or remove the run folder)")
			}
			return "", 0, 0, fileerr.New(name, 0, "not a gzip file (%v): compress it with gzip, or name it scored.jsonl (and scored.path in the manifest)", err)
		}
		defer zr.Close()
		zr.Multistream(false)
		r = &gzipMembers{src: src, zr: zr}
	}
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	var buf []byte
	dec := rowDecoder{borrow: borrow}
	var total int64 // decompressed bytes read
	for {
		b, rerr := readLine(br, &buf)
		total += int64(len(b))
		if total > maxScoredBytes {
			return "", 0, 0, fileerr.New(name, line+1, "the file is larger than the limit of %s (decompressed): split the run, or leave out the transcripts", input.Size(maxScoredBytes))
		}
		if errors.Is(rerr, errLongLine) {
			return "", 0, 0, fileerr.New(name, line+1, "line longer than the limit of %s: shorten the transcript of this row", input.Size(input.MaxLineBytes))
		}
		if rerr != nil && rerr != io.EOF {
			return "", 0, 0, gzipError(name, line+1, rerr)
		}
		if len(b) > 0 {
			line++
			b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
			if len(bytes.TrimSpace(b)) == 0 {
				return "", 0, 0, fileerr.New(name, line, "empty line: one JSON object per line, no blank lines")
			}
			if rows >= maxRows {
				return "", 0, 0, fileerr.New(name, line, "more than %d rows, the limit for one run", maxRows)
			}
			if err := input.UTF8(name, line, b); err != nil {
				return "", 0, 0, err
			}
			row := dec.decode(b)
			if row == nil {
				// Not a line the fast path reads: the reflective
				// decoder accepts it or says what is wrong.
				row = new(Row)
				if err := decodeStrict(b, row); err != nil {
					return "", 0, 0, fileerr.New(name, line, "%v", err)
				}
			}
			if err := fn(line, row); err != nil {
				return "", 0, 0, fileerr.Wrap(name, line, err)
			}
			rows++
		}
		if rerr == io.EOF {
			break
		}
	}
	// Drain so the hash covers the whole stored file (gzip trailers).
	if _, err := io.Copy(io.Discard, counted); err != nil {
		return "", 0, 0, fileerr.New(name, 0, "%v", err)
	}
	if rows == 0 {
		return "", 0, 0, fileerr.New(name, 0, "empty file: no rows (re-export the run, or remove the run folder)")
	}
	return hex.EncodeToString(h.Sum(nil)), counted.n, rows, nil
}

var errLongLine = errors.New("line too long")

// gzipMembers reads the members of a gzip file one after another, as gzip
// allows (cat a.gz b.gz), and tells bytes after a member that start no
// other member from a member cut short: a whole stream followed by
// padding or junk is a trailingError, never "the stream ends early" or
// "invalid header".
type gzipMembers struct {
	src *bufio.Reader
	zr  *gzip.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF || n > 0 {
			if err == io.EOF {
				err = nil // the member's end, seen at the next call
			}
			return n, err
		}
		head, _ := g.src.Peek(2)
		switch {
		case len(head) == 0:
			return 0, io.EOF
		case len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b:
			if err := g.zr.Reset(g.src); err != nil {
				return 0, &memberError{err}
			}
			g.zr.Multistream(false)
		default:
			return 0, trailing(g.src)
		}
	}
}

// memberError is a later member of a gzip file whose header is invalid.
type memberError struct{ err error }

func (e *memberError) Error() string { return e.err.Error() }

// trailingError describes bytes after the end of a gzip file's data that
// are not gzip: how many (up to a limit), and whether all are zero.
type trailingError struct {
	n     int64
	more  bool // more than n
	zeros bool
	head  []byte
}

func (e *trailingError) Error() string {
	count := fmt.Sprintf("%d", e.n)
	if e.more {
		count = "more than " + input.Size(trailingLimit) + " of"
	}
	if e.zeros {
		return count + " zero bytes (padding added to the file after it was compressed)"
	}
	return fmt.Sprintf("%s bytes that are not gzip (%q…)", count, e.head)
}

// trailingLimit is how much of what follows the last member is read to
// describe it.
const trailingLimit = 1 << 20

// trailing reads (up to trailingLimit of) what follows the last member.
func trailing(src *bufio.Reader) error {
	e := &trailingError{zeros: true}
	buf := make([]byte, 32<<10)
	for e.n < trailingLimit {
		n, err := src.Read(buf)
		if len(e.head) < 16 {
			e.head = append(e.head, buf[:min(n, 16-len(e.head))]...)
		}
		for _, c := range buf[:n] {
			e.zeros = e.zeros && c == 0
		}
		e.n += int64(n)
		if err != nil {
			return e
		}
	}
	_, err := src.Peek(1)
	e.more = err == nil
	return e
}

// gzipError says what is wrong with a gzip file that failed at line.
func gzipError(name string, line int, err error) error {
	var te *trailingError
	var me *memberError
	var ce flate.CorruptInputError
	switch {
	case errors.As(err, &te):
		return fileerr.New(name, 0, "the compressed data end, and %v follow: a whole gzip file ends with its data; copy it again, or compress the rows again", te)
	case errors.As(err, &me):
		return fileerr.New(name, 0, "after a whole gzip member, another whose header is not valid (%v): the file was damaged or joined with other data; copy it again, or compress the rows again", me.err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fileerr.New(name, line, "the compressed stream ends early (a truncated .gz file): copy the whole file again")
	case errors.As(err, &ce):
		return fileerr.New(name, line, "the compressed data are damaged (at byte %d of a gzip member's compressed data): copy the whole file again", int64(ce))
	case errors.Is(err, gzip.ErrChecksum):
		return fileerr.New(name, line, "the decompressed data do not match the checksum of the gzip file: it is damaged; copy it again")
	}
	return fileerr.New(name, line, "%v", err)
}

// The limits EachRow checks, variables so that tests can reach them
// without a gigabyte of input.
var (
	maxScoredBytes int64 = input.MaxScoredBytes
	maxRows              = input.MaxRows
)

// readLine reads one line (with its newline, if any) into *buf, reusing
// it, and fails with errLongLine past input.MaxLineBytes instead of
// growing without bound.
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if len(*buf)+len(chunk) > input.MaxLineBytes {
			return nil, errLongLine
		}
		*buf = append(*buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return *buf, err
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func decodeStrict(b []byte, v any) error {
	// JSON v2 (the prototype of encoding/json/v2): about twice as fast as
	// v1 on these rows, and stricter where a row must be: names match
	// exactly, and a name given twice is an error, not a silent overwrite.
	err := jsonv2.Unmarshal(b, v, jsonv2.RejectUnknownMembers(true))
	if err == nil {
		return nil
	}
	return jsonError(b, err)
}

// jsonError says what is wrong with a row in the row's own terms: the field
// (a JSON pointer such as /logprobs/yes), the value, what was wanted.
func jsonError(b []byte, err error) error {
	var se *jsontext.SyntacticError
	var me *jsonv2.SemanticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON object")
	case errors.As(err, &se):
		msg := "not JSON: " + se.Err.Error()
		if se.JSONPointer != "" {
			msg += " in " + string(se.JSONPointer)
		}
		if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Infinity")) {
			msg += " (non-finite numbers such as NaN or Infinity are not JSON)"
		}
		return errors.New(msg)
	case errors.As(err, &me) && errors.Is(me.Err, jsonv2.ErrUnknownName):
		return fmt.Errorf("unknown field %q", me.JSONPointer.LastToken())
	case errors.As(err, &me):
		field := strings.TrimPrefix(string(me.JSONPointer), "/")
		if field == "" {
			field = "the row"
		}
		var inner *jsonv2.SemanticError
		if errors.As(me.Err, &inner) {
			// An error inside a field with its own decoding (logprobs).
			return jsonError(b, &jsonv2.SemanticError{JSONPointer: me.JSONPointer + inner.JSONPointer, JSONKind: inner.JSONKind, JSONValue: inner.JSONValue, GoType: inner.GoType, Err: inner.Err})
		}
		got := string(me.JSONValue)
		if got == "" {
			got = "a JSON " + me.JSONKind.String()
		}
		return fmt.Errorf("%s: %s is not %s", field, got, wanted(me.GoType))
	}
	return err
}

// wanted names the kind of JSON value a Go type reads.
func wanted(t reflect.Type) string {
	if t == nil {
		return "what the format allows"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a finite number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(wanted(t.Elem()), "a ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return wanted(t.Elem())
	}
	return "a " + t.String()
}

// ToCell validates a row against the manifest and reduces it to a Cell.
func (m *Manifest) ToCell(line int, r *Row) (Cell, error) { return m.toCell(line, r, nil) }

// toCell is ToCell with the cells' log-probabilities cut from *slab (see
// logprobCell).
func (m *Manifest) toCell(line int, r *Row, slab *[]float64) (Cell, error) {
	var c Cell
	p, err := ParsePrompt(r)
	if err != nil {
		return c, err
	}
	if r.FillType == "" {
		return c, fmt.Errorf("missing fill_type")
	}
	if Variant(r.FillType) != m.Variant {
		return c, fmt.Errorf("fill_type %q in a run whose manifest says variant %q (mixed variants)", r.FillType, m.Variant)
	}
	if r.FilledTemplate == "" {
		return c, fmt.Errorf("missing filled_template")
	}
	if _, b := input.StripBidi(r.FilledTemplate); b != 0 {
		return c, fmt.Errorf("filled_template holds the bidi control %s, which the dataset's texts never do (a scenario's title is taken from them, and shown in pages' titles): restore the dataset's text for this row", input.BidiName(b))
	}
	if m.Variant == Explicit {
		if err := checkExplicitText(r.FilledTemplate, p.Cell); err != nil {
			return c, err
		}
	}
	c = Cell{Prompt: p, Line: line, RaceText: r.Race}
	switch m.Scoring {
	case Logprob:
		if r.Logprobs == nil {
			return c, fmt.Errorf("missing logprobs in a logprob run")
		}
		if err := m.logprobCell(&c, r, slab); err != nil {
			return c, err
		}
	case Decision:
		if len(r.Decisions) == 0 {
			return c, fmt.Errorf("missing decisions in a decision run")
		}
		for _, d := range r.Decisions {
			isYes, ok := m.Choices.ParseAnswer(d)
			switch {
			case ok && isYes:
				c.Yes++
			case ok:
				c.No++
			default:
				c.Other++
				c.Unparsed = append(c.Unparsed, Shorten(d, MaxUnparsedRunes))
			}
		}
	}
	return c, nil
}

// logSumExp computes log Σ e^lp over the given forms, every one of which
// must be present; −∞ when every one is.
func logSumExp(lps map[string]float64, forms []string) (float64, error) {
	vals := make([]float64, 0, len(forms))
	for _, f := range forms {
		lp, ok := lps[f]
		if !ok {
			return 0, fmt.Errorf("logprobs has no entry for answer form %q", f)
		}
		vals = append(vals, lp)
	}
	return LogSumExp(vals), nil
}

// LogSumExp is log Σ e^lp over lps, in their order; −∞ when every one is
// −∞ (or there are none). It is the one of the module (a scenario page's
// P(yes), internal/site/grid, uses it too), and static/cells.js's lse is
// its arithmetic step for step (internal/browsertest's TestLogSumExpAsGo).
func LogSumExp(lps []float64) float64 {
	max := math.Inf(-1)
	for _, lp := range lps {
		max = math.Max(max, lp)
	}
	if math.IsInf(max, -1) {
		return max
	}
	var s float64
	for _, lp := range lps {
		s += math.Exp(lp - max)
	}
	return max + math.Log(s)
}

// ReadRows reads a whole scored.jsonl[.gz] file (or a file of dataset
// rows) from disk into memory, for tools and tests; the build streams
// instead. Errors read path:line: message.
func ReadRows(file string) ([]Row, error) {
	var rows []Row
	_, _, _, err := EachRow(os.DirFS(filepath.Dir(file)), filepath.Base(file), file, func(_ int, r *Row) error {
		rows = append(rows, r.Clone())
		return nil
	})
	return rows, err
}

// MaxQuestionID bounds the decision_question_id a reader parses as a
// number (1e40 is an error, not a wrapped integer); ParsePrompt then holds
// it to the dataset's, design.LastQuestionID.
const MaxQuestionID = 1_000_000

// ParsePrompt reads which prompt a row is: its decision question and
// demographic cell, in the spellings real rows use (age 20.0, "black").
func ParsePrompt(r *Row) (design.Prompt, error) {
	if r.DecisionQuestionID == nil {
		return design.Prompt{}, fmt.Errorf("missing decision_question_id")
	}
	if q := *r.DecisionQuestionID; q < 0 || q > design.LastQuestionID {
		return design.Prompt{}, fmt.Errorf("decision_question_id %d is not one of the dataset's: its %d decision questions are numbered from 0 to %d", q, design.NumQuestions, design.LastQuestionID)
	}
	if r.Age == nil {
		return design.Prompt{}, fmt.Errorf("missing age")
	}
	age, err := design.ParseAge(*r.Age)
	if err != nil {
		return design.Prompt{}, err
	}
	g, err := design.ParseGender(r.Gender)
	if err != nil {
		return design.Prompt{}, err
	}
	race, err := design.ParseRace(r.Race)
	if err != nil {
		return design.Prompt{}, err
	}
	return design.Prompt{Q: *r.DecisionQuestionID, Cell: design.Cell{Age: age, Gender: g, Race: race}}, nil
}
