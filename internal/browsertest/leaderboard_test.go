package browsertest

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// checkLoads requires a heading rendered. TestPages runs it on
// layoutPages at 1280 px, where, with the check of every load (checkClean),
// the main page types opened from file:// log no console error, throw no
// uncaught exception, open no dialog and request nothing that is not a
// file:// URL (the site must work offline and load nothing from
// elsewhere).
func checkLoads(t *testing.T, tb *tab, v visit) {
	if h1 := eval[string](tb, `document.querySelector("h1") ? document.querySelector("h1").textContent : ""`); h1 == "" {
		t.Errorf("%s: no h1 rendered", v.page)
	}
}

// checkBoardRows: the leaderboard shows its ranked rows, and sort.js made
// the column headers buttons.
func checkBoardRows(t *testing.T, tb *tab, v visit) {
	if n := eval[int](tb, `document.querySelectorAll("table.board tbody tr").length`); n == 0 {
		t.Errorf("%s: the leaderboard has no rows", v.page)
	}
	if n := eval[int](tb, `document.querySelectorAll("table.board th button.sort").length`); n == 0 {
		t.Errorf("%s: sort.js did not make the column headers buttons", v.page)
	}
}

// rowsOf reads, for each run of the first leaderboard table (the first
// row of each body: a run's intervention rows follow it in its body), the
// run it links to and the given column's sort key.
const rowsJS = `Array.from(document.querySelector("table.board").tBodies).map(b => b.rows[0]).map(r => ({
	run: r.querySelector("th a").getAttribute("href"),
	model: r.querySelector("th a").textContent,
	key: r.cells[%d].dataset.sort !== undefined ? r.cells[%d].dataset.sort : r.cells[%d].textContent.trim()
}))`

type boardRow struct {
	Run   string `json:"run"`
	Model string `json:"model"`
	Key   string `json:"key"`
}

func boardRows(tb *tab, col int) []boardRow {
	tb.t.Helper()
	return eval[[]boardRow](tb, fmt.Sprintf(rowsJS, col, col, col))
}

func runsOf(rows []boardRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Run)
	}
	return out
}

// TestSortColumn clicks column headers of the leaderboard and reads the
// order of the rows before and after.
func TestSortColumn(t *testing.T) {
	t.Parallel()
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, "index.html")
	// Column 1 is the model (a text column), column 2 the board's view, the
	// composite score.
	before := boardRows(tb, 1)
	if len(before) < 3 {
		t.Fatalf("the first leaderboard table has %d rows; the test needs at least 3", len(before))
	}

	tb.do(clickCSS(`table.board thead th:nth-child(2) button.sort`))
	byModel := boardRows(tb, 1)
	if slices.Equal(runsOf(before), runsOf(byModel)) {
		t.Errorf("sorting by model did not reorder the rows: %v", runsOf(byModel))
	}
	if !sort.SliceIsSorted(byModel, func(i, j int) bool {
		return strings.ToLower(byModel[i].Model) < strings.ToLower(byModel[j].Model)
	}) {
		t.Errorf("rows are not in model order after one click: %v", byModel)
	}
	if got := eval[string](tb, `document.querySelector("table.board thead th:nth-child(2)").getAttribute("aria-sort")`); got != "ascending" {
		t.Errorf("aria-sort = %q after one click, want ascending", got)
	}
	// A run's intervention rows move with it: every row after the first of
	// a body is an intervention row, and there are some.
	if got := eval[string](tb, `(function () {
		const bodies = Array.from(document.querySelector("table.board").tBodies);
		const children = document.querySelectorAll("table.board tr.child").length;
		const ok = bodies.every(b => Array.from(b.rows).slice(1).every(r => r.classList.contains("child")) && !b.rows[0].classList.contains("child"));
		return children + " " + ok;
	})()`); got == "0 true" || strings.HasSuffix(got, "false") {
		t.Errorf("intervention rows after sorting: %q (count, all under their run)", got)
	}

	// The composite column, by keyboard this time: Enter on the focused
	// button sorts ascending, a second press descending.
	tb.do(focusCSS(`table.board thead th:nth-child(3) button.sort`), key("\r"))
	asc := boardRows(tb, 2)
	tb.do(key("\r"))
	desc := boardRows(tb, 2)
	ascKeys, descKeys := keysOf(t, asc), keysOf(t, desc)
	if !sort.Float64sAreSorted(ascKeys) {
		t.Errorf("composite ascending: keys %v not ascending", ascKeys)
	}
	if !sort.SliceIsSorted(descKeys, func(i, j int) bool { return descKeys[i] > descKeys[j] }) {
		t.Errorf("composite descending: keys %v not descending", descKeys)
	}
	if slices.Equal(runsOf(asc), runsOf(desc)) {
		t.Error("sorting the composite column twice did not reverse the rows")
	}
	if got := eval[string](tb, `document.querySelector("table.board thead th:nth-child(3)").getAttribute("aria-sort")`); got != "descending" {
		t.Errorf("aria-sort = %q after two presses, want descending", got)
	}
	if got := eval[string](tb, `document.querySelector("table.board thead th:nth-child(2)").getAttribute("aria-sort") || ""`); got != "" {
		t.Errorf("the model column still says aria-sort=%q after sorting another column", got)
	}
	tb.checkClean("index.html")
}

func keysOf(t *testing.T, rows []boardRow) []float64 {
	t.Helper()
	var out []float64
	for _, r := range rows {
		f, err := strconv.ParseFloat(r.Key, 64)
		if err != nil {
			t.Fatalf("row %s: sort key %q: %v", r.Run, r.Key, err)
		}
		out = append(out, f)
	}
	return out
}

