package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Python's json module writes the bare tokens NaN, Infinity and -Infinity,
// which encoding/json rejects. Sanitize rewrites them, outside strings, into
// the JSON strings "NaN", "Infinity" and "-Infinity"; Float decodes those
// back. It returns the offsets (in the output) of the rewritten strings so
// that Parse can tell a rewritten number from a string that really said
// "NaN". Line numbers are unchanged: no newline is added or removed.
func Sanitize(b []byte) (out []byte, rewrites []int) {
	// Fast path: nothing to rewrite in the common case.
	if !bytes.Contains(b, []byte("NaN")) && !bytes.Contains(b, []byte("Infinity")) {
		return b, nil
	}
	var s sanitizer
	s.record = true
	out = s.feed(make([]byte, 0, len(b)+16), b, true)
	return out, s.rewrites
}

// NewSanitizer is Sanitize for a stream: it reads Python's JSON from r and
// yields JSON, holding back at most the few bytes of a token that a read
// cut in two.
func NewSanitizer(r io.Reader) io.Reader { return &sanitizingReader{r: r} }

// RecordingSanitizer is NewSanitizer that also keeps the offsets (in its
// output) of the strings it rewrote, until Rewrites takes them.
type RecordingSanitizer struct{ sanitizingReader }

// NewRecordingSanitizer returns a RecordingSanitizer reading from r.
func NewRecordingSanitizer(r io.Reader) *RecordingSanitizer {
	z := &RecordingSanitizer{sanitizingReader{r: r}}
	z.s.record = true
	return z
}

// Rewrites returns the rewritten strings' offsets in [start, end) of the
// output, relative to start, and forgets every offset before end.
func (z *RecordingSanitizer) Rewrites(start, end int64) []int {
	var out []int
	keep := z.s.rewrites[:0]
	for _, o := range z.s.rewrites {
		switch {
		case int64(o) >= end:
			keep = append(keep, o)
		case int64(o) >= start:
			out = append(out, o-int(start))
		}
	}
	z.s.rewrites = keep
	return out
}

// Numbered replaces each string Sanitize rewrote (at rewrites, its output
// offsets) with a number of the same length, 1e999 or -1e999 padded with
// spaces: a value of a numeric type, not a string, for a second decoding
// that finds a bare NaN or Infinity where a string or an integer belongs.
// Python reads 1e999 as infinity.
func Numbered(clean []byte, rewrites []int) []byte {
	out := bytes.Clone(clean)
	for _, o := range rewrites {
		end := o + 1 + bytes.IndexByte(out[o+1:], '"') + 1
		num := "1e999"
		if out[o+1] == '-' {
			num = "-1e999"
		}
		copy(out[o:end], num+strings.Repeat(" ", end-o-len(num)))
	}
	return out
}

type sanitizingReader struct {
	r    io.Reader
	s    sanitizer
	in   []byte // read but not yet decided: a possible token prefix
	out  []byte // ready to be returned
	buf  [32 << 10]byte
	err  error
	done bool
}

func (z *sanitizingReader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		if z.done {
			return 0, z.err
		}
		n, err := z.r.Read(z.buf[:])
		z.in = append(z.in, z.buf[:n]...)
		if err != nil {
			z.done, z.err = true, err
		}
		rest := z.s.feed(z.out[:0], z.in, z.done)
		z.out = rest
		z.in = append(z.in[:0], z.s.pending...)
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

// sanitizer is the state of Sanitize across calls of feed.
type sanitizer struct {
	inStr, esc bool
	record     bool
	rewrites   []int
	written    int    // bytes output so far, for rewrites
	pending    []byte // unfinished token prefix at the end of the last feed
}

var pyTokens = []string{"NaN", "Infinity", "-Infinity"}

// feed appends the sanitized form of b to out. Unless final, a tail of b
// that may begin a token is kept in s.pending instead.
func (s *sanitizer) feed(out, b []byte, final bool) []byte {
	s.pending = s.pending[:0]
	start := len(out)
	defer func() { s.written += len(out) - start }()
	for i := 0; i < len(b); i++ {
		c := b[i]
		if s.inStr {
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
			}
			out = append(out, c)
			continue
		}
		if c == '"' {
			s.inStr = true
			out = append(out, c)
			continue
		}
		if c != 'N' && c != 'I' && c != '-' {
			out = append(out, c)
			continue
		}
		tok, partial := "", false
		for _, t := range pyTokens {
			if bytes.HasPrefix(b[i:], []byte(t)) {
				tok = t
				break
			}
			if !final && len(b)-i < len(t) && strings.HasPrefix(t, string(b[i:])) {
				partial = true
			}
		}
		if tok == "" && partial {
			s.pending = append(s.pending, b[i:]...)
			return out
		}
		if tok == "" {
			out = append(out, c)
			continue
		}
		if s.record {
			s.rewrites = append(s.rewrites, s.written+len(out)-start)
		}
		out = append(out, '"')
		out = append(out, tok...)
		out = append(out, '"')
		i += len(tok) - 1
	}
	return out
}

// Float is a float64 that also decodes Python's non-finite numbers: the
// sanitized tokens "NaN", "Infinity", "-Infinity", and the strings str(float)
// gives ("nan", "inf", "-inf"). lm-evaluation-harness writes log-likelihoods
// as strings ("-0.51"), which Float accepts as well.
type Float float64

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := ParseFloat(s)
	if err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// ParseFloat parses a decimal number or one of Python's spellings of the
