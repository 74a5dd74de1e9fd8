package sitedata

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// A run's own part and the rest, made apart (MarshalRunOwn of the whole
// record, MarshalRunWith of its other fields only), join into
// MarshalRun's bytes; an own part that holds one of the other fields,
// or is cut short, is refused.
func TestRunParts(t *testing.T) {
	whole := Run{ID: "x", Variant: "explicit", Scoring: "logprob", Scored: true, Complete: true,
		Views:     map[string]Estimate{"age": {Estimate: 0.25}},
		Questions: []Question{{ID: 2, Rows: 135, Coefficients: map[string]Num{"age": -0.1}}, {ID: 7, Rows: 100, MeanLogit: Num(math.NaN())}},
		Ranking:   Ranking{Board: "explicit-logprob", Ranked: true, Rank: map[string]int{"composite": 3}, RankSet: map[string][2]int{"composite": {1, 5}}},
		DefRank:   map[string]int{"mean": 2}, CoefPHolm: map[string]Num{"age": 0.01},
		VariantDiff: &VariantDifference{Explicit: "x", Implicit: "y"}, Files: []File{{Path: "x/manifest.yaml", SHA256: "00", Size: 3}},
		Replicates: "data/replicates/x.csv", Quality: Quality{Rows: 9450}}
	want, err := MarshalRun(whole)
	if err != nil {
		t.Fatal(err)
	}
	own, err := MarshalRunOwn(whole)
	if err != nil {
		t.Fatal(err)
	}
	others := Run{ID: "x", Ranking: whole.Ranking, DefRank: whole.DefRank, CoefPHolm: whole.CoefPHolm,
		VariantDiff: whole.VariantDiff, Files: whole.Files, Replicates: whole.Replicates}
	got, err := MarshalRunWith(own, others)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("joined:\n%s\nwhole:\n%s", got, want)
	}
	order := runKeyOrder()
	for k := range RunOthersKeys {
		if _, ok := order[k]; !ok {
			t.Errorf("RunOthersKeys: %q is no field of Run", k)
		}
	}
	withRank := binary.AppendUvarint(bytes.Clone(own), 4)
	withRank = append(withRank, "rank"...)
	withRank = binary.AppendUvarint(withRank, 3)
	withRank = append(withRank, `:{}`...)
	for name, bad := range map[string][]byte{"an other field": withRank, "cut short": own[:len(own)-1], "a field twice": append(bytes.Clone(own), own...)} {
		if _, err := MarshalRunWith(bad, others); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
