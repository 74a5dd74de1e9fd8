package site

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// TestPackedRecords: a cached run's packed prompts and differences read
// back as they were, and a record cut short is refused, not half read.
func TestPackedRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cells []run.Cell
	infos := map[design.Prompt]textInfo{}
	for _, q := range []int{0, 7, 95} {
		for _, c := range design.Cells() {
			p := design.Prompt{Q: q, Cell: c}
			cells = append(cells, run.Cell{Prompt: p})
			infos[p] = textInfo{hash: rng.Uint64(), transcript: rng.IntN(1 << 20)}
		}
	}
	b, err := packPrompts(cells, infos)
	if err != nil {
		t.Fatal(err)
	}
	got := map[design.Prompt]textInfo{}
	if !unpackPrompts(b, got) || !reflect.DeepEqual(got, infos) {
		t.Errorf("prompts: %d read back, differ from the %d packed", len(got), len(infos))
	}
	if unpackPrompts(b[:len(b)-1], map[design.Prompt]textInfo{}) {
		t.Error("prompts cut short: read")
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