// non-finite values.
func ParseFloat(s string) (float64, error) {
	switch strings.TrimSpace(s) {
	case "NaN", "nan":
		return math.NaN(), nil
	case "Infinity", "inf":
		return math.Inf(1), nil
	case "-Infinity", "-inf":
		return math.Inf(-1), nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		// Out of range is not an error: Python's float() reads 1e999 as
		// infinity and 1e-999 as zero, as strconv rounds them.
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// LineAt returns the 1-based line of byte offset off in b.
func LineAt(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte("\n")) + 1
}

// DecodeErr describes a JSON decoding error of data briefly, with the line
// where it happened (relative to data) when the error carries an offset.
func DecodeErr(data []byte, err error) (line int, msg string) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return LineAt(data, int64(len(data))), "truncated JSON (the file or line ends in the middle of a value)"
	case errors.As(err, &se):
		if se.Offset >= int64(len(bytes.TrimRight(data, " \t\r\n"))) {
			return LineAt(data, se.Offset), "truncated JSON (the file or line ends in the middle of a value)"
		}
		return LineAt(data, se.Offset), se.Error()
	case errors.As(err, &te):
		return LineAt(data, te.Offset), fmt.Sprintf("%s: got JSON %s, want %s", te.Field, te.Value, te.Type)
	}
	return 1, err.Error()
}

// Value is a JSON value that keeps what Python's json.dumps needs to write
// it again byte for byte: object key order, and numbers as written (Python
// tells int from float by the presence of '.', 'e' or 'E').
type Value struct {
	Kind  Kind
	Str   string  // String
	Num   string  // Number: the literal as written
	Bool  bool    // Bool
	Float float64 // NonFinite
	Keys  []string
	Elems []Value // Array elements, or object values (parallel to Keys)
}

// Kind is the type of a Value.
type Kind uint8

// Kinds of Value.
const (
	Null Kind = iota
	Bool
	Number
	NonFinite
	String
	Array
	Object
)

// Get returns the member key of an object, or nil.
func (v *Value) Get(key string) *Value {
	for i, k := range v.Keys {
		if k == key {
			return &v.Elems[i]
		}
	}
	return nil
}

// Parse decodes one JSON value from sanitized data (see Sanitize), keeping
// key order and number literals.
func Parse(data []byte, rewrites []int) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	rw := make(map[int64]bool, len(rewrites))
	for _, o := range rewrites {
		rw[int64(o)] = true
	}
	v, err := parseValue(dec, rw)
	if err != nil {
		return v, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, rw map[int64]bool) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return Value{Kind: Null}, nil
	case bool:
		return Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return Value{Kind: Number, Num: t.String()}, nil
	case string:
		// A rewritten token is the plain string, so its start is end-len-2.
		if start := dec.InputOffset() - int64(len(t)) - 2; rw[start] {
			f, _ := ParseFloat(t)
			return Value{Kind: NonFinite, Float: f}, nil
		}
		return Value{Kind: String, Str: t}, nil
	case json.Delim:
		v := Value{Kind: Array}
		if t == '{' {
			v.Kind = Object
		}
		for dec.More() {
			if v.Kind == Object {
				k, err := dec.Token()
				if err != nil {
					return v, err
				}
				v.Keys = append(v.Keys, k.(string))
			}
			e, err := parseValue(dec, rw)
			if err != nil {
				return v, err
			}
			v.Elems = append(v.Elems, e)
		}
		if _, err := dec.Token(); err != nil { // closing delimiter
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return v, err
		}
		return v, nil
	}
	return Value{}, fmt.Errorf("unexpected token %v", tok)
}

// Compact is the indent that makes PyDumps write like json.dumps with
// indent=None: one line, separators ", " and ": ".
const Compact = -1

// PyDumps writes v as Python's json.dumps(v, indent=indent,
// ensure_ascii=False) does: with an indent, separators "," and ": " and
// nested levels on their own lines; empty containers as [] and {}; floats in
// repr form; non-ASCII kept and control characters escaped.
func PyDumps(v Value, indent int) []byte {
	var b []byte
	return pyDump(b, v, indent, 0)
}

func pyDump(b []byte, v Value, indent, depth int) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Number:
		if !strings.ContainsAny(v.Num, ".eE") {
			return append(b, v.Num...) // a Python int: written as is
		}
		f, err := strconv.ParseFloat(v.Num, 64)
		if err != nil {
			return append(b, v.Num...)
		}
		return append(b, PyFloatRepr(f)...)
	case NonFinite:
		return append(b, PyFloatRepr(v.Float)...)
	case String:
		return pyString(b, v.Str)
	}
	open, close := byte('['), byte(']')
	if v.Kind == Object {
		open, close = '{', '}'
	}
	if len(v.Elems) == 0 {
		return append(b, open, close)
	}
	b = append(b, open)
	for i, e := range v.Elems {
		switch {
		case indent == Compact && i > 0:
			b = append(b, ", "...)
		case indent != Compact:
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '\n')
			b = append(b, strings.Repeat(" ", indent*(depth+1))...)
		}
		if v.Kind == Object {
			b = pyString(b, v.Keys[i])
			b = append(b, ": "...)
		}
		b = pyDump(b, e, indent, depth+1)
	}
	if indent != Compact {
		b = append(b, '\n')
		b = append(b, strings.Repeat(" ", indent*depth)...)
	}
	return append(b, close)
}

// pyString escapes as json.dumps with ensure_ascii=False: quote, backslash
// and the control characters below U+0020 only; \b \f \n \r \t get their
// short forms, the rest \u00XX in lower-case hex.
func pyString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// PyFloatRepr formats f as Python's repr(float) (and so json.dumps) does:
// the shortest digits that round-trip, in positional notation with at
// least one decimal ("20.0") when the exponent is in [-4, 16), else
// scientific with a signed two-digit exponent ("1e-05", "1.5e+16").
func PyFloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // e.g. -1.2345e+06
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}
