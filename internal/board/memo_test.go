package board

import (
	"fmt"
	"math"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// memStore is score.PairMemo's slots in memory, counting what is stored.
type memStore struct {
	slots  map[string][]byte
	stores int
}

type memSlot struct {
	s   *memStore
	key string
}

func (m memSlot) Load() []byte      { return m.s.slots[m.key] }
func (m memSlot) Store(data []byte) { m.s.slots[m.key] = data; m.s.stores++ }

func (s *memStore) memos() Memos {
	return func(v run.Variant, m run.Scoring, family string) score.PairMemo {
		return memSlot{s, string(v) + " " + string(m) + " " + family}
	}
}

// TestBuildWithMemos: boards built with the rank sets' memos of an
// earlier build — of one run fewer (added at the top, in the middle, at
// the bottom of the board), of the same runs, of other runs, of a memo
// damaged — are the boards built without: every run's rank sets in
// every view and coefficient, every pair's difference and interval, and
// Ahead. Each family's memo is stored when its runs changed, and not when
// they did not.
func TestBuildWithMemos(t *testing.T) {
	var all []*Entry
	for i, size := range []float64{0.1, 0.12, 0.3, 0.31, 0.6, 1, 0.05, 0.45, 0.2} {
		all = append(all, scored(t, spec{id: fmt.Sprintf("r%d", i), model: fmt.Sprintf("M%d", i), variant: run.Explicit, size: size, seed: uint64(60 + i)}))
	}
	without := func(es []*Entry) []*Entry {
		bs, err := Build(es)
		if err != nil {
			t.Fatal(err)
		}
		return bs[0].Ranked[score.Composite]
	}
	same := func(name string, es []*Entry, memos Memos) {
		t.Helper()
		bs, err := BuildWith(es, memos)
		if err != nil {
			t.Fatal(err)
		}
		got := bs[0]
		wantB, err := Build(es)
		if err != nil {
			t.Fatal(err)
		}
		want := wantB[0]
		g, w := got.Ranked[score.Composite], want.Ranked[score.Composite]
		if len(g) != len(w) {
			t.Fatalf("%s: %d ranked, want %d", name, len(g), len(w))
		}
		for i := range g {
			if g[i].ID() != w[i].ID() || g[i].RankSet != w[i].RankSet || g[i].BoardSet != w[i].BoardSet || g[i].Ahead != w[i].Ahead ||
				g[i].CoefRankSet != w[i].CoefRankSet || g[i].CoefBoardSet != w[i].CoefBoardSet {
				t.Errorf("%s: %s: sets %v %v %v %v ahead %v, want %s: %v %v %v %v %v", name, g[i].ID(), g[i].RankSet, g[i].BoardSet, g[i].CoefRankSet, g[i].CoefBoardSet, g[i].Ahead,
					w[i].ID(), w[i].RankSet, w[i].BoardSet, w[i].CoefRankSet, w[i].CoefBoardSet, w[i].Ahead)
			}
		}
		for _, v := range score.Views {
			for i := range g {
				for j := range g {
					p, q := got.Pair(v, i, j), want.Pair(v, i, j)
					if math.Float64bits(p.SE) != math.Float64bits(q.SE) || p.Estimate != q.Estimate || p.CI95 != q.CI95 || p.Beyond != q.Beyond {
						t.Errorf("%s: %s pair %d,%d = %+v, want %+v", name, v.Title(), i, j, p, q)
					}
				}
			}
		}
	}
	families := len(score.Views) + int(design.NumCoefs)
	ranked := without(all)
	// The runs by their place on the full board.
	drop := func(id string) []*Entry {
		var out []*Entry
		for _, e := range all {
			if e.ID() != id {
				out = append(out, e)
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		id   string
	}{{"the best added", ranked[0].ID()}, {"one added in the middle", ranked[4].ID()}, {"the worst added", ranked[len(ranked)-1].ID()}} {
		s := &memStore{slots: map[string][]byte{}}
		same(c.name+" (first build)", drop(c.id), s.memos())
		if s.stores != families {
			t.Errorf("%s: %d memos stored by the first build, want %d", c.name, s.stores, families)
		}
		s.stores = 0
		same(c.name, all, s.memos())
		if s.stores != families {
			t.Errorf("%s: %d memos stored, want %d", c.name, s.stores, families)
		}
		s.stores = 0
		same(c.name+", then nothing changed", all, s.memos())
		if s.stores != 0 {
			t.Errorf("%s, nothing changed: %d memos stored, want none", c.name, s.stores)
		}
		// A run removed: the memo's first step cannot be used.
		same(c.name+", then one removed", drop(all[2].ID()), s.memos())
	}
	// A memo of other runs, and damaged memos.
	s := &memStore{slots: map[string][]byte{}}
	same("other runs", all[:5], s.memos())
	same("other runs, then these", all[3:], s.memos())
	for k, v := range s.slots {
		s.slots[k] = v[:len(v)-3]
	}
	same("memos cut short", all, s.memos())
	for k, v := range s.slots {
		v[len(v)-1] ^= 0x7f // an Arg out of range
		s.slots[k] = v
	}
	same("memos damaged", all, s.memos())
}
