package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// rowDecoder reads the lines of a scored file without reflection, into
// buffers it reuses from row to row: the row itself, its logprobs map, its
// lists, and the short strings rows repeat (gender, race, fill_type, answer
// forms, roles, sampled answers), which are interned.
//
// It reads the rows that real files hold: an object of the known fields,
// each at most once, with the types Row gives them. Anything else (an
// unknown or repeated name, a null where Row has no pointer, a number
// written as an integer field does not take, an escape in a name, a
// surrogate escape, trailing text, a syntax error) makes decode return
// nil, and the caller decodes the line with decodeStrict, which accepts
// it or says what is wrong, with today's messages. So the fast path never
// decides what is an error: it only accepts what decodeStrict accepts, with
// the same values (TestRowDecoderAgrees and FuzzRowDecoderAgrees hold it
// to that).
//
// The line must be valid UTF-8 (EachRow checks before decoding).
type rowDecoder struct {
	row Row
	lp  Logprobs
	// lpNames are the logprobs' names of an earlier row, in its order,
	// each once (rows repeat them): a row's name that is the same at the
	// same place, all before it the same too, is no repeat and needs no
	// lookup to intern. lpCur collects the row's own.
	lpNames, lpCur []string
	msgs           []Message
	bounded        []string
	decisions      []string
	scratch        []byte // unescaped string
	names          map[string]string
	// borrow makes the strings not interned (texts) the line's own bytes
	// where they have no escapes, valid until the next line is read,
	// instead of copies (LoadRowsBorrowed).
	borrow bool
}

// Field bits, for the names seen in an object.
const (
	fQuestion = 1 << iota
	fAge
	fGender
	fRace
	fFillType
	fFilledTemplate
	fPrompt
	fMessages
	fLogprobs
	fBounded
	fDecisions
	fResponse
)

// maxInterned bounds the interned strings of one decoder, so a file of
// distinct answers cannot grow it without end; past it strings are
// allocated as usual.
const (
	maxInterned    = 512
	maxInternBytes = 64
)

// decode reads line b into the decoder's row and returns it, valid until
// the next call; nil means the line is not one it reads (see rowDecoder).
func (d *rowDecoder) decode(b []byte) *Row {
	if d.lp == nil {
		d.lp = make(Logprobs, 4)
		d.names = make(map[string]string)
	}
	d.row = Row{}
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		var seen uint32
		for {
			name, j, ok := plainString(b, i)
			if !ok {
				return nil
			}
			i = skipWS(b, j)
			if i >= len(b) || b[i] != ':' {
				return nil
			}
			i = skipWS(b, i+1)
			f := rowField(name)
			if f == 0 || seen&f != 0 {
				return nil
			}
			seen |= f
			r := &d.row
			switch f {
			case fQuestion:
				q, j, ok := wholeNumber(b, i)
				if !ok {
					return nil
				}
				r.DecisionQuestionID, i = &q, j
			case fAge:
				a, j, ok := finiteNumber(b, i)
				if !ok {
					return nil
				}
				r.Age, i = &a, j
			case fGender:
				r.Gender, i, ok = d.str(b, i, true)
			case fRace:
				r.Race, i, ok = d.str(b, i, true)
			case fFillType:
				r.FillType, i, ok = d.str(b, i, true)
			case fFilledTemplate:
				r.FilledTemplate, i, ok = d.str(b, i, false)
			case fPrompt:
				r.Prompt, i, ok = d.str(b, i, false)
			case fResponse:
				r.Response, i, ok = d.str(b, i, false)
			case fMessages:
				r.Messages, i, ok = d.messages(b, i)
			case fLogprobs:
				r.Logprobs, i, ok = d.logprobs(b, i)
			case fBounded:
				d.bounded, i, ok = d.strings(b, i, d.bounded)
				r.Bounded = d.bounded
			case fDecisions:
				d.decisions, i, ok = d.strings(b, i, d.decisions)
				r.Decisions = d.decisions
			}
			if !ok {
				return nil
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return nil
			}
			if b[i] == '}' {
				i++
				break
			}
			if b[i] != ',' {
				return nil
			}
			i = skipWS(b, i+1)
		}
	}
	if skipWS(b, i) != len(b) {
		return nil
	}
	return &d.row
}

