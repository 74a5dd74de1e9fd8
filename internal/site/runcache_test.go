package site

import (
	"fmt"
	"math"
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
		for i := range design.NumCells {
			d := int32(rng.Uint32()) // most beyond 16 bits
			if i%2 == 0 {
				d = int32(int16(d))
			}
			k.set(i, d, cellCode(rng.UintN(4)))
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

// TestKeptDigits: a kept variant's digits read back as set, in 16 bits or
// beyond them.
func TestKeptDigits(t *testing.T) {
	k := new(keptQuestion)
	ds := []int32{0, 1, -1, 32767, -32768, 32768, -32769, 1 << 24, math.MaxInt32, math.MinInt32, 12345}
	for i, d := range ds {
		k.set(i, d, cellCode(i))
	}
	k.set(len(ds), 70000, 1)
	k.set(len(ds), 7, 2) // set again, narrower
	for i, d := range ds {
		if c := k.cell(i, false); c.Digits != d || c.Code != cellCode(i) {
			t.Errorf("variant %d: %+v, want digits %d, code %d", i, c, d, i)
		}
	}
	if c := k.cell(len(ds), false); c.Digits != 7 || c.Code != 2 {
		t.Errorf("set twice: %+v, want the second", c)
	}
	if len(k.wide) != 5 {
		t.Errorf("%d variants kept wide, want the 5 beyond 16 bits", len(k.wide))
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
