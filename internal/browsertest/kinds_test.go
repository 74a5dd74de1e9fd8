package browsertest

import (
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site"
)

// kindPages maps each page kind (site.PageKinds, the one table of kinds)
// to pages of that kind in the site built from the committed runs: the
// pages picked below for what they show, each checked to be of its kind
// by site.PageKind, and for a kind none is picked for, its first page.
func kindPages(t *testing.T) map[string][]string {
	p := sitePages(t)
	picked := []string{"methodology.html", "pages/about.html", "index.html", "board/explicit-race.html", "board/implicit-composite.html",
		p.Compare, p.Prompt, p.Run, "runs/elder-3b-explicit/index.html", "runs/fair-7b-explicit-sampled/index.html",
		"runs/" + p.RunID + "/provenance.html", "runs/" + p.RunID + "/scenarios.html", p.Scenario, "runs/" + p.RunID + "/swings.html", p.Transcripts}
	m := map[string][]string{}
	for _, page := range existing(picked...) {
		kind, ok := site.PageKind(page)
		if !ok {
			t.Fatalf("%s is of no page kind (site.PageKind)", page)
		}
		m[kind] = append(m[kind], page)
	}
	var all []string
	err := fs.WalkDir(os.DirFS(siteDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(all)
	for _, page := range all {
		if kind, ok := site.PageKind(page); ok && len(m[kind]) == 0 {
			m[kind] = []string{page}
		}
	}
	return m
}

// phoneLayout is what checkPhoneLayout measures of a page.
type phoneLayout struct {
	Body  int        `json:"body"`  // the document's scroll width
	Width int        `json:"width"` // the viewport's
	Wide  []string   `json:"wide"`  // elements outside the viewport, not in a scrolling box
	Wraps []wrapInfo `json:"wraps"` // the scrolling boxes wider than their content box
}

type wrapInfo struct {
	What   string `json:"what"`
	Scroll int    `json:"scroll"`
	Client int    `json:"client"`
	Cue    string `json:"cue"` // the cue shown, "" when none
}

// phoneLayoutJS measures the page; a scrolling box's cue is the text of
// its ::before (site.css shows it while there is more to one side).
const phoneLayoutJS = `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
	const vw = document.documentElement.clientWidth;
	const wide = [];
	for (const el of document.querySelectorAll("body *")) {
		if (el.closest(".table-wrap, pre, .chart-wide, .prose table") && !el.matches(".table-wrap, pre, .chart-wide, .prose table")) continue;
		const r = el.getBoundingClientRect();
		if (r.width > 0 && (r.right > vw + 1 || r.left < -1) && !el.matches(".skip, .vh, .vh *")) {
			wide.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " right=" + Math.round(r.right));
		}
	}
	const wraps = [];
	for (const w of document.querySelectorAll(".table-wrap, .prose table")) {
		if (!w.checkVisibility() || w.scrollWidth <= w.clientWidth + 1) continue;
		const b = getComputedStyle(w, "::before");
		let cue = "";
		if (b.display !== "none" && b.content && b.content !== "none" && b.content !== "normal") cue = b.content;
		const t = w.querySelector("table, svg");
		wraps.push({what: t ? t.tagName.toLowerCase() + (t.getAttribute("class") ? "." + t.getAttribute("class") : "") : "?", scroll: w.scrollWidth, client: w.clientWidth, cue});
	}
	done({body: document.documentElement.scrollWidth, width: vw, wide: wide.slice(0, 8), wraps});
})))`

// checkPhoneLayout: at a phone's width (TestPages: a page of every page
// kind at 375 px, in light and dark mode) the page never scrolls sideways,
// and a table wider than its box (which then scrolls inside it) shows a
// cue saying so.
func checkPhoneLayout(t *testing.T, tb *tab, v visit) {
	page, scheme := v.page, v.scheme
	l := eval[phoneLayout](tb, phoneLayoutJS)
	if l.Body > l.Width || len(l.Wide) > 0 {
		t.Errorf("%s (%s) at %d px: the page is %d px wide; outside the screen: %v", page, scheme, v.width, l.Body, l.Wide)
	}
	for _, w := range l.Wraps {
		if w.Cue == "" {
			t.Errorf("%s (%s): a %s is %d px wide in a %d px box with no cue that it scrolls", page, scheme, w.What, w.Scroll, w.Client)
		}
	}
	if scheme == "light" {
		var ws []string
		for _, w := range l.Wraps {
			ws = append(ws, w.What+" "+strconv.Itoa(w.Scroll)+"/"+strconv.Itoa(w.Client))
		}
		t.Logf("%s: body %d px; scrolling tables: %v", page, l.Body, ws)
	}
}

// checkNotFound opens 404.html from file://, as a reader opening the
// built folder would: it is styled (its inline stylesheet), and its links
// lead to pages of the folder, not to the file system's root as
// base_path's "/" would.
func checkNotFound(t *testing.T, tb *tab, v visit) {
	type nf struct {
		Styled bool     `json:"styled"`
		Links  []string `json:"links"`
	}
	got := eval[nf](tb, `({styled: getComputedStyle(document.body).maxWidth !== "none",
		links: Array.from(document.querySelectorAll("main a, header a")).map(a => a.href)})`)
	if !got.Styled {
		t.Errorf("%s from file:// is not styled", v.page)
	}
	root := FileURL(v.dir, "")
	for _, l := range got.Links {
		if !strings.HasPrefix(l, root) {
			t.Errorf("%s from file:// links to %s, outside the site folder %s", v.page, l, root)
		}
	}
	if len(got.Links) < 3 {
		t.Errorf("%s has %d links", v.page, len(got.Links))
	}
}

// TestFiltersFilterEverything: the board's search and filters apply to
// everything under them, the charts as well as the tables, and a filter
// that leaves no run says what to change instead of showing empty tables.
func TestFiltersFilterEverything(t *testing.T) {
	t.Parallel()
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, "index.html")
	type state struct {
		Rows   []string `json:"rows"`   // runs shown in the tables
		Chart  []string `json:"chart"`  // runs plotted in the visible charts, each once
		Tables int      `json:"tables"` // tables in view
		Charts int      `json:"charts"` // charts in view
		Empty  string   `json:"empty"`  // the empty state, when shown
	}
	const js = `(() => {
		const vis = el => el.checkVisibility();
		return {
			rows: Array.from(document.querySelectorAll("table.board tbody")).filter(vis).map(b => b.rows[0].id),
			chart: [...new Set(Array.from(document.querySelectorAll("#board svg [data-run]")).filter(g => getComputedStyle(g).display !== "none" && g.closest("svg").checkVisibility()).map(g => g.getAttribute("data-run")))],
			tables: Array.from(document.querySelectorAll("table.board")).filter(vis).length,
			charts: Array.from(document.querySelectorAll("#board .chart-fig")).filter(vis).length,
			empty: (() => { const e = document.querySelector("#board-filters .empty"); return e && vis(e) ? e.textContent : ""; })(),
		};
	})()`
	all := eval[state](tb, js)
	if len(all.Chart) < 3 || all.Empty != "" {
		t.Fatalf("index.html unfiltered: %d runs charted, empty state %q", len(all.Chart), all.Empty)
	}
	setField(tb, `input[name="q"]`, `el.value = "skew"`)
	s := eval[state](tb, js)
	shown := map[string]bool{}
	for _, id := range s.Rows {
		shown[id] = true
	}
	charted := map[string]bool{}
	for _, id := range all.Chart {
		charted[id] = true
	}
	var want []string
	for _, id := range s.Rows {
		if charted[id] {
			want = append(want, id)
		}
	}
	if strings.Join(s.Chart, " ") != strings.Join(want, " ") || len(s.Chart) == 0 {
		t.Errorf("search skew: the tables show %v, the chart plots %v; want the chart to plot %v", s.Rows, s.Chart, want)
	}
	setField(tb, `input[name="q"]`, `el.value = "no such model"`)
	s = eval[state](tb, js)
	if len(s.Rows) != 0 || s.Tables != 0 || s.Charts != 0 || !strings.Contains(s.Empty, "no such model") || !strings.Contains(s.Empty, "Clear") {
		t.Errorf("a search matching nothing: %d runs, %d tables and %d charts in view, empty state %q; want none, and a message saying what to change", len(s.Rows), s.Tables, s.Charts, s.Empty)
	}
	tb.checkClean("index.html")
}
