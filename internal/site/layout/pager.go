package layout

// Listings of every run — the boards, the pairwise pages' neighbour
// tables — are split into pages of Config.PageRows places each (100 unless set), so that no file
// passes the 500 KB budget at 1,000 runs; a board whose decision runs' table
// stands beside its log-probability runs' shows fewer places a page, so
// that a page holds at most PageRows rows in all (stage.Ranked.BoardPer). Page 1 keeps the listing's URL
// and the top of the ranking; page k > 1 is the same name with "-k"
// (board/explicit-age-2.html). Ranks are the whole board's: a page only
// slices the rows. Each page says which places of how many runs it shows
// and links to every other page with plain links.

import (
	"cmp"

	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// paging is the most places (runs, with their intervention rows) one
// page of a listing shows: Config.PageRows, 100 by default. The heaviest
// row is a composite board's, about 1.7 KB with its robustness row (865 KB
// for ~500 runs at 1,000 runs before pagination), so a page's rows stay
// near 170 KB, under half the budget with the page's fixed parts (chart,
// capped tables) beside them. The same rule holds for every listing.
type Paging int

// pager is what a page of a listing says of its slice and of the others.
type Pager struct {
	Page, Of int
	// Places is the places of each table this page shows, "101–200";
	// Lists names what the places are of: "each table", "each list", "the
	// list".
	Places, Lists string
	Prev, Next    *pagerLink
	Pages         []pagerLink // every page, this one marked
}

type pagerLink struct {
	Label, Href string
	Current     bool
}

// pages is how many pages a listing of tables with these many
// rows takes: at least one.
func (per Paging) Pages(rows ...int) int {
	n := 1
	for _, r := range rows {
		n = max(n, (r+int(per)-1)/int(per))
	}
	return n
}

// span is the rows of page k (from 1) of a table of n rows: [lo, hi).
func (per Paging) Span(n, k int) (lo, hi int) {
	lo = min(n, (k-1)*int(per))
	return lo, min(n, lo+int(per))
}

// label is "101–200", the places page k of a listing of most rows
// shows.
func (per Paging) Label(most, k int) string {
	lo, hi := per.Span(most, k)
	if hi-lo == 1 {
		return show.Itoa(hi)
	}
	return show.Itoa(lo+1) + "–" + show.Itoa(hi)
}

// pager is page k's pager among n pages of a listing whose longest table
// has most rows, page j at pathOf(j); nil when the listing has one page.
// Its links are relative to page k, as a partial template cannot call
// the page's Rel.
func (per Paging) Pager(k, n, most int, pathOf func(int) string) *Pager {
	if n == 1 {
		return nil
	}
	p := &Pager{Page: k, Of: n, Places: per.Label(most, k), Lists: "each table"}
	for j := 1; j <= n; j++ {
		l := pagerLink{Label: per.Label(most, j), Href: paths.RelPath(pathOf(k), pathOf(j)), Current: j == k}
		p.Pages = append(p.Pages, l)
		if j == k-1 {
			p.Prev = &pagerLink{Label: "← places " + l.Label, Href: l.Href}
		}
		if j == k+1 {
			p.Next = &pagerLink{Label: "places " + l.Label + " →", Href: l.Href}
		}
	}
	return p
}

// pageOf is page k (from 1) of a list.
func PageOf[T any](per Paging, list []T, k int) []T {
	lo, hi := per.Span(len(list), k)
	return list[lo:hi]
}

// slice is what a table's caption says of its slice on page k of a
// listing of pages: "" when the listing has one page, else "places
// 101–200 of 523 runs" ("" too when the table has no row on the page).
func (per Paging) Slice(n, k, pages int) string {
	lo, hi := per.Span(n, k)
	if pages == 1 || lo == hi {
		return ""
	}
	return "places " + per.Label(n, k) + " of " + show.Plural(n, "run")
}

// linkLines is how many lines a page of a list of one link a run holds
// (the provenance page's and the transcript hub's runs): two pages of a
// listing's places (200 by default). A line is about 0.2 KB, so a page of
// them stays near 40 KB beside the page's fixed parts.
func LinkLines(per Paging) Paging { return 2 * per }

// split is a page whose body lists rows things, in pages of per rows
// (pager.go): page 1 keeps whole's path and title, page k > 1 is
// name-k.html, titled rest (whole's title when "") with its number. body
// gives page k's body, with its pager and the caption's slice ("places
// 101–200 of 523 runs").
func (per Paging) Split(whole *Page, name, rest string, rows int, body func(k int, pg *Pager, slice string) any) []*Page {
	n := per.Pages(rows)
	if n == 1 {
		return []*Page{whole}
	}
	path := func(j int) string { return paths.PagedPath(whole.Path, name, j) }
	var pages []*Page
	for k := 1; k <= n; k++ {
		title := whole.Title
		if k > 1 {
			title = cmp.Or(rest, whole.Title) + ", page " + show.Itoa(k) + " of " + show.Itoa(n)
		}
		b := body(k, per.Pager(k, n, rows, path), per.Slice(rows, k, n))
		pages = append(pages, &Page{Path: path(k), Title: title, Section: whole.Section, Body: b})
	}
	return pages
}
