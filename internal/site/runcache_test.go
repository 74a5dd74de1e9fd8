package site

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// TestPackedRecords: a cached run's packed prompts and differences read
// back as they were, and a record cut short is refused, not half read.
func TestPackedRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	infos := promptInfos{}
	for _, q := range []int{0, 7, 95} {
		for i, c := range design.Cells() {
			if i%7 != 3 { // a few prompts missing
				infos.set(design.Prompt{Q: q, Cell: c}, textInfo{hash: rng.Uint64(), transcript: rng.IntN(1 << 20)})
			}
		}
	}
	b, err := packPrompts(infos)
	if err != nil {
		t.Fatal(err)
	}
	got := promptInfos{}
	if !unpackPrompts(b, got) || !reflect.DeepEqual(got, infos) {
		t.Errorf("prompts: %d read back, differ from the %d packed", len(b)/promptRecord, 3*design.NumCells)
	}
	if unpackPrompts(b[:len(b)-1], promptInfos{}) {
		t.Error("prompts cut short: read")
	}
	if unpackPrompts(append(slices.Clone(b), b[:promptRecord]...), promptInfos{}) {
		t.Error("a prompt twice: read")
	}
	bad := slices.Clone(b[:promptRecord])
	bad[4] = byte(design.NumCells)
	if unpackPrompts(bad, promptInfos{}) {
		t.Error("a cell outside the design: read")
	}

	kept := map[int]*keptQuestion{}
	for _, q := range []int{3, 95} {
		k := new(keptQuestion)
		for i := range k.Digits {
			k.Digits[i] = int32(rng.Uint32())
			k.Codes[i] = cellCode(rng.UintN(4))
		}
		kept[q] = k
	}
	d := packDeltas(kept)
	if back := unpackDeltas(d); !reflect.DeepEqual(back, kept) {
		t.Error("differences read back differ")
	}
	if unpackDeltas(d[:len(d)-3]) != nil {
		t.Error("differences cut short: read")
	}
}

// TestPromptPageInputs: the prompt page's memo key changes with each thing
// the page shows — a prompt's text, the run it came from, a neighbour — and
// not otherwise.
func TestPromptPageInputs(t *testing.T) {
	mk := func(owner, text string) *datasetTexts {
		d := newDatasetTexts()
		texts := map[design.Prompt]string{}
		for i, c := range design.Cells() {
			texts[design.Prompt{Q: 3, Cell: c}] = fmt.Sprintf("Should the %d-th person get the loan?", i)
		}
		texts[design.Prompt{Q: 3, Cell: design.Baseline}] = text
		d.add(&run.Run{ID: owner, Manifest: &run.Manifest{Variant: run.Explicit}}, texts, promptInfos{})
		return d
	}
	qs := []int{1, 3, 5}
	base := promptPageInputs(mk("a", "Should she?"), run.Explicit, 3, qs, 1)
	if again := promptPageInputs(mk("a", "Should she?"), run.Explicit, 3, qs, 1); again != base {
		t.Error("the same inputs, another key")
	}
	for name, other := range map[string]string{
		"text":      promptPageInputs(mk("a", "Should he?"), run.Explicit, 3, qs, 1),
		"owner":     promptPageInputs(mk("b", "Should she?"), run.Explicit, 3, qs, 1),
		"neighbour": promptPageInputs(mk("a", "Should she?"), run.Explicit, 3, []int{1, 3, 6}, 1),
		"variant":   promptPageInputs(mk("a", "Should she?"), run.Implicit, 3, qs, 1),
	} {
		if other == base {
			t.Errorf("another %s, the same key", name)
		}
	}
}
