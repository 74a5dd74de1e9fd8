package browsertest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

type swingView struct {
	Hash    string     `json:"hash"`
	Value   string     `json:"value"`
	Summary string     `json:"summary"`
	Rows    [][]string `json:"rows"` // the shown rows: id, pairs
}

const swingViewJS = `(() => ({
	hash: location.hash,
	value: document.querySelector('#sw-form select').value,
	summary: document.getElementById("sw-summary").textContent,
	rows: Array.from(document.querySelectorAll("table.swings tbody tr")).filter(tr => !tr.hidden && tr.offsetParent !== null).map(tr => [tr.id, tr.cells[1].textContent]),
}))()`

// pairsOver counts, by brute force, a question's pairs of cells whose
// P(yes) differs by more than t.
func bruteSwings(qc *score.QuestionCells, t float64) int {
	n := 0
	for i := range qc {
		for j := i + 1; j < len(qc); j++ {
			a, b := qc[i], qc[j]
			if a.Present && b.Present && !math.IsNaN(a.P) && !math.IsNaN(b.P) && math.Abs(a.P-b.P) > t+1e-9 {
				n++
			}
		}
	}
	return n
}

// TestSwingFinder: the swing finder's threshold changes the rows and the
// URL. At each threshold the rows shown are the scenarios with a pair of
// cells whose P(yes) differs by more than it, with their number of pairs,
// counted here by brute force from the run's file; a link with a
// threshold opens at it; a row's largest swing opens its two cells side
// by side.
func TestSwingFinder(t *testing.T) {
	id := committedRun(t, run.Logprob)
	fsys := os.DirFS(filepath.Join(repo, "runs"))
	r, err := run.Load(fsys, "runs", id)
	if err != nil {
		t.Fatal(err)
	}
	cells := score.Cells(r)
	want := func(th float64) [][]string {
		var rows [][]string
		for q := range 200 {
			if qc := cells[q]; qc != nil {
				if n := bruteSwings(qc, th); n > 0 {
					rows = append(rows, []string{fmt.Sprintf("sw-q%d", q), thousandsOf(n)})
				}
			}
		}
		return rows
	}
	page := "runs/" + id + "/swings.html"
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, page)
	v := eval[swingView](tb, swingViewJS)
	if v.Value != "0.30" || fmt.Sprint(v.Rows) != fmt.Sprint(want(0.3)) {
		t.Fatalf("%s at its default: threshold %q, rows %v; want 0.30 and %v", page, v.Value, v.Rows, want(0.3))
	}
	before := len(v.Rows)
	eval[bool](tb, `(() => { const s = document.querySelector('#sw-form select');
		s.value = "0.50"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	v = eval[swingView](tb, swingViewJS)
	if v.Hash != "#swings?t=0.50" {
		t.Errorf("threshold 0.50: URL hash %q", v.Hash)
	}
	if fmt.Sprint(v.Rows) != fmt.Sprint(want(0.5)) || len(v.Rows) == before {
		t.Errorf("threshold 0.50: rows %v, want %v (and not the %d of 0.30)", v.Rows, want(0.5), before)
	}
	if !strings.Contains(v.Summary, fmt.Sprintf("%d of ", len(v.Rows))) || !strings.Contains(v.Summary, "over 0.50") || !strings.Contains(v.Summary, "noise alone") {
		t.Errorf("threshold 0.50: summary %q", v.Summary)
	}
	tb.checkClean(page)

	// A link with a threshold opens at it.
	tb.open(siteDir, "runs/"+id+"/index.html")
	tb.open(siteDir, page+"#swings?t=0.70")
	v = eval[swingView](tb, swingViewJS)
	if v.Value != "0.70" || fmt.Sprint(v.Rows) != fmt.Sprint(want(0.7)) {
		t.Errorf("%s#swings?t=0.70: threshold %q, rows %v; want %v", page, v.Value, v.Rows, want(0.7))
	}
	if len(v.Rows) == 0 {
		t.Fatal("no swing over 0.70 to follow")
	}
	tb.clickAndLoad("#" + v.Rows[0][0] + ` a[href*="#cells?"]`)
	c := eval[cellView](tb, cellViewJS)
	if len(c.Cells) != 2 || len(c.Ins)+len(c.Del) == 0 {
		t.Errorf("the largest swing's link shows %d cells and %d marked words, want 2 and some", len(c.Cells), len(c.Ins)+len(c.Del))
	}
	tb.checkClean("side by side from the swing finder")
}

func thousandsOf(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
