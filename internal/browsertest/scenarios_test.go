package browsertest

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestSortScenarioViews clicks the scenarios page's per-scenario view
// columns ("… gap, own": a value with its interval under it) and requires
// the rows in that column's order, ascending then descending, with every
// question still there.
func TestSortScenarioViews(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	page := "runs/" + p.RunID + "/scenarios.html"
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, page)
	heads := eval[[]string](tb, `Array.from(document.querySelectorAll("table.sortable thead th")).map(th => th.textContent)`)
	var own []int
	for i, h := range heads {
		if strings.Contains(h, "gap, own") {
			own = append(own, i+1)
		}
	}
	if len(own) != 4 {
		t.Fatalf("%s: %d own-view columns in %q, want 4", page, len(own), heads)
	}
	// rows reads each row's question and the column's value (the number
	// before its interval; NaN shown as "—" sorts last as sort.js does).
	type row struct {
		Q string  `json:"q"`
		V float64 `json:"v"`
	}
	rows := func(c int) []row {
		return eval[[]row](tb, `Array.from(document.querySelectorAll("table.sortable tbody tr")).map(tr => {
			const td = tr.cells[`+strconv.Itoa(c-1)+`];
			const f = parseFloat(td.firstChild.textContent.replace("\u2212", "-"));
			return {q: tr.cells[0].dataset.sort, v: isNaN(f) ? 1e9 : f};
		})`)
	}
	before := rows(own[0])
	if len(before) < 3 {
		t.Fatalf("%s: %d rows", page, len(before))
	}
	qs := func(rs []row) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Q)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range own {
		sel := `table.sortable thead th:nth-child(` + strconv.Itoa(c) + `) button.sort`
		tb.do(clickCSS(sel))
		asc := rows(c)
		if !sort.SliceIsSorted(asc, func(i, j int) bool { return asc[i].V < asc[j].V }) {
			t.Errorf("%s: column %q after one click is not ascending: %v", page, heads[c-1], asc)
		}
		tb.do(clickCSS(sel))
		desc := rows(c)
		if !sort.SliceIsSorted(desc, func(i, j int) bool { return desc[i].V > desc[j].V }) {
			t.Errorf("%s: column %q after two clicks is not descending: %v", page, heads[c-1], desc)
		}
		if !slices.Equal(qs(asc), qs(before)) || !slices.Equal(qs(desc), qs(before)) {
			t.Errorf("%s: sorting by %q lost or repeated questions", page, heads[c-1])
		}
		if asc[0].V == asc[len(asc)-1].V {
			t.Errorf("%s: column %q has one value in every row: the sort is not tested", page, heads[c-1])
		}
	}
	tb.checkClean(page)
}