// rowField is the bit of a Row field's JSON name, 0 for any other name.
func rowField(name []byte) uint32 {
	switch string(name) { // no allocation: the compiler compares in place
	case "decision_question_id":
		return fQuestion
	case "age":
		return fAge
	case "gender":
		return fGender
	case "race":
		return fRace
	case "fill_type":
		return fFillType
	case "filled_template":
		return fFilledTemplate
	case "prompt":
		return fPrompt
	case "messages":
		return fMessages
	case "logprobs":
		return fLogprobs
	case "bounded":
		return fBounded
	case "decisions":
		return fDecisions
	case "response":
		return fResponse
	}
	return 0
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plainString reads a string without escapes at b[i], returning its bytes
// (a sub-slice of b) and the index after the closing quote.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// str reads a string value at b[i]; short ones are interned when intern is
// set.
func (d *rowDecoder) str(b []byte, i int, intern bool) (string, int, bool) {
	s, j, ok := d.rawString(b, i)
	if !ok {
		return "", 0, false
	}
	switch {
	case intern:
		return d.intern(s), j, true
	case d.borrow && len(s) > 0 && unsafe.SliceData(s) != unsafe.SliceData(d.scratch):
		// The line's bytes (an unescaped string is in scratch, which the
		// next string reuses).
		return unsafe.String(&s[0], len(s)), j, true
	}
	return string(s), j, true
}

func (d *rowDecoder) intern(s []byte) string {
	if v, ok := d.names[string(s)]; ok { // no allocation for the lookup
		return v
	}
	v := string(s)
	if len(d.names) < maxInterned && len(s) <= maxInternBytes {
		d.names[v] = v
	}
	return v
}

// rawString reads a string at b[i] and returns its unescaped bytes, a
// sub-slice of b or of the decoder's scratch buffer (valid until the next
// call), and the index after the closing quote. Surrogate escapes (\ud83d)
// are left to decodeStrict.
func (d *rowDecoder) rawString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	j := start
	// Eight bytes at a time while none is a quote, a backslash or a
	// control character (a text is a kilobyte of them), then a byte at a
	// time from the word that has one.
	for j+8 <= len(b) && !mayEndString(binary.LittleEndian.Uint64(b[j:])) {
		j += 8
	}
	for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 {
		j++
	}
	if j >= len(b) || b[j] < 0x20 {
		return nil, 0, false
	}
	if b[j] == '"' {
		return b[start:j], j + 1, true
	}
	out := append(d.scratch[:0], b[start:j]...)
	for j < len(b) {
		c := b[j]
		switch {
		case c == '"':
			d.scratch = out
			return out, j + 1, true
		case c < 0x20:
			return nil, 0, false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(b) {
			return nil, 0, false
		}
		switch b[j+1] {
		case '"', '\\', '/':
			out = append(out, b[j+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(b) {
				return nil, 0, false
			}
			var r rune
			for _, h := range b[j+2 : j+6] {
				switch {
				case '0' <= h && h <= '9':
					r = r<<4 | rune(h-'0')
				case 'a' <= h && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case 'A' <= h && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					return nil, 0, false
				}
			}
			if utf8.RuneLen(r) < 0 { // a surrogate
				return nil, 0, false
			}
			out = utf8.AppendRune(out, r)
			j += 6
			continue
		default:
			return nil, 0, false
		}
		j += 2
	}
	return nil, 0, false
}

// mayEndString reports whether one of w's eight bytes may be a quote, a
// backslash or a control character: never false when one is (the tests
// of a zero byte and of a byte under 0x20, from "Bit Twiddling Hacks",
// can be true after such a byte, never without one).
func mayEndString(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	return ((quote-ones)&^quote|(backslash-ones)&^backslash|(w-ones*0x20)&^w)&highs != 0
}

// scanNumber returns the end of the JSON number at b[i] (RFC 8259's grammar)
// and whether it is an integer (no fraction, no exponent); end is -1 when
// there is none.
func scanNumber(b []byte, i int) (end int, integer bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
	default:
		return -1, false
	}
	integer = true
	if j < len(b) && b[j] == '.' {
		integer = false
		j++
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == k {
			return -1, false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		integer = false
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == k {
			return -1, false
		}
	}
	return j, integer
}

// wholeNumber reads an integer of at most 18 digits (far past
// MaxQuestionID, well within int64).
func wholeNumber(b []byte, i int) (int, int, bool) {
	end, integer := scanNumber(b, i)
	if end < 0 || !integer {
		return 0, 0, false
	}
	digits := b[i:end]
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	if len(digits) > 18 {
		return 0, 0, false
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, end, true
}

// finiteNumber reads a number within float64's range.
func finiteNumber(b []byte, i int) (float64, int, bool) {
	end, f, exact := numberAt(b, i)
	switch {
	case end < 0:
		return 0, 0, false
	case exact:
		return f, end, true
	}
	// ParseFloat keeps no reference to its argument on success.
	f, err := strconv.ParseFloat(unsafe.String(&b[i], end-i), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, 0, false
	}
	return f, end, true
}

// numberAt scans the JSON number at b[i] as scanNumber does (end is -1
// when there is none) and, in the same pass, reads the commonest kind as
// strconv.ParseFloat does, to the bit (exact): at most 19 significant
// digits making an integer m below 2^53 (exact as a float64), times 10^e
// with |e| ≤ 22 (exact too), is one multiplication or division, correctly
// rounded as ParseFloat's result is (it takes the same path, for m below
// 2^52). Any other number is ParseFloat's to read.
func numberAt(b []byte, i int) (end int, f float64, exact bool) {
	j, neg := i, false
	if j < len(b) && b[j] == '-' {
		j, neg = j+1, true
	}
	var m uint64
	nd, e := 0, 0 // significant digits in m, and the power of ten
	exact = true
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		for ; j < len(b) && '0' <= b[j] && b[j] <= '9'; j++ {
			if nd == 19 {
				exact = false
				continue
			}
			m, nd = m*10+uint64(b[j]-'0'), nd+1
		}
	default:
		return -1, 0, false
	}
	if j < len(b) && b[j] == '.' {
		j++
		k := j
		for ; j < len(b) && '0' <= b[j] && b[j] <= '9'; j++ {
			switch c := b[j]; {
			case nd == 0 && c == '0': // a leading zero: no digit of m
				e--
			case nd == 19:
				exact = false
			default:
				m, nd, e = m*10+uint64(c-'0'), nd+1, e-1
			}
		}
		if j == k {
			return -1, 0, false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		eneg := false
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j, eneg = j+1, b[j] == '-'
		}
		k, x := j, 0
		for ; j < len(b) && '0' <= b[j] && b[j] <= '9'; j++ {
			if x < 1e4 {
				x = x*10 + int(b[j]-'0')
			}
		}
		if j == k {
			return -1, 0, false
		}
		if eneg {
			x = -x
		}
		e += x
	}
	if exact {
		f, exact = scaled(m, e, neg)
	}
	return j, f, exact
}

// scaled is ±m·10^e when one correctly rounded operation makes it.
func scaled(m uint64, e int, neg bool) (float64, bool) {
	var f float64
	switch {
	case m == 0:
	case m >= 1<<53 || e < -22 || e > 22:
		return 0, false
	case e < 0:
		f = float64(m) / pow10[-e]
	default:
		f = float64(m) * pow10[e]
	}
	if neg {
		f = -f
	}
	return f, true
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// logprobs reads the logprobs object into the decoder's map: a number or
// null (−∞) for each form, no form twice.
func (d *rowDecoder) logprobs(b []byte, i int) (Logprobs, int, bool) {
	if i >= len(b) || b[i] != '{' {
		return nil, 0, false
	}
	clear(d.lp)
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return d.lp, i + 1, true
	}
	same := true // the names so far are lpNames' first ones
	d.lpCur = d.lpCur[:0]
	for {
		name, j, ok := plainString(b, i)
		if !ok {
			return nil, 0, false
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return nil, 0, false
		}
		i = skipWS(b, i+1)
		var key string
		if k := len(d.lpCur); same && k < len(d.lpNames) && string(name) == d.lpNames[k] {
			key = d.lpNames[k]
		} else {
			same = false
			if _, dup := d.lp[string(name)]; dup {
				return nil, 0, false
			}
			key = d.intern(name)
		}
		d.lpCur = append(d.lpCur, key)
		var v float64
		if len(b)-i >= 4 && string(b[i:i+4]) == "null" {
			v, i = math.Inf(-1), i+4
		} else {
			v, i, ok = finiteNumber(b, i)
			if !ok {
				return nil, 0, false
			}
		}
		d.lp[key] = v
		i = skipWS(b, i)
		if i >= len(b) {
			return nil, 0, false
		}
		if b[i] == '}' {
			if !same {
				d.lpNames, d.lpCur = d.lpCur, d.lpNames
			}
			return d.lp, i + 1, true
		}
		if b[i] != ',' {
			return nil, 0, false
		}
		i = skipWS(b, i+1)
	}
}

// strings reads a list of strings into buf (interned: answer forms and
// sampled answers repeat).
func (d *rowDecoder) strings(b []byte, i int, buf []string) ([]string, int, bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	out := buf[:0]
	if out == nil {
		out = make([]string, 0, 4)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, i + 1, true
	}
	for {
		s, j, ok := d.str(b, i, true)
		if !ok {
			return nil, 0, false
		}
		out = append(out, s)
		i = skipWS(b, j)
		if i >= len(b) {
			return nil, 0, false
		}
		if b[i] == ']' {
			return out, i + 1, true
		}
		if b[i] != ',' {
			return nil, 0, false
		}
		i = skipWS(b, i+1)
	}
}

// messages reads a transcript: a list of objects with a role and a
// content, each at most once.
func (d *rowDecoder) messages(b []byte, i int) ([]Message, int, bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	out := d.msgs[:0]
	if out == nil {
		out = make([]Message, 0, 4)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		d.msgs = out
		return out, i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '{' {
			return nil, 0, false
		}
		var m Message
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == '}' {
			i++
		} else {
			var role, content bool
			for {
				name, j, ok := plainString(b, i)
				if !ok {
					return nil, 0, false
				}
				i = skipWS(b, j)
				if i >= len(b) || b[i] != ':' {
					return nil, 0, false
				}
				i = skipWS(b, i+1)
				switch string(name) {
				case "role":
					if role {
						return nil, 0, false
					}
					role = true
					m.Role, i, ok = d.str(b, i, true)
				case "content":
					if content {
						return nil, 0, false
					}
					content = true
					m.Content, i, ok = d.str(b, i, false)
				default:
					return nil, 0, false
				}
				if !ok {
					return nil, 0, false
				}
				i = skipWS(b, i)
				if i >= len(b) {
					return nil, 0, false
				}
				if b[i] == '}' {
					i++
					break
				}
				if b[i] != ',' {
					return nil, 0, false
				}
				i = skipWS(b, i+1)
			}
		}
		out = append(out, m)
		i = skipWS(b, i)
		if i >= len(b) {
			return nil, 0, false
		}
		if b[i] == ']' {
			d.msgs = out
			return out, i + 1, true
		}
		if b[i] != ',' {
			return nil, 0, false
		}
		i = skipWS(b, i+1)
	}
}
