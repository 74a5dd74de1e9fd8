package site

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// TestComparePages: a question's runs are split compareRunsPerPage to a
// page, log-probability runs first, each run on exactly one page, every
// page linking all of them.
func TestComparePages(t *testing.T) {
	const logprob, decision = 83, 9
	sc := &scored{kept: map[string]*keptCells{}}
	var runs []*board.Entry
	for i := range logprob + decision {
		id := fmt.Sprintf("r%03d", i)
		d := new(score.QuestionDeltas)
		for j := range d {
			d[j] = score.Delta{Value: float64(i) / 100, Present: true, HasBase: true}
		}
		sc.kept[id] = &keptCells{decision: i%10 == 9 && i/10 < decision, deltas: map[int]*score.QuestionDeltas{3: d}}
		runs = append(runs, &board.Entry{Run: &run.Run{ID: id, Manifest: &run.Manifest{Model: run.Model{Name: "model " + id}}}})
	}
	pages := comparePages(newDatasetTexts(), sc, run.Explicit, 3, runs)
	if want := (logprob + decision + compareRunsPerPage - 1) / compareRunsPerPage; len(pages) != want {
		t.Fatalf("%d pages, want %d", len(pages), want)
	}
	seen := map[string]bool{}
	lastDecision := false
	for k, p := range pages {
		d := p.Body.(compareData)
		if want := comparePartPath(run.Explicit, 3, k+1); p.Path != want {
			t.Errorf("page %d is %s, want %s", k+1, p.Path, want)
		}
		if len(d.Runs) > compareRunsPerPage || len(d.Parts) != len(pages) || !d.Parts[k].Current || d.TotalRuns != logprob+decision {
			t.Errorf("page %d: %d runs, %d parts (current %v), total %d", k+1, len(d.Runs), len(d.Parts), d.Parts[k].Current, d.TotalRuns)
		}
		groups := 0
		for _, g := range d.Groups {
			groups += g.Runs
		}
		if groups != len(d.Runs) {
			t.Errorf("page %d: column groups span %d runs, the page has %d", k+1, groups, len(d.Runs))
		}
		for j, r := range d.Runs {
			if seen[r.ID] {
				t.Errorf("run %s on two pages", r.ID)
			}
			seen[r.ID] = true
			dec := sc.kept[r.ID].decision
			if lastDecision && !dec {
				t.Errorf("page %d: log-probability run %s after a sampled-answer run", k+1, r.ID)
			}
			lastDecision = dec
			if got := d.Rows[0].Cells[j].Decision; got != dec {
				t.Errorf("run %s: cell scored as decision=%v", r.ID, got)
			}
		}
	}
	if len(seen) != len(runs) {
		t.Errorf("%d of %d runs shown", len(seen), len(runs))
	}
}

// TestDeltaRowHTML: a row written in Go is what the template would write,
// and holds nothing but cells of digits and our class names whatever the
// numbers.
func TestDeltaRowHTML(t *testing.T) {
	row := deltaRow{{Value: 0.123}, {Value: -1.5}, {Value: 12, Decision: true}, {State: cellMissing}, {State: cellNoBase}, {Value: math.Copysign(0, -1)}}
	tmpl := template.Must(template.New("").Parse(`{{range .}}<td class="{{.Class}}">{{.Text}}</td>{{end}}`))
	type cell struct{ Class, Text string }
	var cells []cell
	for _, c := range row {
		switch c.State {
		case cellMissing:
			cells = append(cells, cell{"missing", "—"})
		case cellNoBase:
			cells = append(cells, cell{"nobase", "n/a"})
		default:
			cells = append(cells, cell{colourClass(c.Value, c.Decision), signed(c.Value, deltaDecimals(c.Decision))})
		}
	}
	var want strings.Builder
	if err := tmpl.Execute(&want, cells); err != nil {
		t.Fatal(err)
	}
	if got := string(row.HTML()); got != html.UnescapeString(want.String()) {
		t.Errorf("row.HTML() =\n%s\nthe template writes\n%s", got, want.String())
	}
	ok := regexp.MustCompile(`^(<td class="(b[0-8]|missing|nobase)">([+−]?[0-9]+(\.[0-9]+)?|[+−]∞|—|n/a)</td>)*$`)
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e-300, 0} {
		for _, dec := range []bool{false, true} {
			if h := string(deltaRow{{Value: v, Decision: dec}}.HTML()); !ok.MatchString(h) {
				t.Errorf("%v (decision %v) writes %q", v, dec, h)
			}
		}
	}
}
