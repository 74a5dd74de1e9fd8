package site

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/browse"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// TestComparePages: a question's runs are split per to a
// page in the order they were run, each page's log-probability runs first,
// each run on exactly one page, every page linking all of them; a run
// added with the latest date changes only the last page.
func TestComparePages(t *testing.T) {
	const logprob, decision = 183, 19
	const compareRunsPerPage = stage.DefaultPageRows
	sc := &stage.Runs{Kept: map[string]*stage.KeptCells{}}
	var runs []*board.Entry
	for i := range logprob + decision {
		id := fmt.Sprintf("r%03d", i)
		d := new(score.QuestionDeltas)
		for j := range d {
			d[j] = score.Delta{Value: float64(i) / 100, Present: true, HasBase: true}
		}
		dec := i%10 == 9 && i/10 < decision
		sc.Kept[id] = &stage.KeptCells{Decision: dec, Deltas: map[int]*grid.KeptQuestion{3: grid.KeepQuestion(d, dec)}}
		// Dates run against ids, so that the order is the dates'.
		date := fmt.Sprintf("2026-%02d-01", 12-i%12)
		runs = append(runs, &board.Entry{Run: &run.Run{ID: id, Manifest: &run.Manifest{Model: run.Model{Name: "model " + id}, RunDate: date}}})
	}
	pages := browse.ComparePages(layout.NewDatasetTexts(), sc, compareRunsPerPage, run.Explicit, 3, runs)
	if want := (logprob + decision + compareRunsPerPage - 1) / compareRunsPerPage; len(pages) != want {
		t.Fatalf("%d pages, want %d", len(pages), want)
	}
	dates := map[string]string{}
	for _, e := range runs {
		dates[e.ID()] = e.Run.Manifest.RunDate
	}
	seen := map[string]bool{}
	lastDate := ""
	for k, p := range pages {
		d := p.Body.(browse.CompareData)
		if want := paths.ComparePartPath(run.Explicit, 3, k+1); p.Path != want {
			t.Errorf("page %d is %s, want %s", k+1, p.Path, want)
		}
		lo := k*compareRunsPerPage + 1
		n := len(pageRuns(d))
		if want := fmt.Sprintf("runs %d–%d", lo, lo+n-1); n > compareRunsPerPage || len(d.Parts) != len(pages) || !d.Parts[k].Current || d.Range != want {
			t.Errorf("page %d: %d runs, %d parts (current %v), range %q, want %q", k+1, n, len(d.Parts), d.Parts[k].Current, d.Range, want)
		}
		pageDate := ""
		lastDecision := false
		for _, g := range d.Groups {
			// The spread of a group's prompts is over its runs: run i's
			// differences are all i/100.
			var lowest, highest grid.DeltaCell
			person := 0
			for j, r := range g.Runs {
				i, _ := strconv.Atoi(strings.TrimPrefix(r.ID, "r"))
				v := grid.NewDeltaCell(score.Delta{Value: float64(i) / 100, Present: true, HasBase: true}, sc.Kept[r.ID].Decision)
				if j == 0 || v.Digits < lowest.Digits {
					lowest = v
				}
				if j == 0 || v.Digits > highest.Digits {
					highest = v
				}
				if v.Digits > 0 {
					person++
				}
			}
			wantHigh := highest.Text()
			if lowest.Digits == highest.Digits {
				wantHigh = ""
			}
			for _, row := range g.Spread {
				for _, c := range row.Cells {
					if c.Low != lowest.Text() || c.High != wantHigh || c.Person != person || c.Baseline != 0 {
						t.Fatalf("page %d, %s, age %d: spread %s to %s, %d/%d runs favour person/baseline; want %s to %s, %d/0", k+1, g.Title, row.Age, c.Low, c.High, c.Person, c.Baseline, lowest.Text(), wantHigh, person)
					}
				}
			}
		}
		for _, r := range pageRuns(d) {
			if seen[r.ID] {
				t.Errorf("run %s on two pages", r.ID)
			}
			seen[r.ID] = true
			dec := sc.Kept[r.ID].Decision
			if lastDecision && !dec {
				t.Errorf("page %d: log-probability run %s after a sampled-answer run", k+1, r.ID)
			}
			lastDecision = dec
			date := dates[r.ID]
			if date < lastDate {
				t.Errorf("page %d: run %s of %s after a run of %s", k+1, r.ID, date, lastDate)
			}
			pageDate = max(pageDate, date)
			// Its largest difference, in its unit, with its prompt.
			i, _ := strconv.Atoi(r.ID[1:])
			if want := grid.NewDeltaCell(score.Delta{Value: float64(i) / 100, Present: true, HasBase: true}, dec).Text(); r.Largest == nil || r.Largest.Text != want || r.Largest.Prompt != "20, female, white" {
				t.Errorf("run %s: largest difference %+v, want %s on 20, female, white", r.ID, r.Largest, want)
			}
		}
		lastDate = pageDate
	}
	if len(seen) != len(runs) {
		t.Errorf("%d of %d runs shown", len(seen), len(runs))
	}
	// A run of a later date: the full pages stay as they were.
	d := new(score.QuestionDeltas)
	sc.Kept["a-new"] = &stage.KeptCells{Deltas: map[int]*grid.KeptQuestion{3: grid.KeepQuestion(d, false)}}
	added := append([]*board.Entry{{Run: &run.Run{ID: "a-new", Manifest: &run.Manifest{RunDate: "2027-01-01"}}}}, runs...)
	after := browse.ComparePages(layout.NewDatasetTexts(), sc, compareRunsPerPage, run.Explicit, 3, added)
	for k := range len(runs) / compareRunsPerPage {
		if !reflect.DeepEqual(after[k], pages[k]) {
			t.Errorf("page %d changed when a later run was added", k+1)
		}
	}
	// The spread: an age a row, a gender and race a column, numbers only.
	number := regexp.MustCompile(`^([+−]?[0-9.]+)?$`)
	rows := pages[0].Body.(browse.CompareData).Groups[0].Spread
	if len(rows) != len(design.Ages) {
		t.Errorf("%d rows, want %d", len(rows), len(design.Ages))
	}
	for i, r := range rows {
		if r.Age != design.Ages[i] || len(r.Cells) != design.NumCells/len(design.Ages) {
			t.Errorf("row %d: age %d, %d cells", i, r.Age, len(r.Cells))
		}
		for _, c := range r.Cells {
			if !c.None && (c.Low == "" || !number.MatchString(c.Low) || !number.MatchString(c.High)) {
				t.Errorf("age %d: a cell %+v", r.Age, c)
			}
		}
	}
}

