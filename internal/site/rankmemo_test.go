package site

import (
	"encoding/binary"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
)

// TestRankMemosKept: a build with the cache keeps every ranking board's
// rank sets' pairwise work (rankMemos), one memo a view and a
// coefficient, of as many runs as the board ranks; a build with runs
// added finds the earlier build's and replaces it with one of the runs it
// ranks (the site it builds with them is the clean one:
// TestCacheNeverChangesTheSite).
func TestRankMemosKept(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	cfg := fixture(t)
	gen, err := generatorID(cfg.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	families := []string{}
	for _, v := range score.Views {
		families = append(families, v.Name())
	}
	for _, c := range design.Coefs {
		families = append(families, "coef-"+c.Name())
	}
	// runs is each family's memo's count of runs, by board and family.
	runs := func(what string, memos board.Memos) map[string]int {
		t.Helper()
		out := map[string]int{}
		for _, v := range board.Variants {
			for _, m := range board.Methods {
				for _, f := range families {
					data := memos(v, m, f).Load()
					if data == nil {
						continue
					}
					const magic = "rankpairs 2\n"
					if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
						t.Fatalf("%s: %s %s %s: not a memo", what, v, m, f)
					}
					out[string(v)+" "+string(m)+" "+f] = int(binary.LittleEndian.Uint32(data[len(magic):]))
				}
			}
		}
		return out
	}
	c, _ := warmCache(t)
	before := runs("cold build", rankMemos(c, gen))
	if len(before) == 0 || len(before)%len(families) != 0 {
		t.Fatalf("cold build: %d memos, want one for each of the %d families of each ranking board", len(before), len(families))
	}
	more, _ := fixturePlus(t)
	more.Cache = c
	generateMap(t, more)
	after := runs("runs added", rankMemos(c, gen))
	grew := 0
	for k, n := range before {
		switch m := after[k]; {
		case m < n:
			t.Errorf("runs added: %s: a memo of %d runs, want at least %d", k, m, n)
		case m > n:
			grew++
		}
	}
	if grew == 0 {
		t.Errorf("runs added: no memo holds more runs than the cold build's (%v, then %v)", before, after)
	}
}
