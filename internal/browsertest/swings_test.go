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

// pageCells is the run's cells with, for a log-probability run, each
// P(yes) from its answer forms' log-probabilities rounded to hundredths
// (below −40.93 taken as −40.94), as the scenario pages hold them and the
// swing finder counts them. It fails the test if that moves a P(yes) by
// more than 0.0025, the bound METHODOLOGY.md states.
func pageCells(t *testing.T, r *run.Run) map[int]*score.QuestionCells {
	t.Helper()
	cells := score.Cells(r)
	if r.Manifest.Scoring == run.Decision {
		return cells
	}
	ny := len(r.Manifest.Choices.Yes)
	lse := func(lps []float64) float64 {
		m := math.Inf(-1)
		for _, lp := range lps {
			m = math.Max(m, lp)
		}
		if math.IsInf(m, -1) {
			return m
		}
		var s float64
		for _, lp := range lps {
			s += math.Exp(lp - m)
		}
		return m + math.Log(s)
	}
	for _, qc := range cells {
		for i := range qc {
			c := &qc[i]
			if !c.Present {
				continue
			}
			lps := make([]float64, len(c.Cell.LP))
			for k, lp := range c.Cell.LP {
				lps[k] = math.Max(-40.94, math.Round(100*lp)/100)
				if math.IsInf(lp, -1) {
					lps[k] = lp
				}
			}
			p := 1 / (1 + math.Exp(-(lse(lps[:ny]) - lse(lps[ny:]))))
			if math.Abs(p-c.P) > 0.0025 {
				t.Errorf("q%d cell %d: P(yes) %v from the rounded log-probabilities, %v exact", c.Cell.Q, i, p, c.P)
			}
			c.P = p
		}
	}
	return cells
}

