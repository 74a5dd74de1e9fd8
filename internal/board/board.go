// Package board assembles runs into leaderboards: one board per variant and
// scoring method, ranked in every view with tie-aware ranks.
package board

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// Entry is a scored run.
type Entry struct {
	Run    *run.Run
	Result *score.Result
	// Rank and Tied hold the run's competition rank in each view of its
	// board (0 when the run is not ranked).
	Rank [score.NumViews]int
	Tied [score.NumViews]bool
	// StatRank is 1 + the number of runs of the board better beyond doubt:
	// whose 95% interval lies wholly below this run's. Runs with StatRank 1
	// cannot be told apart from the best.
	StatRank [score.NumViews]int
}

// ID is the run id.
func (e *Entry) ID() string { return e.Run.ID }

// Board is the ranked runs of one variant and scoring method.
type Board struct {
	Variant string // run.Explicit or run.Implicit
	Method  string // run.Logprob or run.Decision
	// Ranked holds, per view, the scored entries in rank order (ties by run id).
	Ranked [score.NumViews][]*Entry
	// Unranked lists runs that could not be scored, by id.
	Unranked []*Entry
}

// Variants and Methods list boards in display order.
var (
	Variants = []string{run.Explicit, run.Implicit}
	Methods  = []string{run.Logprob, run.Decision}
)

// DisplayDecimals is the precision views are shown and ranked at.
const DisplayDecimals = 2

// Display formats a view's value as the site shows it; ranks are decided on
// this string so that two runs that look equal are tied.
func Display(v float64) string {
	s := strconv.FormatFloat(v, 'f', DisplayDecimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// Build groups entries into boards and ranks them. Entries are sorted by
// run id first so that the result never depends on input order.
func Build(entries []*Entry) []*Board {
	sorted := append([]*Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID() < sorted[j].ID() })
	var boards []*Board
	for _, variant := range Variants {
		for _, method := range Methods {
			b := &Board{Variant: variant, Method: method}
			var scored []*Entry
			for _, e := range sorted {
				m := e.Run.Manifest
				if m.Variant != variant || m.Scoring != method {
					continue
				}
				if e.Result.Scored {
					scored = append(scored, e)
				} else {
					b.Unranked = append(b.Unranked, e)
				}
			}
			if len(scored) == 0 && len(b.Unranked) == 0 {
				continue
			}
			for _, v := range score.Views {
				b.Ranked[v] = rankView(scored, v)
			}
			boards = append(boards, b)
		}
	}
	return boards
}

// rankView orders entries by displayed value then id, and assigns standard
// competition ranks (1, 2, 2, 4) on the displayed value.
func rankView(entries []*Entry, v score.View) []*Entry {
	out := append([]*Entry(nil), entries...)
	shown := make(map[*Entry]float64, len(out))
	for _, e := range out {
		f, _ := strconv.ParseFloat(Display(e.Result.Views[v].Estimate), 64)
		if math.IsNaN(e.Result.Views[v].Estimate) {
			f = math.Inf(1)
		}
		shown[e] = f
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := shown[out[i]], shown[out[j]]
		if a != b {
			return a < b
		}
		return out[i].ID() < out[j].ID()
	})
	for i, e := range out {
		if i > 0 && shown[out[i-1]] == shown[e] {
			e.Rank[v] = out[i-1].Rank[v]
			e.Tied[v] = true
			out[i-1].Tied[v] = true
		} else {
			e.Rank[v] = i + 1
		}
	}
	for _, e := range out {
		e.StatRank[v] = 1
		lo := e.Result.Views[v].CI95[0]
		for _, o := range out {
			if o != e && o.Result.Views[v].CI95[1] < lo {
				e.StatRank[v]++
			}
		}
	}
	return out
}
