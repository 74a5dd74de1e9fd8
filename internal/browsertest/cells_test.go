package browsertest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/worddiff"
)

// cellView is what a reader sees of the transcripts on a scenario page.
type cellView struct {
	Hash  string     `json:"hash"`
	Cells []cellSeen `json:"cells"`
	Ins   []string   `json:"ins"`
	Del   []string   `json:"del"`
	// Picked are the grid cells marked as shown.
	Picked []string `json:"picked"`
}

type cellSeen struct {
	ID     string     `json:"id"`
	Sent   string     `json:"sent"`
	Result string     `json:"result"`
	LP     [][]string `json:"lp"`      // form, counted as, log-probability
	Answer [][]string `json:"answers"` // counted as, answer
}

const cellViewJS = `(() => ({
	hash: location.hash,
	cells: Array.from(document.querySelectorAll("#cv .tcell")).map(c => ({
		id: c.dataset.cell,
		sent: (c.querySelector(".cv-sent") || {}).textContent || "",
		result: c.querySelector(".result").textContent,
		lp: Array.from(c.querySelectorAll("table.lp tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent)),
		answers: Array.from(c.querySelectorAll("ol.answers li")).map(li => [li.querySelector(".verdict").textContent, li.querySelector("code").textContent]),
	})),
	ins: Array.from(document.querySelectorAll("#cv .cv-words ins")).map(e => e.textContent),
	del: Array.from(document.querySelectorAll("#cv .cv-words del")).map(e => e.textContent),
	picked: Array.from(document.querySelectorAll("table.grid td.picked")).map(td => td.id),
}))()`

// loadRun reads a committed run and its rows of question q, by cell anchor.
func loadRun(t *testing.T, id string, q int) (*run.Run, map[string]*run.Row) {
	t.Helper()
	rows := map[string]*run.Row{}
	r, err := run.LoadManifest(os.DirFS(filepath.Join(repo, "runs")), "runs", id)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.LoadRows(os.DirFS(filepath.Join(repo, "runs")), "runs", func(_ *run.Run, c run.Cell, row *run.Row) {
		if c.Q == q {
			// The row's buffers are reused for the next row: copy them.
			cp := *row
			cp.Logprobs = run.Logprobs{}
			for f, lp := range row.Logprobs {
				cp.Logprobs[f] = lp
			}
			cp.Decisions = append([]string(nil), row.Decisions...)
			rows[c.Cell.Anchor()] = &cp
		}
	}); err != nil {
		t.Fatal(err)
	}
	return r, rows
}

// committedRun is the first committed run of the given scoring (in id
// order) with a scenario page for question 0, whose prompts are the
// dataset's own text.
func committedRun(t *testing.T, scoring run.Scoring) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repo, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		m, err := os.ReadFile(filepath.Join(repo, "runs", e.Name(), "manifest.yaml"))
		if err != nil || !strings.Contains(string(m), "\nscoring: "+string(scoring)+"\n") || !strings.Contains(string(m), "\nintervention: default\n") {
			continue
		}
		if _, err := os.Stat(filepath.Join(siteDir, "runs", e.Name(), "q0.html")); err == nil {
			return e.Name()
		}
	}
	t.Fatalf("no committed %s run with a scenario page for question 0", scoring)
	return ""
}

// lpText is a log-probability as the transcript writes it.
func lpText(lp float64) string {
	n := math.Round(-100 * lp)
	if n == 0 {
		return "0.00"
	}
	return fmt.Sprintf("−%.2f", n/100)
}

