package run

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// agree checks the fast row decoder against decodeStrict (JSON v2 through
// reflection, the decoder of record) on one line: whatever the fast path
// accepts, decodeStrict accepts with the same values, to the bit. It
// returns whether the fast path read the line.
func agree(t *testing.T, d *rowDecoder, line []byte) bool {
	t.Helper()
	if !utf8.Valid(line) {
		return false // EachRow refuses the line before decoding it
	}
	fast := d.decode(line)
	var slow Row
	serr := decodeStrict(line, &slow)
	if fast == nil {
		return false
	}
	if serr != nil {
		t.Fatalf("%q: the fast path accepts a line decodeStrict refuses (%v): %+v", line, serr, *fast)
	}
	if !sameRow(*fast, slow) {
		t.Fatalf("%q:\nfast %#v\nslow %#v", line, *fast, slow)
	}
	return true
}

// sameRow is reflect.DeepEqual with floats compared by their bits (−0 is
// not 0) and nil lists told from empty ones.
func sameRow(a, b Row) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	if (a.Age == nil) != (b.Age == nil) || a.Age != nil && math.Float64bits(*a.Age) != math.Float64bits(*b.Age) {
		return false
	}
	for k, v := range a.Logprobs {
		if math.Float64bits(v) != math.Float64bits(b.Logprobs[k]) {
			return false
		}
	}
	return (a.Messages == nil) == (b.Messages == nil) && (a.Bounded == nil) == (b.Bounded == nil) &&
		(a.Decisions == nil) == (b.Decisions == nil) && (a.Logprobs == nil) == (b.Logprobs == nil)
}

// trickyRows are lines at the edges of what the fast path reads, each
// either read by it with decodeStrict's values or left to decodeStrict.
var trickyRows = []string{
	`{}`,
	` {"age": 20} `,
	"\t{\r\n\"age\"\t:\n20\r}\n",
	`{"age": -0}`,
	`{"age": -0.0e-0}`,
	`{"age": 1E+2}`,
	`{"age": 1e400}`,
	`{"age": -1e-400}`,
	`{"age": 01}`,
	`{"age": 1.}`,
	`{"age": .5}`,
	`{"age": +1}`,
	`{"age": 1e}`,
	`{"age": -}`,
	`{"age": NaN}`,
	`{"age": Infinity}`,
	`{"age": null}`,
	`{"age": "20"}`,
	`{"age": 20, "age": 30}`,
	`{"Age": 20}`,
	`{"ag\u0065": 20}`,
	`{"decision_question_id": 0}`,
	`{"decision_question_id": -0}`,
	`{"decision_question_id": -7}`,
	`{"decision_question_id": 1.0}`,
	`{"decision_question_id": 1e2}`,
	`{"decision_question_id": 999999999999999999}`,
	`{"decision_question_id": 9223372036854775807}`,
	`{"decision_question_id": 9223372036854775808}`,
	`{"decision_question_id": 1e40}`,
	`{"decision_question_id": null}`,
	`{"gender": "female", "race": "Black", "fill_type": "explicit"}`,
	`{"gender": null}`,
	`{"gender": 1}`,
	`{"gender": "a\"b\\c\/d\b\f\n\r\t"}`,
	`{"gender": "\u00e9\u0000\u001F\uFFFF"}`,
	`{"gender": "\ud83d\ude00"}`,
	`{"gender": "\ud83d"}`,
	`{"gender": "\ude00x"}`,
	`{"gender": "\u00g0"}`,
	`{"gender": "\x"}`,
	"{\"gender\": \"tab\there\"}",
	`{"gender": "é ✓ 😀"}`,
	`{"gender": "unterminated}`,
	`{"filled_template": "a long text with \"quotes\" and a newline\n"}`,
	`{"prompt": "", "response": ""}`,
	`{"logprobs": {}}`,
	`{"logprobs": null}`,
	`{"logprobs": {"yes": null, "no": -1.5}}`,
	`{"logprobs": {"yes": -1, "yes": -2}}`,
	`{"logprobs": {"yes": -1,}}`,
	`{"logprobs": {"yes": -1e999}}`,
	`{"logprobs": {"yes": 1.7976931348623157e308}}`,
	`{"logprobs": {"yes": "x"}}`,
	`{"logprobs": {"y\u0065s": -1}}`,
	`{"logprobs": {"": -1}}`,
	`{"logprobs": {"yes": nul}}`,
	`{"logprobs": {"yes": nullx}}`,
	`{"logprobs": {"yes" -1}}`,
	`{"logprobs": [1]}`,
	`{"bounded": []}`,
	`{"bounded": ["yes", "no"]}`,
	`{"bounded": ["yes",]}`,
	`{"bounded": [null]}`,
	`{"bounded": null}`,
	`{"decisions": ["Yes", "no", "Yes."]}`,
	`{"decisions": "Yes"}`,
	`{"messages": []}`,
	`{"messages": [{}]}`,
	`{"messages": [{"role": "user", "content": "hi"}, {"content": "yes", "role": "assistant"}]}`,
	`{"messages": [{"role": "user", "role": "user"}]}`,
	`{"messages": [{"role": "user", "extra": 1}]}`,
	`{"messages": [{"role": "user"},]}`,
	`{"messages": [null]}`,
	`{"messages": null}`,
	`{"messages": {}}`,
	`{"unknown": 1}`,
	`{"age": 20,}`,
	`{"age": 20} x`,
	`{"age": 20}{}`,
	`{"age" 20}`,
	`{age: 20}`,
	`{"age": 20`,
	`{`,
	`[]`,
	`null`,
	`"row"`,
	``,
	`{"response": "a", "response": "b"}`,
}