// pageRuns are a compare page's runs, group by group.
func pageRuns(d browse.CompareData) []browse.CompareRun {
	var out []browse.CompareRun
	for _, g := range d.Groups {
		out = append(out, g.Runs...)
	}
	return out
}

// TestDeltaCellHTML: a cell written in Go from the kept digits is what the
// template writes from the value, and holds nothing but digits and our
// class names whatever the numbers.
func TestDeltaCellHTML(t *testing.T) {
	tmpl := template.Must(template.New("").Parse(`<td class="{{.Class}}">{{.Text}}</td>`))
	type cell struct{ Class, Text string }
	html := func(c cell) string {
		var b strings.Builder
		if err := tmpl.Execute(&b, c); err != nil {
			t.Fatal(err)
		}
		return html.UnescapeString(b.String())
	}
	want := func(d score.Delta, decision bool) string {
		c := cell{grid.ColourClass(d.Value, decision), show.Signed(d.Value, show.DeltaDecimals(decision))}
		switch {
		case !d.Present:
			c = cell{"missing", "—"}
		case !d.HasBase:
			c = cell{"nobase", "n/a"}
		}
		return html(c)
	}
	got := func(d score.Delta, decision bool) string {
		c := grid.NewDeltaCell(d, decision)
		return html(cell{c.Class(), c.Text()})
	}
	values := []float64{0, math.Copysign(0, -1), 0.005, -0.005, 0.004999, 0.015, 0.125, -0.125, 1.5, -1.499, 12.345, 99.95, -100, 2e4, 1e-9}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		values = append(values, (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(6))-2))
	}
	for _, v := range values {
		for _, dec := range []bool{false, true} {
			d := score.Delta{Value: v, Present: true, HasBase: true}
			if g, w := got(d, dec), want(d, dec); g != w {
				t.Fatalf("%v (decision %v): %s, the template writes %s", v, dec, g, w)
			}
		}
	}
	for _, d := range []score.Delta{{Value: 1}, {Value: 1, Present: true}} {
		if g, w := got(d, false), want(d, false); g != w {
			t.Errorf("%+v: %s, want %s", d, g, w)
		}
	}
	ok := regexp.MustCompile(`^(<td class="(b[0-8]|missing|nobase)">([+−]?[0-9]+(\.[0-9]+)?|[+−]∞|—|n/a)</td>)*$`)
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, -1e-300} {
		for _, dec := range []bool{false, true} {
			if h := got(score.Delta{Value: v, Present: true, HasBase: true}, dec); !ok.MatchString(h) {
				t.Errorf("%v (decision %v) writes %q", v, dec, h)
			}
		}
	}
}

