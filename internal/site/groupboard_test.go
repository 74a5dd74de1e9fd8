package site

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// groupRowRe is a group board's row: its id, rank (= for a tie), rank set,
// model, signed value and interval, verdict and the board's set.
var groupRowRe = regexp.MustCompile(`(?s)^"?([^ >"]+)"?>\s*<td class="?num"? data-label="Rank · 95% set">(.*?)<th scope="?row"?>(.*?)<td class="num[^"]*" data-label="[^"]*">(.*?)<td data-label="?Verdict"?>(.*?)<td class="?num"? data-label="Board’s set">(.*?)(?:</table>.*)?$`)

// groupRows are a group board's rows, each split by groupRowRe.
func groupRows(page string) [][]string {
	var out [][]string
	for _, piece := range strings.Split(page, "<tr id=")[1:] {
		if m := groupRowRe.FindStringSubmatch(piece); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// checkGroupBoards checks that every group board's page shows what its
// data file holds: each run's rank, tie, rank sets, signed coefficient and
// interval, verdict and "beyond doubt", in the data file's order; that the
// data file agrees with data/leaderboard.json (the board's tally of the
// coefficient) and with each run's data file (its coefficient, its
// Holm-adjusted p-value); that the ranks are by the magnitude as displayed
// and each rank set holds its rank; and that the summary says the numbers
// of the data file. TestSummariesMatchNumbers runs it on its sites (the
// fixture, two log-probability demo runs on one board, two sampled-answer
// runs on another), so that no site is built for it alone.
func checkGroupBoards(t *testing.T, files map[string][]byte) (rows int) {
	t.Helper()
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(files["data/leaderboard.json"], &lb); err != nil {
		t.Fatal(err)
	}
	tallies := map[string]sitedata.GroupTally{}
	for _, b := range lb.Boards {
		for _, g := range b.Groups {
			tallies[b.ID+"/"+g.Coefficient] = g
		}
	}
	pages := 0
	for name, data := range files {
		rest, ok := strings.CutPrefix(name, "data/groups/")
		if !ok {
			continue
		}
		var gb sitedata.GroupBoard
		if err := json.Unmarshal(data, &gb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		page := "groups/" + strings.TrimSuffix(rest, ".json") + ".html"
		body, ok := files[page]
		if !ok {
			t.Errorf("%s: no page %s", name, page)
			continue
		}
		pages++
		got := groupRows(string(body))
		var want []sitedata.GroupBoardRun
		var facts []vocab.GroupBoardFacts
		for _, b := range gb.Boards {
			if tl, ok := tallies[b.Board+"/"+gb.Coefficient]; !ok || tl != b.Tally {
				t.Errorf("%s: board %s's tally %+v, data/leaderboard.json's %+v", name, b.Board, b.Tally, tl)
			}
			for i, r := range b.Runs {
				if rr := runRecordOf(t, files, r.ID); rr != nil {
					c := rr.Coefficients[gb.Coefficient]
					if c.Estimate != r.Estimate || c.CI95 == nil || r.CI95 == nil || *c.CI95 != *r.CI95 {
						t.Errorf("%s: %s's coefficient %v %v, its data file's %v %v", name, r.ID, r.Estimate, r.CI95, c.Estimate, c.CI95)
					}
					if p := rr.CoefPHolm[gb.Coefficient]; p != r.PHolm {
						t.Errorf("%s: %s's Holm p %v, its data file's %v", name, r.ID, r.PHolm, p)
					}
				}
				if r.RankSet[0] > r.Rank || r.Rank > r.RankSet[1] || r.BoardRankSet[0] > r.Rank || r.Rank > r.BoardRankSet[1] {
					t.Errorf("%s: %s ranked %d with sets %v and %v", name, r.ID, r.Rank, r.RankSet, r.BoardRankSet)
				}
				if i > 0 {
					prev := b.Runs[i-1]
					a, m := shownMag(float64(prev.Estimate)), shownMag(float64(r.Estimate))
					switch {
					case a > m, a == m && (r.Rank != prev.Rank || !r.Tied || !prev.Tied), a < m && r.Rank != i+1:
						t.Errorf("%s: %s (|%v|, rank %d) after %s (|%v|, rank %d)", name, r.ID, r.Estimate, r.Rank, prev.ID, prev.Estimate, prev.Rank)
					}
				}
				if v := vocab.GroupVerdict(gb.Group, float64(r.Estimate), [2]float64{float64(r.CI95[0]), float64(r.CI95[1])}); v != r.Verdict {
					t.Errorf("%s: %s's verdict %q, want %q", name, r.ID, r.Verdict, v)
				}
				if r.BeyondDoubt != (r.PHolm <= 0.05) {
					t.Errorf("%s: %s beyond doubt %v at Holm p %v", name, r.ID, r.BeyondDoubt, r.PHolm)
				}
				want = append(want, r)
			}
			f := vocab.GroupBoardFacts{N: len(b.Runs), Favoured: b.Tally.Favoured, Disfavoured: b.Tally.Disfavoured,
				BeyondFavoured: b.Tally.BeyondFavoured, BeyondDisfavoured: b.Tally.BeyondDisfavoured}
			if n := len(b.Runs); n > 0 {
				f.Least = vocab.GroupRun{Model: b.Runs[0].Model, Estimate: float64(b.Runs[0].Estimate), CI: [2]float64{float64(b.Runs[0].CI95[0]), float64(b.Runs[0].CI95[1])}}
				f.Most = vocab.GroupRun{Model: b.Runs[n-1].Model, Estimate: float64(b.Runs[n-1].Estimate), CI: [2]float64{float64(b.Runs[n-1].CI95[0]), float64(b.Runs[n-1].CI95[1])}}
			}
			facts = append(facts, f)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d rows, its data file %d", page, len(got), len(want))
			continue
		}
		for i, m := range got {
			r := want[i]
			text := func(s string) string {
				return strings.Join(strings.Fields(html.UnescapeString(stripTags(s, " "))), " ")
			}
			rank := fmt.Sprint(r.Rank)
			if r.Tied {
				rank += " ="
			}
			rank += " " + spanText(r.RankSet)
			cell := fmt.Sprintf("%s [%s, %s]", numfmt.Signed(float64(r.Estimate), 2), numfmt.Signed(float64(r.CI95[0]), 2), numfmt.Signed(float64(r.CI95[1]), 2))
			verdict := r.Verdict
			if r.BeyondDoubt {
				verdict += ", beyond doubt"
			}
			for _, c := range [][3]string{{"id", m[1], r.ID}, {"rank", text(m[2]), rank}, {"model", text(m[3]), r.Model}, {"coefficient", text(m[4]), cell},
				{"verdict", text(m[5]), verdict}, {"board's set", text(m[6]), spanText(r.BoardRankSet)}} {
				if c[1] != c[2] {
					t.Errorf("%s: row %d's %s is %q, its data file says %q", page, i+1, c[0], c[1], c[2])
				}
			}
			rows++
		}
		// The summary says each table's counts and its first and last
		// runs, in this test's own words for the data file's numbers:
		// the first table's sentences all, the others' while the summary
		// has room (vocab.MaxWords).
		sum := summaryOf(body)
		var expect []string
		for i, f := range facts {
			board := strings.TrimPrefix(gb.Boards[i].Board, gb.Variant+"-")
			board = map[string]string{"logprob": "log-probability runs", "decision": "sampled-answer runs"}[board]
			counts := fmt.Sprintf("Of the %d ranked %s-prompt %s, %d %s %s over %s and %d %s them (beyond doubt after correction across the runs: %d and %d).",
				f.N, gb.Variant, board, f.Favoured, plural(f.Favoured, "favour"), vocab.People(gb.Group), vocab.People(gb.Against), f.Disfavoured, plural(f.Disfavoured, "disfavour"), f.BeyondFavoured, f.BeyondDisfavoured)
			expect = append(expect, counts)
			if f.N == 0 {
				continue
			}
			ci := func(c [2]float64) string { return numfmt.Signed(c[0], 2) + " to " + numfmt.Signed(c[1], 2) }
			most := fmt.Sprintf("Furthest from zero: %s, %s logits (95%% interval %s; %s), %s", f.Most.Model, numfmt.Signed(f.Most.Estimate, 2), ci(f.Most.CI), vocab.UpTo(f.Most.Estimate, 2), gb.Boards[i].Runs[f.N-1].Verdict)
			if f.N > 1 {
				most += fmt.Sprintf("; nearest: %s, %s logits (95%% interval %s)", f.Least.Model, numfmt.Signed(f.Least.Estimate, 2), ci(f.Least.CI))
			}
			expect = append(expect, most+".")
		}
		for i, st := range sum {
			if i >= len(expect) || st != expect[i] {
				t.Errorf("%s: summary sentence %d is %q, want %q", page, i+1, st, expect[min(i, len(expect)-1)])
			}
		}
		if len(sum) < min(2, len(expect)) {
			t.Errorf("%s: the summary %q leaves out the first table's sentences", page, sum)
		}
	}
	if pages == 0 {
		t.Error("no group board data file")
	}
	return rows
}

// shownMag is the magnitude of a coefficient as displayed.
func shownMag(v float64) float64 {
	return math.Abs(math.Round(v*100) / 100)
}

func plural(n int, v string) string {
	if n == 1 {
		return v + "s"
	}
	return v
}

func spanText(s [2]int) string {
	if s[0] == s[1] {
		return fmt.Sprint(s[0])
	}
	return fmt.Sprintf("%d–%d", s[0], s[1])
}

func runRecordOf(t *testing.T, files map[string][]byte, id string) *sitedata.Run {
	t.Helper()
	data, ok := files[sitedata.RunFile(id)]
	if !ok {
		t.Errorf("no %s", sitedata.RunFile(id))
		return nil
	}
	var r sitedata.Run
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}