// TestCellTranscript: a transcript of a log-probability run's cell shows
// the prompt as sent (the dataset's text in the run's template) and each
// answer form's log-probability, the numbers of the run's own file; a click
// on a grid cell shows that cell's and puts it in the URL.
func TestCellTranscript(t *testing.T) {
	t.Parallel()
	id := committedRun(t, run.Logprob)
	r, rows := loadRun(t, id, 0)
	page := "runs/" + id + "/q0.html"
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, page+"#cells?a=age-20-female-black")
	v := eval[cellView](tb, cellViewJS)
	if len(v.Cells) != 1 || v.Cells[0].ID != "age-20-female-black" {
		t.Fatalf("%s#cells?a=age-20-female-black shows %+v, want that one cell", page, v.Cells)
	}
	row := rows["age-20-female-black"]
	c := v.Cells[0]
	if want := strings.ReplaceAll(r.Manifest.PromptTemplate, "{filled_template}", row.FilledTemplate); c.Sent != want {
		t.Errorf("sent:\n%q\nwant the run's template around the row's text:\n%q", c.Sent, want)
	}
	forms := r.Manifest.Choices.Forms()
	if len(c.LP) != len(forms) {
		t.Fatalf("%d log-probabilities shown, want one per form (%v): %v", len(c.LP), forms, c.LP)
	}
	for i, f := range forms {
		counted := "no"
		if i < len(r.Manifest.Choices.Yes) {
			counted = "yes"
		}
		if want := []string{f, counted, lpText(row.Logprobs[f])}; strings.Join(c.LP[i], "|") != strings.Join(want, "|") {
			t.Errorf("form %d: %v, want %v", i, c.LP[i], want)
		}
	}
	if !strings.Contains(c.Result, "Normalised P(yes)") || !strings.Contains(c.Result, "from the baseline person") {
		t.Errorf("result line %q does not give P(yes) and the difference from the baseline", c.Result)
	}
	if len(v.Picked) != 1 || v.Picked[0] != "age-20-female-black" {
		t.Errorf("grid cells marked: %v", v.Picked)
	}
	// A click on another cell of the grid shows its transcript.
	tb.do(clickCSS("#age-30-male-asian"))
	v = eval[cellView](tb, cellViewJS)
	if len(v.Cells) != 1 || v.Cells[0].ID != "age-30-male-asian" || v.Hash != "#cells?a=age-30-male-asian" {
		t.Errorf("after a click on age-30-male-asian: cells %v, URL hash %q", v.Cells, v.Hash)
	}
	if want := lpText(rows["age-30-male-asian"].Logprobs[forms[0]]); len(v.Cells) == 1 && (len(v.Cells[0].LP) == 0 || v.Cells[0].LP[0][2] != want) {
		t.Errorf("after a click: log-probabilities %v, want %s first", v.Cells[0].LP, want)
	}
	tb.checkClean(page)
}

