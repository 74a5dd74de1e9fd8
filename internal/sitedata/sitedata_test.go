package sitedata

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// MarshalRun writes the same JSON as Marshal, a field a line and the
// questions one a line.
func TestMarshalRun(t *testing.T) {
	for _, vd := range []*VariantDifference{nil, {Explicit: "a", Implicit: "b", Views: map[string]Diff{"age": {Estimate: 0.5, CI95: IntervalOf([2]float64{0, 1}), P: Num(math.NaN())}}}} {
		r := Run{ID: "x", Views: map[string]Estimate{"age": {Estimate: 0.25}}, VariantDiff: vd,
			Questions: []Question{{ID: 2, Rows: 135, Coefficients: map[string]Num{"age": -0.1}, Views: map[string][3]Num{"age": {0.2, 0, 0.4}}}, {ID: 7, Rows: 100, MeanLogit: Num(math.NaN())}},
			Files:     []File{{Path: "x/manifest.yaml", SHA256: "00", Size: 3}}}
		got, err := MarshalRun(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%v:\n%s", err, got)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("MarshalRun:\n%s\nMarshal:\n%s", got, want)
		}
		if n := bytes.Count(got, []byte("\n{\"id\":")); n != 2 {
			t.Errorf("%d questions on lines of their own, want 2:\n%s", n, got)
		}
		var back Run
		if err := json.Unmarshal(got, &back); err != nil || len(back.Questions) != 2 || back.Questions[0].Views["age"][2] != 0.4 {
			t.Errorf("read back: %v %+v", err, back.Questions)
		}
	}
}