// TestRowDecoderAgrees: on the seed lines (real dataset rows, frozen scored
// rows) and the edge cases above, the fast path agrees with decodeStrict,
// and it reads every real and frozen row (else it would be no faster).
func TestRowDecoderAgrees(t *testing.T) {
	var d rowDecoder
	for _, l := range seedLines(t) {
		if !agree(t, &d, l) {
			t.Errorf("the fast path does not read a real row: %.200q", l)
		}
	}
	read := 0
	for _, l := range trickyRows {
		if agree(t, &d, []byte(l)) {
			read++
		}
	}
	// Some of the edge cases are read by the fast path, not all left to
	// decodeStrict (the test would then say nothing of the fast path).
	if read < 20 || read > len(trickyRows)-20 {
		t.Errorf("the fast path reads %d of %d edge cases", read, len(trickyRows))
	}
}

// TestEachRowSameErrors: a file whose every line is one edge case gives
// EachRow's error (path:line: message) or rows as decodeStrict alone
// would: the same error at the same line, or the same rows.
func TestEachRowSameErrors(t *testing.T) {
	for _, l := range trickyRows {
		data := []byte(`{"age": 20}` + "\n" + l + "\n")
		got, gerr := readRowsFS(data)
		want, werr := readRowsStrict(data)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("%s:\n got %v\nwant %v", l, gerr, werr)
			continue
		}
		if gerr != nil {
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d rows, want %d", l, len(got), len(want))
			continue
		}
		for i := range got {
			if !sameRow(got[i], want[i]) {
				t.Errorf("%s: row %d is %+v, want %+v", l, i+1, got[i], want[i])
			}
		}
	}
}

func mapFile(data []byte) fstest.MapFS { return fstest.MapFS{"s.jsonl": {Data: data}} }

func errorAt(name string, line int, err error) error { return fileerr.New(name, line, "%v", err) }

// readRowsFS reads data as a scored file through EachRow, keeping clones.
func readRowsFS(data []byte) ([]Row, error) {
	var rows []Row
	_, _, _, err := EachRow(mapFile(data), "s.jsonl", "runs/x/s.jsonl", func(_ int, r *Row) error {
		rows = append(rows, r.Clone())
		return nil
	})
	return rows, err
}

