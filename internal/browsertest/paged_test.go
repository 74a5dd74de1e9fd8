package browsertest

import (
	"github.com/google/go-cmp/cmp"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site"
)

// The committed site lists its 13 runs on one page a listing (100 places
// a page), so its pagers never show. pagedSite is the same runs built with
// pagedRows places a page: every listing then has pages, which these
// tests, and TestNuHTMLChecker, check as the others check one page of
// each kind.
const pagedRows = 2

var (
	pagedOnce sync.Once
	pagedDir  string
	pagedErr  error
)

// pagedSite builds the paged site, once for the test binary, beside the
// committed runs' site (TestMain removes both).
func pagedSite(t *testing.T) string {
	t.Helper()
	pagedOnce.Do(func() {
		pagedDir = filepath.Join(filepath.Dir(siteDir), "paged")
		pagedErr = BuildSite(repo, nil, pagedDir, func(c *site.Config) { c.PageRows = pagedRows })
	})
	if pagedErr != nil {
		t.Fatalf("building the site in pages of %d places: %v", pagedRows, pagedErr)
	}
	return pagedDir
}

// pagedPages are the first and second pages of each kind of listing in
// the paged site: a board (the composite's first page is index.html), the
// changes and downloads pages, a compare page, and the provenance page's
// and the transcript hub's lists of runs. (A pairwise page pages
// its neighbour tables, which a board shows only when it is too large for
// the full matrices: not on 13 runs; TestPaginationKeepsTheReading
// checks them in Go.)
func pagedPages(t *testing.T) []string {
	dir := pagedSite(t)
	pages := []string{
		"index.html", "board/explicit-composite-2.html",
		"board/implicit-race.html", "board/implicit-race-2.html",
		"changes.html", "changes-2.html",
		"downloads.html", "downloads-2.html",
		"compare/explicit/q0.html", "compare/explicit/q0-2.html",
		"provenance.html", "provenance-2.html",
		"transcripts.html", "transcripts-2.html",
	}
	for _, p := range pages {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Fatalf("the site in pages of %d places has no %s: %v", pagedRows, p, err)
		}
	}
	return pages
}

// secondPage is what a pager on page 2 of a listing of two places a page
// says of the places it shows: "places 3–4" ("runs 3–4" on compare pages)
// or, when the listing ends there, "places 3". A list of one link a run
// (the provenance page's, the transcript hub's) has twice as many lines a
// page: its page 2 shows places 5–8.
var (
	secondPage     = regexp.MustCompile(`(places|runs) 3(–4)?\b`)
	secondLinkPage = regexp.MustCompile(`places 5–8 of the list\b`)
)

// TestPagedListings opens the listings' first and second pages from
// file://, each once at each width (sweep): no page is wider than a phone
// of 320 px or than 1280 px (checkOverflow), none logs an error or loads
// anything (checkClean), axe finds no violation (checkAxe: 1280 px, light,
// and dark for the second pages); and the pager works without a script's
// help (checkPagers): its "next" link on page 1 opens page 2, which says
// it shows places 3–4 (or 3 alone), and its "previous" link there leads
// back.
func TestPagedListings(t *testing.T) {
	t.Parallel()
	dir := pagedSite(t)
	pages := pagedPages(t)
	browser(t) // skip before the subtests when there is no chromium
	s := sweep{dir: dir}
	s.add(narrow, check{name: "overflow", run: checkOverflow}, pages...)
	s.add(desktop, check{name: "overflow", run: checkOverflow}, pages...)
	s.add(desktop, check{name: "axe", run: checkAxe}, pages...)
	// Dark mode on the second pages only: the first pages' colours are
	// the committed site's, which TestPages checks.
	var seconds []string
	for i := 1; i < len(pages); i += 2 {
		seconds = append(seconds, pages[i])
	}
	s.add(desktopDark, check{name: "axe", run: checkAxe}, seconds...)
	// A board's second page sorted, with the runs of its other pages as
	// short rows (TestPagedBoardReadsAsOne): they fit a phone and pass axe.
	sorted := "board/explicit-composite-2.html#filter?sort=race"
	s.add(narrow, check{name: "overflow", run: checkOverflow}, sorted)
	s.add(desktop, check{name: "axe", run: checkAxe}, sorted)
	s.run(t)
	t.Run("pagers", func(t *testing.T) {
		t.Parallel()
		checkPagers(t, dir, pages)
	})
}

