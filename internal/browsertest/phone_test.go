package browsertest

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// phone is the viewport of a small phone (CSS pixels): iPhone SE.
const phoneW, phoneH = 375, 667

// checkFirstScreen requires the first row's rank, model and score of a
// board to be on a phone's second screen at the latest (TestPages: at
// 375 × 667; the first holds the board's summary, which names that run,
// checkSummary), not covered by anything when scrolled to, and the page
// not to scroll sideways.
func checkFirstScreen(t *testing.T, tb *tab, v visit) {
	page := v.page
	type cell struct {
		Name   string  `json:"name"`
		Text   string  `json:"text"`
		Left   float64 `json:"left"`
		Right  float64 `json:"right"`
		Bottom float64 `json:"bottom"`
		OnTop  bool    `json:"onTop"`
	}
	type screen struct {
		Cells  []cell `json:"cells"`
		Scroll int    `json:"scroll"`
		Width  int    `json:"width"`
		Table  int    `json:"table"`
	}
	s := eval[screen](tb, `(() => {
		const row = document.querySelector("table.board tbody tr");
		// Scrolled by one screen, as a reader's thumb does, then back.
		window.scrollTo(0, innerHeight);
		const shift = scrollY;
		const read = (name, el) => {
			const range = document.createRange();
			range.selectNodeContents(el);
			const r = range.getBoundingClientRect();
			const hit = document.elementFromPoint(r.left + Math.min(r.width, 20) / 2, r.top + Math.min(r.height, 20) / 2);
			return {name, text: el.textContent.trim(), left: r.left, right: r.right, bottom: r.bottom + shift, onTop: !!hit && el.contains(hit)};
		};
		const out = {
			cells: [read("rank", row.cells[0]), read("model", row.querySelector("th a")), read("score", row.querySelector("td.current .num"))],
			scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
			table: Math.round(document.querySelector("table.board").getBoundingClientRect().width),
		};
		window.scrollTo(0, 0);
		return out;
	})()`)
	for _, c := range s.Cells {
		if c.Bottom > float64(2*v.height) || c.Left < 0 || c.Right > float64(v.width) || !c.OnTop {
			t.Errorf("%s at %d × %d: the first row's %s %q is not in the first two screens (left %.0f, right %.0f, bottom %.0f, visible %v)",
				page, v.width, v.height, c.Name, c.Text, c.Left, c.Right, c.Bottom, c.OnTop)
		}
	}
	if s.Scroll > s.Width {
		t.Errorf("%s: the page is %d px wide at %d px", page, s.Scroll, s.Width)
	}
	t.Logf("%s at %d px: board table %d px wide, first score at bottom %.0f px", page, v.width, s.Table, s.Cells[2].Bottom)
}

// boardState is what a reader sees of the board's filters.
type boardState struct {
	Hash    string   `json:"hash"`
	Shown   []string `json:"shown"`
	Total   int      `json:"total"`
	Output  string   `json:"output"`
	Columns []string `json:"columns"` // the first table's visible column keys
	Order   []string `json:"order"`   // the first table's runs, in order
	Tab     string   `json:"tab"`     // the href of the first other-view tab
	Child   int      `json:"child"`   // intervention rows shown
}

const boardStateJS = `(() => {
	const bodies = Array.from(document.querySelectorAll("table.board tbody"));
	const shown = b => !b.hidden && b.offsetParent !== null;
	return {
		hash: location.hash,
		shown: bodies.filter(shown).map(b => b.rows[0].id),
		total: bodies.length,
		output: document.querySelector("#board-filters output").textContent,
		columns: Array.from(document.querySelector("table.board thead tr").cells).filter(c => c.offsetParent !== null && getComputedStyle(c).display !== "none").map(c => c.dataset.col),
		order: Array.from(document.querySelector("table.board").tBodies).map(b => b.rows[0].id),
		tab: document.querySelector('nav[aria-label="View"] a:not([aria-current])').getAttribute("href"),
		child: Array.from(document.querySelectorAll("table.board tr.child")).filter(r => !r.hidden && r.offsetParent !== null).length,
	};
})()`

func readBoard(tb *tab) boardState {
	tb.t.Helper()
	return eval[boardState](tb, boardStateJS)
}

