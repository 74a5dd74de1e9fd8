package browsertest

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// timeChartJS reads the composite board's chart over time as shown: the
// layout the screen shows (the wide one at 1280 px, the narrow one on a
// phone) and the one it hides, the dots and the runs of the first table
// that have a release date, where the chart and its dots lie, and the
// size its text is shown at.
const timeChartJS = `(() => {
	const fig = document.querySelector("figure[id^=over-time-]");
	if (!fig) { return {found: false}; }
	const shown = Array.from(fig.querySelectorAll("svg")).filter(s => s.getBoundingClientRect().width > 0);
	const svg = shown[0];
	const box = svg ? svg.getBoundingClientRect() : {left: 0, right: 0, width: 0};
	const dots = svg ? Array.from(svg.querySelectorAll("circle[data-run]")) : [];
	const out = dots.filter(c => { const r = c.getBoundingClientRect(); return r.left < box.left - 1 || r.right > box.right + 1 || r.width === 0; });
	const table = document.querySelector("table.board");
	const dated = Array.from(table.tBodies).filter(b => b.rows[0].querySelector("td.c-released").dataset.sort).map(b => b.rows[0].id);
	const scale = svg ? box.width / svg.viewBox.baseVal.width : 0;
	const texts = svg ? Array.from(svg.querySelectorAll("text")).map(t => parseFloat(getComputedStyle(t).fontSize) * scale) : [];
	return {
		found: true, shown: shown.length, kind: svg ? svg.getAttribute("class") : "",
		left: box.left, right: box.right, width: document.documentElement.clientWidth,
		dots: dots.map(c => c.getAttribute("data-run")), outside: out.length, dated,
		smallest: texts.length ? Math.min(...texts) : 0,
		caption: fig.querySelector("figcaption").textContent,
	};
})()`

type timeChart struct {
	Found     bool     `json:"found"`
	Shown     int      `json:"shown"`
	Kind      string   `json:"kind"`
	LeftEdge  float64  `json:"left"`
	RightEdge float64  `json:"right"`
	Width     float64  `json:"width"`
	Dots      []string `json:"dots"`
	Dated     []string `json:"dated"`
	Outside   int      `json:"outside"`
	Smallest  float64  `json:"smallest"`
	Caption   string   `json:"caption"`
}

// checkTimeChart: the composite board's chart over time shows one of its
// two layouts, the narrow one on a phone and the wide one at 1280 px,
// inside the screen, with a dot for each ranked run of the first table
// whose model has a release date and for no other, every dot inside the
// chart, and its text no smaller than 11 px. TestPages runs it on
// index.html at 375 and 1280 px.
func checkTimeChart(t *testing.T, tb *tab, v visit) {
	c := eval[timeChart](tb, timeChartJS)
	if !c.Found {
		t.Fatalf("%s: no chart over time (figure#over-time-…)", v.page)
	}
	want := "chart chart-time"
	if v.width < 600 {
		want = "chart chart-time-narrow"
	}
	if c.Shown != 1 || c.Kind != want {
		t.Errorf("%s at %d px: %d layouts of the chart shown, %q; want one, %q", v.page, v.width, c.Shown, c.Kind, want)
	}
	if c.LeftEdge < 0 || c.RightEdge > c.Width {
		t.Errorf("%s at %d px: the chart spans %.0f–%.0f px, outside the %0.f px screen", v.page, v.width, c.LeftEdge, c.RightEdge, c.Width)
	}
	if strings.Join(slices.Sorted(slices.Values(c.Dots)), " ") != strings.Join(slices.Sorted(slices.Values(c.Dated)), " ") || len(c.Dots) == 0 {
		t.Errorf("%s at %d px: dots for %v, want one for each dated run of the table, %v", v.page, v.width, c.Dots, c.Dated)
	}
	if c.Outside > 0 {
		t.Errorf("%s at %d px: %d dots outside the chart", v.page, v.width, c.Outside)
	}
	if c.Smallest < 11 {
		t.Errorf("%s at %d px: the chart's smallest text is shown at %.1f px, under 11", v.page, v.width, c.Smallest)
	}
	if !strings.Contains(c.Caption, "each of "+strconv.Itoa(len(c.Dots))+" ranked runs") {
		t.Errorf("%s: the caption does not count the %d runs charted: %q", v.page, len(c.Dots), c.Caption)
	}
	t.Logf("%s at %d px: %s, %d dots, smallest text %.1f px", v.page, v.width, c.Kind, len(c.Dots), c.Smallest)
}