// TestMemoKindsArePlainData: the data of the pages kept by emitMemo are
// plain exported values all the way down — no unexported field, map,
// interface or function, which the gob encoding that keys them would miss
// or order at random — so the key covers everything the template reads.
func TestMemoKindsArePlainData(t *testing.T) {
	var check func(path string, ty reflect.Type)
	seen := map[reflect.Type]bool{}
	check = func(path string, ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				if !f.IsExported() {
					t.Errorf("%s.%s is unexported", path, f.Name)
					continue
				}
				check(path+"."+f.Name, f.Type)
			}
		case reflect.Slice, reflect.Array, reflect.Pointer:
			check(path+"[]", ty.Elem())
		case reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			t.Errorf("%s is a %s", path, ty.Kind())
		}
	}
	check("compare", reflect.TypeFor[browse.CompareData]())
}

// TestShownDigits: a difference's digits are those of the text fixed()
// shows, read back (as they were, by strconv.ParseInt), and appendText
// writes text().
func TestShownDigits(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), -0.001, -0.005, 0.005, 0.015, 0.125, -0.995, 2e7, -2e7, 21474836.47, 21474836.48, -21474836.48, -21474836.49, 1e300, -1e300, 5e-324}
	for i := range 5000 {
		vals = append(vals, math.Sin(float64(i))*math.Pow(10, float64(i%12-4)))
	}
	for _, v := range vals {
		for _, dec := range []bool{false, true} {
			d := show.DeltaDecimals(dec)
			n, ok := grid.ShownDigits(v, d)
			want, err := strconv.ParseInt(strings.Replace(show.Fixed(v, d), ".", "", 1), 10, 32)
			if ok != (err == nil) || ok && int64(n) != want {
				t.Errorf("%v, %d decimals: %d %v, want %d (%v)", v, d, n, ok, want, err)
			}
			c := grid.NewDeltaCell(score.Delta{Value: v, Present: true, HasBase: true}, dec)
			if got := string(c.AppendText([]byte("x"))); got != "x"+c.Text() {
				t.Errorf("%v (decision %v): appendText %q, text %q", v, dec, got, c.Text())
			}
		}
	}
	for _, code := range []grid.CellCode{grid.CellMissing, grid.CellNoBase, grid.CellNaN, grid.CellPosInf, grid.CellNegInf} {
		c := grid.DeltaCell{Code: code}
		if got := string(c.AppendText(nil)); got != c.Text() {
			t.Errorf("code %d: appendText %q, text %q", code, got, c.Text())
		}
	}
}
