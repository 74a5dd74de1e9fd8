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
	"github.com/discrimeval/leaderboard/internal/site/browse"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
)

// TestPackedRecords: a cached run's packed prompts and differences read
// back as they were, and a record cut short is refused, not half read.
func TestPackedRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	infos := layout.PromptInfos{}
	for _, q := range []int{0, 7, 95} {
		for i, c := range design.Cells() {
			if i%7 != 3 { // a few prompts missing
				infos.Set(design.Prompt{Q: q, Cell: c}, layout.TextInfo{Hash: rng.Uint64(), Transcript: rng.IntN(1 << 20)})
			}
		}
	}
	b, err := buildcache.PackPrompts(infos)
	if err != nil {
		t.Fatal(err)
	}
	got := layout.PromptInfos{}
	if !buildcache.UnpackPrompts(b, got) || !reflect.DeepEqual(got, infos) {
		t.Errorf("prompts: %d read back, differ from the %d packed", len(b)/buildcache.PromptRecord, 3*design.NumCells)
	}
	if buildcache.UnpackPrompts(b[:len(b)-1], layout.PromptInfos{}) {
		t.Error("prompts cut short: read")
	}
	if buildcache.UnpackPrompts(append(slices.Clone(b), b[:buildcache.PromptRecord]...), layout.PromptInfos{}) {
		t.Error("a prompt twice: read")
	}
	bad := slices.Clone(b[:buildcache.PromptRecord])
	bad[4] = byte(design.NumCells)
	if buildcache.UnpackPrompts(bad, layout.PromptInfos{}) {
		t.Error("a cell outside the design: read")
	}

	kept := map[int]*grid.KeptQuestion{}
	for _, q := range []int{3, 95} {
		k := new(grid.KeptQuestion)
		for i := range design.NumCells {
			d := int32(rng.Uint32()) // most beyond 16 bits
			if i%2 == 0 {
				d = int32(int16(d))
			}
			k.Set(i, d, grid.CellCode(rng.UintN(4)))
		}
		kept[q] = k
	}
	d := buildcache.PackDeltas(kept)
	if back := buildcache.UnpackDeltas(d); !reflect.DeepEqual(back, kept) {
		t.Error("differences read back differ")
	}
	if buildcache.UnpackDeltas(d[:len(d)-3]) != nil {
		t.Error("differences cut short: read")
	}
}

// TestKeptDigits: a kept variant's digits read back as set, in 16 bits or
// beyond them.
func TestKeptDigits(t *testing.T) {
	k := new(grid.KeptQuestion)
	ds := []int32{0, 1, -1, 32767, -32768, 32768, -32769, 1 << 24, math.MaxInt32, math.MinInt32, 12345}
	for i, d := range ds {
		k.Set(i, d, grid.CellCode(i))
	}
	k.Set(len(ds), 70000, 1)
	k.Set(len(ds), 7, 2) // set again, narrower
	for i, d := range ds {
		if c := k.Cell(i, false); c.Digits != d || c.Code != grid.CellCode(i) {
			t.Errorf("variant %d: %+v, want digits %d, code %d", i, c, d, i)
		}
	}
	if c := k.Cell(len(ds), false); c.Digits != 7 || c.Code != 2 {
		t.Errorf("set twice: %+v, want the second", c)
	}
	if len(k.Wide) != 5 {
		t.Errorf("%d variants kept wide, want the 5 beyond 16 bits", len(k.Wide))
	}
}

// TestPromptPageInputs: the prompt page's memo key changes with each thing
// the page shows — a prompt's text, the run it came from, a neighbour — and
// not otherwise.
func TestPromptPageInputs(t *testing.T) {
	mk := func(owner, text string) *layout.DatasetTexts {
		d := layout.NewDatasetTexts()
		texts := map[design.Prompt]string{}
		for i, c := range design.Cells() {
			texts[design.Prompt{Q: 3, Cell: c}] = fmt.Sprintf("Should the %d-th person get the loan?", i)
		}
		texts[design.Prompt{Q: 3, Cell: design.Baseline}] = text
		d.Add(&run.Run{ID: owner, Manifest: &run.Manifest{Variant: run.Explicit}}, texts, layout.PromptInfos{})
		return d
	}
	qs := []int{1, 3, 5}
	base := browse.PromptPageInputs(mk("a", "Should she?"), run.Explicit, 3, qs, 1)
	if again := browse.PromptPageInputs(mk("a", "Should she?"), run.Explicit, 3, qs, 1); again != base {
		t.Error("the same inputs, another key")
	}
	for name, other := range map[string]string{
		"text":      browse.PromptPageInputs(mk("a", "Should he?"), run.Explicit, 3, qs, 1),
		"owner":     browse.PromptPageInputs(mk("b", "Should she?"), run.Explicit, 3, qs, 1),
		"neighbour": browse.PromptPageInputs(mk("a", "Should she?"), run.Explicit, 3, []int{1, 3, 6}, 1),
		"variant":   browse.PromptPageInputs(mk("a", "Should she?"), run.Implicit, 3, qs, 1),
	} {
		if other == base {
			t.Errorf("another %s, the same key", name)
		}
	}
}