// checkPagers follows each listing's pager from its first page (pages are
// first and second pages in turn) at 375 px.
func checkPagers(t *testing.T, dir string, pages []string) {
	tb := newTab(t, 375, 800, "light")
	for i := 0; i < len(pages); i += 2 {
		first, second := pages[i], pages[i+1]
		if strings.HasPrefix(first, "compare/") {
			// A compare page lists its pages by number (no previous and
			// next): follow the link to page 2.
			tb.open(dir, first)
			tb.clickAndLoad(`nav.pager a[href$="q0-2.html"]`)
		} else {
			tb.open(dir, first)
			tb.clickAndLoad(`nav.pager a[rel=next]`)
		}
		got := eval[string](tb, `location.pathname.replace(/^.*\/paged\//, "")`)
		if got != second {
			t.Errorf("%s: the pager's link to page 2 opened %s, want %s", first, got, second)
			continue
		}
		// Page 2 shows places 3 and 4, or 3 alone when the listing ends
		// there; 5–8 on a list of links.
		says := eval[string](tb, `document.querySelector("nav.pager").textContent`)
		want := secondPage
		if first == "provenance.html" || first == "transcripts.html" {
			want = secondLinkPage
		}
		if !want.MatchString(says) {
			t.Errorf("%s: the pager says %q, which does not give page 2's places (%s)", second, says, want)
		}
		if !strings.HasPrefix(first, "compare/") {
			tb.clickAndLoad(`nav.pager a[rel=prev]`)
			if back := eval[string](tb, `location.pathname.replace(/^.*\/paged\//, "")`); back != first {
				t.Errorf("%s: the pager's previous link opened %s, want %s", second, back, first)
			}
		}
		tb.checkClean(second)
	}
}

// TestSearchInParts: the paged site's search index is in parts (ten
// pages' places each, so 20 entries), and a search over them finds every
// run of a model, whose entries come after the 70 scenarios' and so in a
// later part than the first, and the same entries as in the committed
// site, whose index is one file.
func TestSearchInParts(t *testing.T) {
	t.Parallel()
	dir := pagedSite(t)
	parts, err := filepath.Glob(filepath.Join(dir, "data", "search-index-*.js"))
	if err != nil || len(parts) < 3 {
		t.Fatalf("the paged site's index has %d parts beyond the first (%v), want several", len(parts), err)
	}
	tb := newTab(t, 1280, 900, "light")
	count := func(site, q string) searchState {
		tb.open(site, "search.html#search?q="+q)
		s := eval[searchState](tb, searchStateJS)
		tb.checkClean(q)
		return s
	}
	// A model's entry links its row on the board page that holds it,
	// which differs between the two sites: compared by the row's anchor.
	board := regexp.MustCompile(`^(index\.html|board/[^#]+)#`)
	links := func(s searchState) string {
		var out []string
		for _, h := range s.Hrefs {
			out = append(out, board.ReplaceAllString(h, "#"))
		}
		return strings.Join(out, " ")
	}
	for _, q := range []string{"skew", "synthetic", "kidney"} {
		whole, paged := count(siteDir, q), count(dir, q)
		if len(paged.Hrefs) == 0 || paged.Status != whole.Status || links(paged) != links(whole) {
			t.Errorf("searching %q: in parts %q %v, in one file %q %v", q, paged.Status, paged.Hrefs, whole.Status, whole.Hrefs)
		}
	}
}

// boardReadJS reads a board page as a reader sees it: the runs shown, in
// order, table by table (a run on another page of the board stands as a
// short row naming its run in data-run), each with its rank, model, every
// view's score and interval, its flags and the data attributes the
// filters read; then the count the form gives.
const boardReadJS = `(() => {
	const text = el => el ? el.textContent.trim() : "";
	const rows = [];
	document.querySelectorAll("table.board").forEach(t => {
		Array.from(t.tBodies).filter(b => !b.hidden && b.offsetParent !== null).forEach(b => {
			const r = b.rows[0], attrs = [];
			for (const a of b.attributes) { if (a.name.startsWith("data-") && a.name !== "data-pos" && a.name !== "data-run") { attrs.push(a.name + "=" + a.value); } }
			const scores = Array.from(r.cells).filter(c => c.querySelector(".num")).map(c => c.className.replace("current ", "") + " " + text(c.querySelector(".num")) + " " + text(c.querySelector(".ci")));
			rows.push([t.dataset.method, b.dataset.run || r.id, text(r.cells[0]), text(r.querySelector("th a")), scores.join(" | "),
				Array.from(r.querySelectorAll(".c-flags .flag")).map(text).join(", "), attrs.sort().join(" ")].join(" · "));
		});
	});
	const out = document.querySelector("#board-filters output");
	return {rows: rows, output: out ? out.textContent : ""};
})()`