// readRowsStrict is EachRow with decodeStrict for every line, as before the
// fast path, for lines without the reader's other checks (no empty lines,
// valid UTF-8).
func readRowsStrict(data []byte) ([]Row, error) {
	var rows []Row
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 || !utf8.Valid(l) {
			return readRowsFS(data) // the reader's own checks, not the decoder's
		}
		var r Row
		if err := decodeStrict(l, &r); err != nil {
			return nil, errorAt("runs/x/s.jsonl", i+1, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// FuzzRowDecoderAgrees: on any line, what the fast path reads decodeStrict
// reads with the same values. Several lines through one decoder check that
// nothing of one row leaks into the next.
func FuzzRowDecoderAgrees(f *testing.F) {
	for _, l := range seedLines(f) {
		f.Add(l)
	}
	for _, l := range trickyRows {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d rowDecoder
		for _, l := range bytes.Split(data, []byte("\n")) {
			agree(t, &d, l)
		}
		if !strings.Contains(string(data), "\n") {
			agree(t, &d, data)
		}
	})
}

// TestNumberAt: numberAt ends a number where scanNumber does, reads it
// as strconv.ParseFloat does, to the bit, whenever it reads it at all,
// and reads most log-probabilities as a harness writes them (Python's
// repr: the shortest digits that round-trip); finiteNumber reads every
// number ParseFloat reads within range, with its value.
func TestNumberAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var nums []string
	for range 20000 {
		lp := -math.Exp(rng.NormFloat64()*3) * float64(rng.IntN(2)*2-1)
		nums = append(nums, strconv.FormatFloat(lp, 'g', -1, 64), strconv.FormatFloat(lp, 'f', -1, 64),
			strconv.FormatFloat(lp, 'e', rng.IntN(20), 64), strconv.FormatFloat(lp, 'f', rng.IntN(25), 64))
		// Digits and exponents of every size.
		digits := strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10)
		if k := rng.IntN(len(digits) + 1); k < len(digits) {
			digits = digits[:k] + "." + digits[k:]
			if k == 0 {
				digits = "0" + digits
			}
		}
		nums = append(nums, digits+"e"+strconv.Itoa(rng.IntN(60)-30), "-"+digits, digits+"E+"+strconv.Itoa(rng.IntN(30)))
	}
	nums = append(nums, "0", "-0", "0.0", "-0.0", "0e999", "-0e-999", "1e22", "1e23", "9007199254740991", "9007199254740992",
		"9007199254740993", "4503599627370495.5", "0.000000000000000000000001", "1234567890123456789", "12345678901234567890", "1e-22", "1e-23")
	nums = append(nums, "01", "1.", ".5", "-", "1e", "1e+", "-0e-0", "1E+2", "1e400", "-1e-400", "1.5x", "12345678901234567890123e-3")
	read := 0
	for _, s := range nums {
		b := []byte(s + ",")
		end, got, ok := numberAt(b, 0)
		if want, _ := scanNumber(b, 0); end != want {
			t.Errorf("%s: ends at %d, scanNumber at %d", s, end, want)
		}
		f, fend, fok := finiteNumber(b, 0)
		if end < 0 {
			if fok {
				t.Errorf("%s: finiteNumber reads %v", s, f)
			}
			continue
		}
		// The number scanned, as ParseFloat reads it.
		want, err := strconv.ParseFloat(s[:end], 64)
		if fok != (err == nil && !math.IsInf(want, 0)) || fok && (fend != end || math.Float64bits(f) != math.Float64bits(want)) {
			t.Errorf("%s: finiteNumber %v %d %v, ParseFloat of %s %v %v", s, f, fend, fok, s[:end], want, err)
		}
		if !ok {
			continue
		}
		read++
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: %v (%x), ParseFloat %v (%x, %v)", s, got, math.Float64bits(got), want, math.Float64bits(want), err)
		}
	}
	if read < len(nums)/4 {
		t.Errorf("read %d of %d numbers", read, len(nums))
	}
}

// TestMayEndString: a word of eight bytes, one of them any byte and the
// others a letter, may end a string exactly when that byte is a quote, a
// backslash or a control character; and strings of every length around a
// word's eight bytes, with such a byte anywhere, are read as decodeStrict
// reads them.
func TestMayEndString(t *testing.T) {
	for p := range 8 {
		for v := range 256 {
			w := []byte("aaaaaaaa")
			w[p] = byte(v)
			want := v == '"' || v == '\\' || v < 0x20
			if got := mayEndString(binary.LittleEndian.Uint64(w)); got != want {
				t.Errorf("byte %#x at %d: %v, want %v", v, p, got, want)
			}
		}
	}
	var d rowDecoder
	for n := range 40 {
		for _, odd := range []string{"", `\"`, `\\`, `\n`, "\t", "é", "\u00e9"} {
			for at := 0; at <= n; at += 3 {
				text := strings.Repeat("x", at) + odd + strings.Repeat("y", n-at)
				agree(t, &d, []byte(`{"filled_template": "`+text+`", "gender": "female"}`))
			}
		}
	}
}