// TestSwingFinder: the swing finder's threshold changes the rows and the
// URL. At each threshold the rows shown are the scenarios with a pair of
// cells whose P(yes) differs by more than it, with their number of pairs,
// counted here by brute force from the run's file (pageCells); a link with a
// threshold opens at it; a row's largest swing opens its two cells side
// by side.
func TestSwingFinder(t *testing.T) {
	t.Parallel()
	id := committedRun(t, run.Logprob)
	fsys := os.DirFS(filepath.Join(repo, "runs"))
	r, err := run.Load(fsys, "runs", id)
	if err != nil {
		t.Fatal(err)
	}
	cells := pageCells(t, r)
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
	if !strings.Contains(v.Summary, fmt.Sprintf("%d of ", len(v.Rows))) || !strings.Contains(v.Summary, "over 50 pp") || !strings.Contains(v.Summary, "noise alone") {
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
	// The reader is taken to the comparison, not left at the top of the
	// grid: it is at the top of the window and has the focus.
	type arrival struct {
		Focused string  `json:"focused"`
		Top     float64 `json:"top"`
		ScrollY float64 `json:"scrollY"`
		Height  float64 `json:"height"`
	}
	a := eval[arrival](tb, `new Promise(r => requestAnimationFrame(() => r({focused: document.activeElement ? document.activeElement.id : "",
		top: document.getElementById("cv").getBoundingClientRect().top, scrollY, height: innerHeight})))`)
	if a.Focused != "cv" || a.ScrollY == 0 || a.Top < 0 || a.Top > a.Height/2 {
		t.Errorf("side by side from the swing finder: the focus is on %q and the comparison %.0f px from the top of a %.0f px window (scrolled %.0f px); want it focused (#cv) in the window's top half",
			a.Focused, a.Top, a.Height, a.ScrollY)
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

// swingPairs is what a scenario page shows of its pairs over a threshold.
type swingPairs struct {
	Hash  string     `json:"hash"`
	Open  bool       `json:"open"`
	Value string     `json:"value"`
	Count string     `json:"count"`
	Pairs [][]string `json:"pairs"` // swing, link
}

const swingPairsJS = `(() => { const d = document.getElementById("sw-pairs"); return {
	hash: location.hash, open: d.open, value: d.querySelector("select").value,
	count: d.querySelector(".sw-count").textContent,
	pairs: Array.from(d.querySelectorAll("ol.sw-list li a")).map(a => [a.textContent, a.getAttribute("href")]),
}; })()`

// TestSwingPairs: each scenario's number of pairs on the swing finder
// opens the scenario page's list of those pairs at the finder's threshold:
// exactly as many as the finder says, each a distinct pair of cells, the
// largest first; the page's own threshold changes the list and the URL,
// and a pair's link shows its two cells side by side. On both kinds of run.
func TestSwingPairs(t *testing.T) {
	t.Parallel()
	tb := newTab(t, 1280, 900, "light")
	for _, scoring := range []run.Scoring{run.Logprob, run.Decision} {
		id := committedRun(t, scoring)
		r, err := run.Load(os.DirFS(filepath.Join(repo, "runs")), "runs", id)
		if err != nil {
			t.Fatal(err)
		}
		cells := pageCells(t, r)
		finder := "runs/" + id + "/swings.html"
		tb.open(siteDir, finder+"#swings?t=0.20")
		rows := eval[[][]string](tb, `Array.from(document.querySelectorAll("table.swings tbody tr")).filter(tr => !tr.hidden).map(tr => [tr.id, tr.cells[1].textContent, tr.cells[1].querySelector("a").getAttribute("href")])`)
		if len(rows) == 0 {
			t.Fatalf("%s: no scenario with a swing over 0.20", finder)
		}
		q := strings.TrimPrefix(rows[0][0], "sw-q")
		if want := "q" + q + ".html#swings?t=0.20"; rows[0][2] != want {
			t.Errorf("%s: the count of %s links %q, want %q", finder, rows[0][0], rows[0][2], want)
		}
		tb.clickAndLoad("#" + rows[0][0] + " td a")
		page := "runs/" + id + "/q" + q + ".html"
		qn, _ := strconv.Atoi(q)
		check := func(th string, finderCount string) swingPairs {
			t.Helper()
			v := eval[swingPairs](tb, swingPairsJS)
			tf, _ := strconv.ParseFloat(th, 64)
			brute := bruteSwings(cells[qn], tf)
			if !v.Open || v.Value != th || v.Hash != "#swings?t="+th {
				t.Errorf("%s at %s: open %v, threshold %q, hash %q", page, th, v.Open, v.Value, v.Hash)
			}
			if len(v.Pairs) != brute || !strings.HasPrefix(v.Count, thousandsOf(brute)+" pair") || finderCount != "" && finderCount != thousandsOf(brute) {
				t.Errorf("%s at %s: %d pairs listed, count %q; the finder says %q, brute force %d", page, th, len(v.Pairs), v.Count, finderCount, brute)
			}
			seen := map[string]bool{}
			for i, p := range v.Pairs {
				if seen[p[1]] {
					t.Errorf("%s at %s: pair %s listed twice", page, th, p[1])
				}
				seen[p[1]] = true
				if i > 0 && p[0] > v.Pairs[i-1][0] {
					t.Errorf("%s at %s: pair %d (%s) is larger than the one before it (%s)", page, th, i, p[0], v.Pairs[i-1][0])
				}
			}
			return v
		}
		check("0.20", rows[0][1])
		eval[bool](tb, `(() => { const s = document.querySelector('#sw-pairs select');
			s.value = "0.50"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
		v := check("0.50", "")
		if len(v.Pairs) == 0 {
			eval[bool](tb, `(() => { const s = document.querySelector('#sw-pairs select');
				s.value = "0.10"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
			v = check("0.10", "")
		}
		if len(v.Pairs) == 0 {
			t.Fatalf("%s: no pair to open", page)
		}
		tb.clickHash(`#sw-pairs ol.sw-list li:first-child a`)
		c := eval[cellView](tb, cellViewJS)
		want := strings.TrimPrefix(v.Pairs[0][1], "#cells?")
		if c.Hash != v.Pairs[0][1] || len(c.Cells) != 2 || "a="+c.Cells[0].ID+"&b="+c.Cells[1].ID != want {
			t.Errorf("%s: the first pair's link (%s) shows hash %q and %d cells %v", page, v.Pairs[0][1], c.Hash, len(c.Cells), c.Cells)
		}
		if p := eval[swingPairs](tb, swingPairsJS); !p.Open || len(p.Pairs) != len(v.Pairs) {
			t.Errorf("%s: after opening a pair the list is open %v with %d pairs, want %d", page, p.Open, len(p.Pairs), len(v.Pairs))
		}
		tb.checkClean(page)
	}
}