// setField sets a control of the board's form as a reader would, firing
// input and change.
func setField(tb *tab, sel, js string) {
	tb.t.Helper()
	eval[bool](tb, `(() => { const el = document.querySelector('#board-filters `+sel+`'); `+js+`;
		el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
}

// TestBoardFilters searches, filters, hides a column and sorts the
// leaderboard at phone width, and checks the rows and columns shown, the
// address, a fresh load of that address, and the tabs carrying it.
func TestBoardFilters(t *testing.T) {
	t.Parallel()
	tb := newTab(t, phoneW, phoneH, "light")
	tb.open(siteDir, "index.html")
	s := readBoard(tb)
	if s.Total < 3 || len(s.Shown) != s.Total || s.Hash != "" || s.Child == 0 {
		t.Fatalf("index.html before filtering: %d of %d runs shown, %d intervention rows, address %q", len(s.Shown), s.Total, s.Child, s.Hash)
	}
	all := s

	// Search by a model's name: only its runs stay.
	setField(tb, `input[name="q"]`, `el.value = "skew"`)
	s = readBoard(tb)
	if len(s.Shown) == 0 || len(s.Shown) == s.Total {
		t.Errorf("search skew: %d of %d runs shown", len(s.Shown), s.Total)
	}
	for _, id := range s.Shown {
		if !strings.Contains(id, "skew") {
			t.Errorf("search skew: run %s is shown", id)
		}
	}
	if s.Hash != "#filter?q=skew" || !strings.HasPrefix(s.Output, "1 of ") && !strings.HasPrefix(s.Output, "2 of ") {
		t.Errorf("search skew: address %q, count %q", s.Hash, s.Output)
	}
	if !strings.HasSuffix(s.Tab, "#filter?q=skew") {
		t.Errorf("search skew: the view tab links to %q, without the search", s.Tab)
	}

	// Hide the interventions and the age column; sort by race, descending.
	setField(tb, `input[name="q"]`, `el.value = ""`)
	setField(tb, `select[name="interventions"]`, `el.value = "hide"`)
	setField(tb, `input[name="col"][value="age"]`, `el.checked = false`)
	// Clicked from script: at this width the column's heading is off to
	// the right, under nothing a pointer could reach without scrolling.
	for i := 0; i < 2; i++ {
		eval[bool](tb, `(document.querySelector('table.board thead th[data-col="race"] button.sort').click(), true)`)
	}
	s = readBoard(tb)
	if s.Child != 0 || len(s.Shown) != s.Total {
		t.Errorf("interventions hidden: %d intervention rows and %d of %d runs shown", s.Child, len(s.Shown), s.Total)
	}
	for _, c := range s.Columns {
		if c == "age" {
			t.Errorf("the age column is still shown: %v", s.Columns)
		}
	}
	const want = "#filter?interventions=hide&hide=age&sort=race&dir=desc"
	if s.Hash != want {
		t.Errorf("address %q, want %q", s.Hash, want)
	}
	sorted := s.Order
	if strings.Join(sorted, " ") == strings.Join(all.Order, " ") {
		t.Errorf("sorting by race did not reorder the runs: %v", sorted)
	}

	// The same state from the link, on a fresh load.
	tb.open(siteDir, "index.html"+want)
	s = readBoard(tb)
	if s.Child != 0 || strings.Join(s.Order, " ") != strings.Join(sorted, " ") || len(s.Columns) != len(all.Columns)-1 {
		t.Errorf("from the link: %d intervention rows, order %v (want %v), columns %v", s.Child, s.Order, sorted, s.Columns)
	}
	// The size filter, from the phone's form: runs under 10B alone.
	setField(tb, `select[name="size"]`, `el.value = "under-10b"`)
	s = readBoard(tb)
	for _, id := range s.Shown {
		p := eval[string](tb, `document.getElementById("`+id+`").closest("tbody").dataset.params || ""`)
		if n, err := strconv.ParseFloat(p, 64); err != nil || n >= 10e9 {
			t.Errorf("size under 10B: run %s of %q parameters shown", id, p)
		}
	}
	if len(s.Shown) == 0 || len(s.Shown) == s.Total || !strings.Contains(s.Hash, "size=under-10b") {
		t.Errorf("size under 10B: %d of %d runs shown, address %q", len(s.Shown), s.Total, s.Hash)
	}
	setField(tb, `select[name="size"]`, `el.value = ""`)
	// A filter that leaves nothing: synthetic runs hidden on a demo site.
	setField(tb, `select[name="synthetic"]`, `el.value = "only"`)
	if s = readBoard(tb); len(s.Shown) == 0 {
		t.Errorf("synthetic runs only: no run shown on a site of synthetic runs")
	}
	tb.checkClean("index.html")
}

// checkMitigationFits requires the mitigation page's paired comparisons
// to fit a phone's width without scrolling sideways.
func checkMitigationFits(t *testing.T, tb *tab, v visit) {
	widths := eval[[]int](tb, `Array.from(document.querySelectorAll("table.pair")).map(t => Math.round(t.getBoundingClientRect().width))`)
	inner := eval[int](tb, `document.documentElement.clientWidth`)
	if len(widths) == 0 {
		t.Skip("this site has no paired comparisons")
	}
	for i, w := range widths {
		if w > inner-10 {
			t.Errorf("%s at %d px: paired comparison %d is %d px wide, wider than the page (%d px)", v.page, v.width, i+1, w, inner)
		}
	}
	t.Logf("%s at %d px: paired comparisons %v px wide", v.page, v.width, widths)
}

// checkCards: at a phone's width (TestPages: every board at 375 px, light
// and dark) each row of the board is a card that shows every one of its
// cells inside the screen, without scrolling sideways (the table is no
// wider than its box), and every score is labelled with its column's
// heading. At 1280 px (TestPages: index.html) the board is a table again,
// one line of cells per run.
func checkCards(t *testing.T, tb *tab, v visit) {
	type board struct {
		Wrap, Client int
		Rows         int
		Outside      []string
		Unlabelled   []string
		Tops         int // distinct tops of a first row's cells
	}
	const js = `(() => {
		const t = document.querySelector("table.board"), w = t.closest(".table-wrap");
		const out = [], unl = [], vw = document.documentElement.clientWidth;
		let rows = 0;
		for (const r of t.querySelectorAll("tbody tr")) {
			if (r.offsetParent === null) continue;
			rows++;
			for (const c of r.cells) {
				if (getComputedStyle(c).display === "none" || !c.textContent.trim()) continue;
				const b = c.getBoundingClientRect();
				if (b.left < 0 || b.right > vw + 0.5) out.push(r.id + " " + (c.dataset.label || c.tagName) + " " + Math.round(b.left) + "–" + Math.round(b.right));
				if (c.classList.contains("current") || /^c-(age|gender|race|composite)$/.test(c.className.split(" ").find(x => x.startsWith("c-")) || "")) {
					const label = getComputedStyle(c, "::before").content;
					if (!label || label === "none" || label === "normal") unl.push(r.id + " " + c.className);
				}
			}
		}
		const first = t.querySelector("tbody tr");
		const tops = new Set(Array.from(first.cells).filter(c => getComputedStyle(c).display !== "none").map(c => Math.round(c.getBoundingClientRect().top)));
		return {wrap: w.scrollWidth, client: w.clientWidth, rows, outside: out.slice(0, 8), unlabelled: unl.slice(0, 8), tops: tops.size};
	})()`
	page, scheme := v.page, v.scheme
	b := eval[board](tb, js)
	if v.width >= 1280 {
		if b.Tops != 1 || b.Wrap > b.Client {
			t.Errorf("%s at %d px: the first row's cells sit on %d lines (want one: a table), board %d px in %d", page, v.width, b.Tops, b.Wrap, b.Client)
		}
		return
	}
	if b.Rows == 0 {
		t.Fatalf("%s: no board rows", page)
	}
	if b.Wrap > b.Client || len(b.Outside) > 0 {
		t.Errorf("%s (%s) at %d px: the board is %d px wide in a %d px box; cells outside the screen: %v", page, scheme, v.width, b.Wrap, b.Client, b.Outside)
	}
	if len(b.Unlabelled) > 0 {
		t.Errorf("%s (%s) at %d px: scores without their column's label: %v", page, scheme, v.width, b.Unlabelled)
	}
	if b.Tops < 3 {
		t.Errorf("%s (%s) at %d px: the first row's cells sit on %d lines: not a card", page, scheme, v.width, b.Tops)
	}
}

// cueCounts is the check that cue.js runs as a browser without
// scroll-state container queries would (CSS.supports answering no), at
// 375 px (TestPages: methodology, rubric, provenance and scenarios
// pages): exactly the table boxes wider than their screen are marked
// "overflows" — the class the stylesheet's fallback cue keys on — and,
// over the pages (total), some boxes overflow and some fit. It changes
// the page (it runs cue.js again, as if without scroll-state queries).
type cueCounts struct {
	mu         sync.Mutex
	over, fits int
}

func (c *cueCounts) check(t *testing.T, tb *tab, v visit) {
	type marks struct {
		Wrong       []string
		Over, Fits  int
		HTMLClassed bool
	}
	const js = `new Promise(done => {
		const src = document.querySelector('script[src$="cue.js"]').src;
		CSS.supports = () => false;
		const s = document.createElement("script");
		s.src = src;
		s.onload = () => requestAnimationFrame(() => {
			const wrong = [];
			let over = 0, fits = 0;
			for (const b of document.querySelectorAll(".table-wrap, .prose table")) {
				if (b.offsetParent === null) continue;
				const o = b.scrollWidth > b.clientWidth + 1;
				if (o) over++; else fits++;
				if (o !== b.classList.contains("overflows")) wrong.push((b.querySelector("caption") || b).textContent.slice(0, 60) + ": " + b.scrollWidth + "/" + b.clientWidth);
			}
			done({wrong, over, fits, htmlClassed: document.documentElement.classList.contains("cue-js")});
		});
		document.body.appendChild(s);
	})`
	page := v.page
	m := eval[marks](tb, js)
	if !m.HTMLClassed {
		t.Errorf("%s: cue.js did not run as without scroll-state queries", page)
	}
	for _, w := range m.Wrong {
		t.Errorf("%s: marked wrongly (scroll width / box width): %s", page, w)
	}
	c.mu.Lock()
	c.over += m.Over
	c.fits += m.Fits
	c.mu.Unlock()
	t.Logf("%s: %d boxes overflow, %d fit", page, m.Over, m.Fits)
}

// total requires, over the pages checked, boxes that overflow and boxes
// that fit, so that the check sees both.
func (c *cueCounts) total(t *testing.T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over == 0 || c.fits == 0 {
		t.Errorf("scroll cue: %d boxes overflowing and %d fitting: the test no longer sees both", c.over, c.fits)
	}
}

// checkGroupPlots: the group page's per-group plots (the narrow dot
// plots, chart.DotNarrowWidth) fit a 320 and a 375 px phone with no
// sideways scroll in their boxes, at a size where their smallest text (12
// units) is at least 11 px, all shown at one width (one scale on screen);
// at 1280 px they stand side by side.
func checkGroupPlots(t *testing.T, tb *tab, v visit) {
	type plots struct {
		Page, Inner int
		Widths      []float64
		Scales      []float64
		Scrolling   []string
		Tops        []float64
	}
	const js = `(() => {
		const vw = document.documentElement.clientWidth, out = {page: document.documentElement.scrollWidth, inner: vw, widths: [], scales: [], scrolling: [], tops: []};
		for (const svg of document.querySelectorAll(".group-plots svg")) {
			const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal.width;
			out.widths.push(Math.round(r.width * 10) / 10);
			out.scales.push(r.width / vb);
			out.tops.push(Math.round(r.top));
			for (let e = svg; e && e !== document.body; e = e.parentElement) {
				if (e.scrollWidth > e.clientWidth + 1 || r.right > vw + 1 || r.left < -1) { out.scrolling.push(svg.id + " in " + e.tagName + "." + e.className); break; }
			}
		}
		return out;
	})()`
	page, width := v.page, v.width
	p := eval[plots](tb, js)
	if len(p.Widths) < 7 {
		t.Fatalf("%s: %d plots", page, len(p.Widths))
	}
	if p.Page > p.Inner || len(p.Scrolling) > 0 {
		t.Errorf("%s at %d px: page %d px in a %d px window; plots that scroll or stick out: %v", page, width, p.Page, p.Inner, p.Scrolling)
	}
	for i, s := range p.Scales {
		if 12*s < 11 || p.Widths[i] != p.Widths[0] {
			t.Errorf("%s at %d px: plot %d is %v px wide (its 12-unit text at %.1f px), the first %v", page, width, i, p.Widths[i], 12*s, p.Widths[0])
		}
	}
	if width == 1280 && p.Tops[1] != p.Tops[0] {
		t.Errorf("%s at 1280 px: the first two plots are not side by side (tops %v, %v)", page, p.Tops[0], p.Tops[1])
	}
}
