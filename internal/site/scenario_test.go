package site

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// withMass returns a row whose answer forms are scaled to the answer mass
// P(yes)+P(no) = mass, keeping its logit.
func withMass(r run.Row, mass float64) run.Row {
	var py, pn float64
	for f, lp := range r.Logprobs {
		if f == "yes" || f == "Yes" {
			py += math.Exp(lp)
		} else {
			pn += math.Exp(lp)
		}
	}
	lps := run.Logprobs{}
	for f, lp := range r.Logprobs {
		lps[f] = lp + math.Log(mass/(py+pn))
	}
	r.Logprobs = lps
	return r
}

// gridCells returns a scenario page's grid cells: the markup of each <td>
// of its body, in order.
func gridCells(t *testing.T, page []byte) []string {
	t.Helper()
	s := string(page)
	i, j := strings.Index(s, "<tbody>"), strings.Index(s, "</table>")
	if i < 0 || j < i {
		t.Fatal("no grid on the page")
	}
	var cells []string
	for _, c := range strings.Split(s[i:j], "<td")[1:] {
		c, _, _ = strings.Cut(c, "<tr")
		cells = append(cells, "<td"+c)
	}
	return cells
}

var cellID = regexp.MustCompile(`^<td(?: class=(?:[^ >"]+|"[^"]*"))? id=([a-z0-9-]+)>`)

// TestScenarioGridNotes: a scenario page is one grid; a cell carries a
// transcript link, an id and a note only where they apply — a prompt that
// differs, low answer mass (unless every variant's is low: then one
// sentence says so), unparsed sampled answers — and links the run's
// per-prompt file for the numbers it leaves out.
func TestScenarioGridNotes(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	rows := referenceRows(t)
	lowAt, unparsedAt := 5, 7
	low := append([]run.Row(nil), rows...)
	low[lowAt] = withMass(low[lowAt], 0.9)
	allLow := make([]run.Row, len(rows))
	for i, r := range rows {
		allLow[i] = withMass(r, 0.95)
	}
	dec := make([]run.Row, len(rows))
	for i, r := range rows {
		r.Logprobs = nil
		r.Decisions = []string{"yes", "no"}
		if i == unparsedAt {
			r.Decisions = []string{"Maybe.", "yes"}
		}
		dec[i] = r
	}
	runs := fstest.MapFS{}
	addRun(t, runs, "low", manifest("Low", run.Explicit, "default", run.Logprob), low)
	addRun(t, runs, "alllow", manifest("All Low", run.Explicit, "default", run.Logprob), allLow)
	addRun(t, runs, "dec", manifest("Dec", run.Explicit, "default", run.Decision), dec)
	cfg := fixture(t)
	cfg.Runs = runs
	files := generateMap(t, cfg)

	question := func(r run.Row) string { return strconv.Itoa(*r.DecisionQuestionID) }
	anchor := func(r run.Row) string {
		return "age-" + strconv.Itoa(int(*r.Age)) + "-" + r.Gender + "-" + strings.ReplaceAll(strings.ToLower(r.Race), " ", "-")
	}
	// The cell of a row on its scenario page.
	cellOf := func(id string, r run.Row) string {
		g, err := design.ParseGender(r.Gender)
		if err != nil {
			t.Fatal(err)
		}
		race, err := design.ParseRace(r.Race)
		if err != nil {
			t.Fatal(err)
		}
		return gridCells(t, files["runs/"+id+"/q"+question(r)+".html"])[design.Cell{Age: int(*r.Age), Gender: g, Race: race}.Index()]
	}

	// One cell of low mass is marked, with its mass cut to three decimals.
	for p, page := range files {
		if !strings.HasPrefix(p, "runs/low/q") || strings.Contains(p, "transcripts") {
			continue
		}
		want := 0
		if p == "runs/low/q"+question(rows[lowAt])+".html" {
			want = 1
		}
		if got := strings.Count(string(page), "<small>mass "); got != want {
			t.Errorf("%s: %d cells marked for low mass, want %d", p, got, want)
		}
		// The caption explains the mark on the page that has one.
		if got := strings.Contains(string(page), "under 0.99, the paper’s minimum"); got != (want == 1) {
			t.Errorf("%s: the caption gives the answer mass threshold: %v, want %v", p, got, want == 1)
		}
		if !strings.Contains(string(page), "<code>scored.jsonl.gz</code> in <a href=index.html#files>the run’s files</a>") {
			t.Errorf("%s: no link to the run page's list of its files, with the per-prompt file", p)
		}
	}
	if c := cellOf("low", rows[lowAt]); !strings.HasSuffix(c, "\n<small>mass 0.899</small>") && !strings.HasSuffix(c, "\n<small>mass 0.900</small>") {
		t.Errorf("the low-mass cell is %q", c)
	}
	// Every variant's mass is low: one sentence per page, no cell marked.
	for p, page := range files {
		if !strings.HasPrefix(p, "runs/alllow/q") {
			continue
		}
		if s := string(page); !strings.Contains(s, "answer mass</a> P(yes)+P(no) on this question is under 0.99 (0.9") || strings.Contains(s, "<small>") {
			t.Errorf("%s: want one sentence on the low answer mass and no cell marked", p)
		}
	}
	// An unparsed answer: the cell says so and links its transcript, which
	// links back to the cell by its id.
	c := cellOf("dec", dec[unparsedAt])
	a := anchor(dec[unparsedAt])
	tr := "q" + question(dec[unparsedAt]) + "-transcripts.html#" + a
	if m := cellID.FindStringSubmatch(c); m == nil || m[1] != a || !strings.Contains(c, "\n<a href="+tr+">transcript</a>") || !strings.HasSuffix(c, "\n<small>1 unparsed</small>") {
		t.Errorf("the cell with an unparsed answer is %q", c)
	}
	// The caption explains "unparsed" on the pages that have some.
	for p, page := range files {
		if !strings.HasPrefix(p, "runs/dec/q") || strings.Contains(p, "transcripts") {
			continue
		}
		want := p == "runs/dec/q"+question(dec[unparsedAt])+".html"
		if got := strings.Contains(string(page), "“2 unparsed”: sampled answers neither yes nor no"); got != want {
			t.Errorf("%s: the caption explains unparsed answers: %v, want %v", p, got, want)
		}
	}
	if !strings.Contains(string(files["runs/dec/"+strings.Split(tr, "#")[0]]), `href=q`+question(dec[unparsedAt])+`.html#`+a+`>numbers</a>`) {
		t.Error("the transcript does not link back to its cell")
	}

	// Ids only on cells that a transcript links to: on the fixture's pages,
	// as many ids as transcript links, and each cell's id its variant's.
	total := 0
	for p, page := range fixtureSite(t) {
		if !strings.HasPrefix(p, "runs/") || !regexp.MustCompile(`/q\d+\.html$`).MatchString(p) {
			continue
		}
		ids, links := 0, 0
		for i, c := range gridCells(t, page) {
			m := cellID.FindStringSubmatch(c)
			if m != nil {
				ids++
				if m[1] != design.Cells()[i].Anchor() {
					t.Errorf("%s: cell %d has id %s", p, i, m[1])
				}
			}
			if strings.Contains(c, ">transcript</a>") {
				links++
				if m == nil {
					t.Errorf("%s: cell %d links a transcript but has no id", p, i)
				}
			}
		}
		if ids != links {
			t.Errorf("%s: %d cells with an id, %d with a transcript", p, ids, links)
		}
		total += links
	}
	if total == 0 {
		t.Error("no scenario page of the fixture links a transcript")
	}
}