type boardRead struct {
	Rows   []string `json:"rows"`
	Output string   `json:"output"`
}

// TestPagedBoardReadsAsOne: a board in pages reads as the board of one
// page. On each page of the paged site's explicit composite and race
// boards, a search, a filter and a sort show the runs, in the order and
// with the rank, model, scores, flags and filter attributes, that the
// committed site's board of one page shows for the same state (the runs
// of other pages as short rows from data/boards/explicit.js, each linking
// to its row); with nothing set, each page shows its own rows. A run's
// anchor on any page of a board (index.html#<run-id>, an intervention
// run's, a run not ranked) opens the page that holds its row, marked as
// the target.
func TestPagedBoardReadsAsOne(t *testing.T) {
	t.Parallel()
	dir := pagedSite(t)
	tb := newTab(t, 1280, 900, "light")
	read := func(site, page string) boardRead {
		tb.open(site, page)
		r := eval[boardRead](tb, boardReadJS)
		tb.checkClean(page)
		return r
	}
	states := []string{"q=skew", "weights=open&sort=race", "sort=model&dir=desc", "synthetic=only&sort=gender", "q=nothing-is-called-this"}
	for _, view := range []string{"composite", "race"} {
		first := "board/explicit-" + view + ".html"
		if view == "composite" {
			first = "index.html"
		}
		pages := []string{first, "board/explicit-" + view + "-2.html", "board/explicit-" + view + "-3.html"}
		for _, st := range states {
			want := read(siteDir, first+"#filter?"+st)
			if len(want.Rows) == 0 && st != states[len(states)-1] {
				t.Errorf("%s#filter?%s shows no run on the committed site: the test needs some", first, st)
			}
			for _, p := range pages {
				got := read(dir, p+"#filter?"+st)
				if diff := cmp.Diff(want.Rows, got.Rows); diff != "" {
					t.Errorf("%s#filter?%s does not show what the board of one page shows (-one page +paged):\n%s", p, st, diff)
				}
			}
		}
		// Nothing set: a page shows its own rows, and says how many of the
		// board's.
		got := read(dir, pages[1])
		if len(got.Rows) != 2 || !strings.Contains(got.Output, "on this page") {
			t.Errorf("%s with nothing set shows %d runs, %q", pages[1], len(got.Rows), got.Output)
		}
	}
	// Each short row links to its run's row on the page that holds it.
	tb.open(dir, "index.html#filter?sort=race")
	links := eval[[]string](tb, `Array.from(document.querySelectorAll("tbody.elsewhere th .sub a")).map(a => a.href)`)
	if len(links) < 3 {
		t.Fatalf("index.html sorted: %d short rows link to their page, want the runs of the other pages", len(links))
	}
	reach := func(from, id string) {
		t.Helper()
		tb.open(dir, from+"#"+id)
		at := eval[string](tb, `(() => { const el = document.querySelector(":target"); return location.pathname.replace(/^.*\/paged\//, "") + " " + (el ? el.id : "no target"); })()`)
		holds := eval[bool](tb, `document.querySelector(":target") !== null && document.querySelector(":target").id === location.hash.slice(1)`)
		if !holds {
			t.Errorf("%s#%s: landed at %s, with no row of that id as the target", from, id, at)
		}
		tb.checkClean(from + "#" + id)
	}
	for _, href := range links {
		_, frag, _ := strings.Cut(href, "#")
		page := strings.TrimPrefix(strings.Split(href, "#")[0], "file://"+filepath.ToSlash(absDir(t, dir))+"/")
		reach(page, frag)
	}
	// Every run of the explicit boards from the first page of the
	// composite board and the last of the race board, whichever page
	// holds it: the ranked runs, an intervention run (its model's row)
	// and a run not ranked (page 1's list).
	ids := eval[[]string](tb, `BOARD_INDEX.tables.flatMap(t => t.runs.map(r => r.id)).concat(Object.keys(BOARD_INDEX.alias), BOARD_INDEX.unranked)`)
	if len(ids) < 8 {
		t.Fatalf("data/boards/explicit.js lists %d runs", len(ids))
	}
	for _, id := range ids {
		reach("index.html", id)
		reach("board/explicit-race-3.html", id)
	}
}

func absDir(t *testing.T, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