// TestSwitchViewAndVariant follows the tabs of the leaderboard through
// every prompt variant and view and checks that each lands on its
// pre-rendered page, marked current.
func TestSwitchViewAndVariant(t *testing.T) {
	t.Parallel()
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, "index.html")
	type state struct {
		Path    string `json:"path"`
		Variant string `json:"variant"`
		View    string `json:"view"`
		Formula string `json:"formula"`
		Caption string `json:"caption"`
	}
	read := func() state {
		return eval[state](tb, `({
			path: location.pathname,
			variant: document.querySelector('nav[aria-label="Prompt variant"] a[aria-current="page"]').textContent,
			view: document.querySelector('nav[aria-label="View"] a[aria-current="page"]').textContent,
			formula: document.querySelector(".formula").textContent,
			caption: document.querySelector("table.board caption") ? document.querySelector("table.board caption").textContent : ""
		})`)
	}
	s := read()
	if s.Variant != "explicit" || s.View != "Composite" || !strings.HasSuffix(s.Path, "/index.html") {
		t.Fatalf("index.html shows %+v, want the explicit composite board", s)
	}
	steps := []struct {
		nav, label, variant, view, file string
	}{
		{"View", "Age", "explicit", "Age", "/board/explicit-age.html"},
		{"Prompt variant", "implicit", "implicit", "Age", "/board/implicit-age.html"},
		{"View", "Gender", "implicit", "Gender", "/board/implicit-gender.html"},
		{"View", "Race", "implicit", "Race", "/board/implicit-race.html"},
		{"View", "Composite", "implicit", "Composite", "/board/implicit-composite.html"},
		{"Prompt variant", "explicit", "explicit", "Composite", "/index.html"},
		{"View", "Race", "explicit", "Race", "/board/explicit-race.html"},
		{"View", "Gender", "explicit", "Gender", "/board/explicit-gender.html"},
	}
	for _, st := range steps {
		nav := `nav[aria-label="` + st.nav + `"]`
		idx := eval[int](tb, `Array.from(document.querySelectorAll('`+nav+` li > a:not([aria-current])')).findIndex(a => a.textContent === "`+st.label+`")`)
		if idx < 0 {
			t.Fatalf("%s: no %q tab to click in the %s switch", s.Path, st.label, st.nav)
		}
		idx = eval[int](tb, `Array.from(document.querySelectorAll('`+nav+` li > a')).findIndex(a => a.textContent === "`+st.label+`")`)
		tb.clickAndLoad(fmt.Sprintf("%s li:nth-child(%d) > a", nav, idx+1))
		s = read()
		if !strings.HasSuffix(s.Path, st.file) || s.Variant != st.variant || s.View != st.view {
			t.Errorf("after clicking %s %q: at %s showing %s/%s, want %s showing %s/%s", st.nav, st.label, s.Path, s.Variant, s.View, st.file, st.variant, st.view)
		}
		if !strings.Contains(s.Formula, "("+st.variant+" prompts)") || !strings.Contains(s.Formula, st.view+" view") {
			t.Errorf("%s: the formula line says %q", s.Path, s.Formula)
		}
		if s.Caption != "" && !strings.Contains(s.Caption, "ranked by the "+strings.ToLower(st.view)+" view") {
			t.Errorf("%s: the table caption says %q", s.Path, s.Caption)
		}
		tb.checkClean(s.Path)
	}
}

// TestSortKeepsHeaderLinks sorts the comparison page's runs by their
// female coefficient on the question: every run's heading keeps its link
// and its second line, and the rows come in the order of that column
// (signed, with a true minus sign).
func TestSortKeepsHeaderLinks(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, p.Compare)
	type head struct {
		Columns int `json:"columns"`
		Buttons int `json:"buttons"`
		Rows    int `json:"rows"`
		Links   int `json:"links"`
		Subs    int `json:"subs"`
		Female  int `json:"female"`
	}
	const table = `document.querySelector("table.compare")`
	count := `({
		columns: ` + table + `.tHead.rows[0].cells.length,
		buttons: ` + table + `.querySelectorAll("thead th button.sort").length,
		rows: ` + table + `.tBodies[0].rows.length,
		links: ` + table + `.querySelectorAll("tbody th a:not(.flag)").length,
		subs: ` + table + `.querySelectorAll("tbody th .sub").length,
		female: Array.from(` + table + `.tHead.rows[0].cells).findIndex(th => th.textContent.trim().startsWith("female")),
	})`
	h := eval[head](tb, count)
	if h.Columns < 3 || h.Buttons != h.Columns || h.Rows < 2 || h.Links != h.Rows || h.Subs != h.Rows || h.Female < 1 {
		t.Fatalf("%s: %d columns, %d sort buttons, %d runs, %d run links, %d second lines, female column %d; want a button per column, a link and a second line per run", p.Compare, h.Columns, h.Buttons, h.Rows, h.Links, h.Subs, h.Female)
	}
	tb.do(clickCSS(fmt.Sprintf(`table.compare thead th:nth-child(%d) button.sort`, h.Female+1)))
	vals := eval[[]string](tb, `Array.from(`+table+`.tBodies[0].rows).map(r => r.cells[`+strconv.Itoa(h.Female)+`].textContent.trim())`)
	var keys []float64
	for _, v := range vals {
		f, err := strconv.ParseFloat(strings.NewReplacer("\u2212", "-", "+", "").Replace(v), 64)
		if err != nil {
			continue // a missing value sorts last
		}
		keys = append(keys, f)
	}
	if len(keys) < 2 || !sort.Float64sAreSorted(keys) {
		t.Errorf("%s sorted by the female coefficient: not ascending: %v", p.Compare, keys)
	}
	if after := eval[head](tb, count); after != h {
		t.Errorf("%s after sorting: %+v, before %+v", p.Compare, after, h)
	}
	tb.checkClean(p.Compare)
}