// TestCellsSideBySide: two cells of a scenario side by side show both
// prompts as sent and the words that differ between them, which are the
// ones Go's word diff finds; the second is picked from the form and kept in
// the URL. On a sampled-answer run, every answer is listed with how it
// was counted.
func TestCellsSideBySide(t *testing.T) {
	t.Parallel()
	id := committedRun(t, run.Logprob)
	_, rows := loadRun(t, id, 0)
	page := "runs/" + id + "/q0.html"
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, page+"#cells?a=age-20-female-white")
	eval[bool](tb, `(() => { const s = document.querySelector('#cv select[name="b"]');
		s.value = "age-20-female-black"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	v := eval[cellView](tb, cellViewJS)
	if v.Hash != "#cells?a=age-20-female-white&b=age-20-female-black" {
		t.Errorf("URL hash %q after picking the second cell", v.Hash)
	}
	if len(v.Cells) != 2 {
		t.Fatalf("%d cells shown, want 2", len(v.Cells))
	}
	a, b := rows["age-20-female-white"].FilledTemplate, rows["age-20-female-black"].FilledTemplate
	for i, text := range []string{a, b} {
		if !strings.Contains(v.Cells[i].Sent, text) {
			t.Errorf("cell %d (%s) does not show its prompt", i, v.Cells[i].ID)
		}
	}
	var ins, del []string
	for _, s := range worddiff.Diff(a, b) {
		switch t := strings.TrimSpace(s.Text); {
		case t == "":
		case s.Op == worddiff.Insert:
			ins = append(ins, t)
		case s.Op == worddiff.Delete:
			del = append(del, t)
		}
	}
	if len(ins) == 0 {
		t.Fatal("the two prompts do not differ")
	}
	if strings.Join(v.Ins, "|") != strings.Join(ins, "|") || strings.Join(v.Del, "|") != strings.Join(del, "|") {
		t.Errorf("words marked: inserted %q, deleted %q; the word diff has %q and %q", v.Ins, v.Del, ins, del)
	}
	tb.checkClean(page)

	// A sampled-answer run: every answer of the cell, as counted.
	sid := committedRun(t, run.Decision)
	sr, srows := loadRun(t, sid, 0)
	page = "runs/" + sid + "/q0.html"
	tb.open(siteDir, page+"#cells?a="+design.Baseline.Anchor())
	v = eval[cellView](tb, cellViewJS)
	if len(v.Cells) != 1 {
		t.Fatalf("%s: %d cells shown", page, len(v.Cells))
	}
	var want [][]string
	for _, ans := range srows[design.Baseline.Anchor()].Decisions {
		counted := "unparsed"
		if yes, ok := sr.Manifest.Choices.ParseAnswer(ans); ok && yes {
			counted = "yes"
		} else if ok {
			counted = "no"
		}
		want = append(want, []string{counted, ans})
	}
	if fmt.Sprint(v.Cells[0].Answer) != fmt.Sprint(want) {
		t.Errorf("%s: answers %v, want %v", page, v.Cells[0].Answer, want)
	}
	tb.checkClean(page)
}

// TestScenarioWithoutScript: a scenario page read without JavaScript says
// where a cell's transcript is, its prompt page, whose link it shows, in
// place of the transcript section only the script fills; at 375 and 1280
// px, light and dark, inside the window. With script the note is gone.
func TestScenarioWithoutScript(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := openTab(t, browser(t))
	defer tb.cancel()
	tb.run("turning scripts off", func() error {
		_, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
	type reading struct {
		Note   string   `json:"note"`
		Height float64  `json:"height"`
		Right  float64  `json:"right"`
		Width  float64  `json:"width"`
		Links  []string `json:"links"`
	}
	const readJS = `(() => {
		const cv = document.getElementById("cv"), r = cv.getBoundingClientRect();
		return {
			note: getComputedStyle(cv, "::before").content,
			height: r.height, right: r.right, width: document.documentElement.clientWidth,
			links: Array.from(document.querySelectorAll("main a")).filter(a => a.offsetParent !== null).map(a => a.href),
		};
	})()`
	for _, width := range []int64{375, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			tb.emulate(width, 800, scheme)
			tb.open(siteDir, p.Scenario)
			got := eval[reading](tb, readJS)
			at := fmt.Sprintf("%s without JavaScript at %d px, %s", p.Scenario, width, scheme)
			if !strings.Contains(got.Note, "transcript") || !strings.Contains(got.Note, "full prompts") {
				t.Errorf("%s: the transcript section says nothing of where a cell's transcript is (its ::before is %s)", at, got.Note)
			}
			if got.Height == 0 || got.Right > got.Width {
				t.Errorf("%s: the note is %.0f px tall, its right edge at %.0f px in a %.0f px window", at, got.Height, got.Right, got.Width)
			}
			if !slices.Contains(got.Links, FileURL(siteDir, p.Prompt)) {
				t.Errorf("%s: the prompt page %s the note points to is not linked (links: %v)", at, p.Prompt, got.Links)
			}
		}
	}
	js := newTab(t, 375, 800, "light")
	js.open(siteDir, p.Scenario)
	if note := eval[string](js, `getComputedStyle(document.getElementById("cv"), "::before").content`); note != "none" {
		t.Errorf("%s with JavaScript still shows the note for readers without it: %s", p.Scenario, note)
	}
}