// checkSizeFilter sets the board's size and weights filters and reads the
// runs and the chart's dots shown: only runs of the size (data-params), a
// dot for each shown run of the page and none for a hidden one, the state
// in the address; then Clear shows every run again. It changes the page
// (TestPages: index.html at 1280 px, last).
func checkSizeFilter(t *testing.T, tb *tab, v visit) {
	type state struct {
		Hash   string   `json:"hash"`
		Shown  []string `json:"shown"`
		Params []string `json:"params"`
		Weight []string `json:"weights"`
		Dots   []string `json:"dots"`
		Hidden []string `json:"hidden"`
		Total  int      `json:"total"`
	}
	const js = `(() => {
		const bodies = Array.from(document.querySelectorAll("table.board tbody")).filter(b => !b.hidden && b.offsetParent !== null);
		const dots = Array.from(document.querySelectorAll("#board svg circle[data-run]")).filter(c => c.closest("svg").getBoundingClientRect().width > 0);
		return {hash: location.hash, shown: bodies.map(b => b.rows[0].id), params: bodies.map(b => b.dataset.params || ""),
			weights: bodies.map(b => b.dataset.weights),
			dots: dots.filter(c => c.style.display !== "none").map(c => c.getAttribute("data-run")),
			hidden: dots.filter(c => c.style.display === "none").map(c => c.getAttribute("data-run")),
			total: document.querySelectorAll("table.board tbody").length};
	})()`
	read := func() state { return eval[state](tb, js) }
	all := read()
	if len(all.Hidden) > 0 || len(all.Shown) != all.Total {
		t.Fatalf("%s before filtering: %d of %d runs shown, dots hidden %v", v.page, len(all.Shown), all.Total, all.Hidden)
	}
	setField(tb, `select[name="size"]`, `el.value = "10b-100b"`)
	s := read()
	if len(s.Shown) == 0 || len(s.Shown) == all.Total {
		t.Errorf("size 10B to 100B: %d of %d runs shown", len(s.Shown), all.Total)
	}
	for i, p := range s.Params {
		if n, err := strconv.ParseFloat(p, 64); err != nil || n < 10e9 || n >= 100e9 {
			t.Errorf("size 10B to 100B: run %s of %q parameters shown", s.Shown[i], p)
		}
	}
	if s.Hash != "#filter?size=10b-100b" {
		t.Errorf("size 10B to 100B: the address says %q", s.Hash)
	}
	shown := map[string]bool{}
	for _, id := range s.Shown {
		shown[id] = true
	}
	for _, id := range s.Dots {
		if !shown[id] {
			t.Errorf("size 10B to 100B: the chart still marks %s, whose row is hidden", id)
		}
	}
	if len(s.Hidden) == 0 {
		t.Errorf("size 10B to 100B: no dot of the chart hidden")
	}
	setField(tb, `select[name="weights"]`, `el.value = "closed"`)
	s = read()
	for i, w := range s.Weight {
		if w != "closed" {
			t.Errorf("closed weights: run %s with %s weights shown", s.Shown[i], w)
		}
	}
	if s.Hash != "#filter?weights=closed&size=10b-100b" {
		t.Errorf("closed weights: the address says %q", s.Hash)
	}
	eval[bool](tb, `(document.querySelector('#board-filters button[type="reset"]').click(), true)`)
	eval[bool](tb, `new Promise(r => setTimeout(() => r(true), 50))`)
	if s = read(); len(s.Shown) != all.Total || len(s.Hidden) > 0 || s.Hash != "" {
		t.Errorf("after Clear: %d of %d runs shown, dots hidden %v, address %q", len(s.Shown), all.Total, s.Hidden, s.Hash)
	}
}
