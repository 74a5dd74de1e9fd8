package importer

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// The vectors were written by Python's json module (testdata/pydumps.py):
// PyDumps must reproduce json.dumps(indent=2, ensure_ascii=False) byte for
// byte from the compact form (and the compact form itself), including NaN
// tokens and strings saying "NaN".
func TestPyDumpsMatchesPython(t *testing.T) {
	f, err := os.Open("testdata/pydumps.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var vec struct{ Line, Indent2 string }
		if err := json.Unmarshal(sc.Bytes(), &vec); err != nil {
			t.Fatal(err)
		}
		clean, rw := Sanitize([]byte(vec.Line))
		v, err := Parse(clean, rw)
		if err != nil {
			t.Fatalf("vector %d: %v", n, err)
		}
		if got := string(PyDumps(v, 2)); got != vec.Indent2 {
			t.Errorf("vector %d:\n got %q\nwant %q", n, got, vec.Indent2)
		}
		if got := string(PyDumps(v, Compact)); got != vec.Line {
			t.Errorf("vector %d, compact:\n got %q\nwant %q", n, got, vec.Line)
		}
	}
	if n < 9 {
		t.Fatalf("only %d vectors", n)
	}
}

func TestPyFloatRepr(t *testing.T) {
	for f, want := range map[float64]string{
		20.0: "20.0", 100: "100.0", 0.1: "0.1", 1e-05: "1e-05", 0.0001: "0.0001",
		1e16: "1e+16", 1e15: "1000000000000000.0", 1.5e16: "1.5e+16", -2.5e-300: "-2.5e-300",
		math.Inf(-1): "-Infinity", 123.456: "123.456",
	} {
		if got := PyFloatRepr(f); got != want {
			t.Errorf("PyFloatRepr(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestFloatDecodesPythonSpellings(t *testing.T) {
	clean, _ := Sanitize([]byte(`[NaN, Infinity, -Infinity, "nan", "-inf", "-0.51", 2, "NaN in a string"]`))
	var xs []json.RawMessage
	if err := json.Unmarshal(clean, &xs); err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, x := range xs[:7] {
		var f Float
		if err := json.Unmarshal(x, &f); err != nil {
			t.Fatal(err)
		}
		got = append(got, float64(f))
	}
	if !math.IsNaN(got[0]) || !math.IsInf(got[1], 1) || !math.IsInf(got[2], -1) || !math.IsNaN(got[3]) ||
		!math.IsInf(got[4], -1) || got[5] != -0.51 || got[6] != 2 {
		t.Errorf("got %v", got)
	}
	if !strings.Contains(string(clean), `"NaN in a string"`) {
		t.Errorf("a string was rewritten: %s", clean)
	}
	var f Float
	if err := json.Unmarshal([]byte(`"abc"`), &f); err == nil {
		t.Error("no error for a non-number")
	}
}
