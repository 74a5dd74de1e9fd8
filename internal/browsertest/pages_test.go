package browsertest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site"
)

// A mode is a viewport (CSS pixels) and a colour scheme to load pages in.
type mode struct {
	width, height int64
	scheme        string // "light" or "dark", for prefers-color-scheme
}

// The modes of the checks that share loads. One height a width: a check
// that measures the page's width (overflow, the header, a page kind's
// layout) reads the same at any height; the phone's is its first screen
// (checkFirstScreen's 667 px), the desktop's axe's 900.
var (
	desktop     = mode{1280, 900, "light"}
	desktopDark = mode{1280, 900, "dark"}
	laptop      = mode{1024, 800, "light"}
	phone       = mode{phoneW, phoneH, "light"}
	phoneDark   = mode{phoneW, phoneH, "dark"}
	narrow      = mode{320, 800, "light"}
)

// A check tests a page loaded in a mode. It reads the page and leaves it
// as it was, so that the checks of a page share one load; a check that
// changes the page (changes = true) runs after every other check of the
// load, in every colour scheme, and a load has at most one.
type check struct {
	name    string
	run     func(t *testing.T, tb *tab, v visit)
	changes bool
}

// visit is a page of the site in dir, open in a tab in a mode.
type visit struct {
	dir, page string
	mode
}

// A sweep loads each page of a site once at each viewport and runs on that
// load every check that needs the page at that viewport, in each colour
// scheme: checks of a page's layout, of its scripts' state, axe. (Opening
// a page is most of a check's CPU: a check of its own load each, the
// checks of TestPages loaded each page two to four times in each mode.)
//
// The colour scheme is switched on the loaded page (Emulate's
// prefers-color-scheme), which is what a fresh load in the other scheme
// would show: the site's colours are CSS alone, its media query
// (prefers-color-scheme) re-evaluated on the switch, with no transition
// or animation, and no script of the site reads the scheme. The sweep
// checks that each page's background did change.
type sweep struct {
	dir   string
	modes []*modePages
}

// modePages are the pages a sweep loads in one mode, in the order added,
// with their checks, and checks across pages run once every page is done.
type modePages struct {
	mode
	pages  []string
	checks map[string][]check
	after  []func(t *testing.T)
}

func (s *sweep) in(m mode) *modePages {
	for _, mp := range s.modes {
		if mp.mode == m {
			return mp
		}
	}
	mp := &modePages{mode: m, checks: map[string][]check{}}
	s.modes = append(s.modes, mp)
	return mp
}

// add runs c on each of pages in mode m.
func (s *sweep) add(m mode, c check, pages ...string) {
	mp := s.in(m)
	for _, page := range pages {
		if _, ok := mp.checks[page]; !ok {
			mp.pages = append(mp.pages, page)
		}
		mp.checks[page] = append(mp.checks[page], c)
	}
}

// after runs f once every page of mode m has been checked: a check across
// pages, over what the checks of each page recorded (in an order of its
// own, not the order the pages ran in).
func (s *sweep) after(m mode, f func(t *testing.T)) {
	mp := s.in(m)
	mp.after = append(mp.after, f)
}

// viewport is a width and height, the part of a mode a page is loaded
// at.
type viewport struct{ width, height int64 }

func (v viewport) String() string { return fmt.Sprintf("%dx%d", v.width, v.height) }

// schemeChecks are the checks of one page in one mode.
type schemeChecks struct {
	mode   mode
	checks []check
}

// run runs the sweep as subtests of t: a parallel subtest for each
// viewport (TestPages/375x667), in it a parallel subtest for each page,
// which loads the page in a tab and, in each colour scheme in turn, runs
// its checks, each a subtest (TestPages/375x667/index.html/dark/axe); then
// it requires that the page logged no error, made no request outside
// file:// and opened no dialog (checkClean) while they ran. The checks
// across pages of each mode run when the viewport's pages are done.
func (s *sweep) run(t *testing.T) {
	var viewports []viewport
	for _, mp := range s.modes {
		if vp := (viewport{mp.width, mp.height}); !slices.Contains(viewports, vp) {
			viewports = append(viewports, vp)
		}
	}
	for _, vp := range viewports {
		var modes []*modePages
		var pages []string
		for _, mp := range s.modes {
			if mp.width == vp.width && mp.height == vp.height {
				modes = append(modes, mp)
				for _, page := range mp.pages {
					if !slices.Contains(pages, page) {
						pages = append(pages, page)
					}
				}
			}
		}
		t.Run(vp.String(), func(t *testing.T) {
			t.Parallel()
			// Clean-ups run once the parallel subtests are done.
			t.Cleanup(func() {
				for _, mp := range modes {
					for _, f := range mp.after {
						f(t)
					}
				}
			})
			for _, page := range pages {
				visits, err := pageChecks(modes, page)
				if err != nil {
					t.Fatal(err)
				}
				t.Run(page, func(t *testing.T) {
					t.Parallel()
					tb := newTab(t, vp.width, vp.height, visits[0].mode.scheme)
					tb.open(s.dir, page)
					background := ""
					for i, sc := range visits {
						if i > 0 {
							tb.emulate(vp.width, vp.height, sc.mode.scheme)
						}
						bg := eval[string](tb, `getComputedStyle(document.body).backgroundColor`)
						if i > 0 && bg == background {
							t.Errorf("%s: the background is %s in %s mode as in %s mode: the colour scheme did not change", page, bg, sc.mode.scheme, visits[i-1].mode.scheme)
						}
						background = bg
						v := visit{dir: s.dir, page: page, mode: sc.mode}
						t.Run(sc.mode.scheme, func(t *testing.T) {
							for _, c := range sc.checks {
								t.Run(c.name, func(t *testing.T) {
									tb.reportTo(t)
									defer tb.reportTo(tb.owner)
									c.run(t, tb, v)
								})
							}
						})
					}
					tb.checkClean(fmt.Sprintf("%s (%s)", page, vp))
				})
			}
		})
	}
}

// pageChecks are the checks of a page in each of modes (the modes of one
// viewport) that has it, in the modes' order but for the one with a check
// that changes the page, which comes last, as that check does in it. A
// page may have one such check.
func pageChecks(modes []*modePages, page string) ([]schemeChecks, error) {
	var out []schemeChecks
	changes := ""
	for _, mp := range modes {
		checks := mp.checks[page]
		if len(checks) == 0 {
			continue
		}
		var reads, last []check
		for _, c := range checks {
			if !c.changes {
				reads = append(reads, c)
				continue
			}
			if changes != "" {
				return nil, fmt.Errorf("%s: two checks change the page (%s, %s): each needs a load of its own", page, changes, c.name)
			}
			changes = c.name
			last = append(last, c)
		}
		sc := schemeChecks{mode: mp.mode, checks: append(reads, last...)}
		if len(last) > 0 {
			out = append(out, sc)
			continue
		}
		// Before a mode whose last check changes the page.
		if len(out) > 0 && out[len(out)-1].checks[len(out[len(out)-1].checks)-1].changes {
			out = slices.Insert(out, len(out)-1, sc)
		} else {
			out = append(out, sc)
		}
	}
	return out, nil
}

// TestPages loads each page of the site built from the committed runs once
// at each viewport and runs on it, in each colour scheme, each check that
// concerns it (sweep):
//
//   - axe-core finds no violation (checkAxe): in light and dark mode at
//     1280 px, every page of axePages; at 375 px, its first four;
//   - no page is wider than the window (checkOverflow): layoutPages at
//     320, 375, 1024 and 1280 px; no table box scrolls sideways at
//     1280 px, light and dark (checkTablesFit: layoutPages and a page of
//     every kind);
//   - the pages load cleanly (checkLoads) and the leaderboard is sortable
//     (checkBoardRows), at 1280 px;
//   - the site's navigation is in the same place on every page kind
//     (headerPlaces, 1280 px);
//   - a page of every kind fits a phone and cues its scrolling tables
//     (checkPhoneLayout, 375 px, light and dark);
//   - a scenario page's grid opens with the baseline cell in view
//     (checkBaselineInView, 375 px, light and dark);
//   - the summary of every board and run page whole inside the first
//     800 px at 1280 and 375 px, light and dark (checkSummary);
//   - a run page shows at most 1,200 words before any <details> is
//     opened, in the order of its summary (checkRunPageReads, 1280 and
//     375 px, light and dark), and a link to a part of it behind a
//     disclosure opens it (checkFragmentOpens, 1280 px; it changes the
//     page: last);
//   - the boards' first screen on a phone (checkFirstScreen), their rows as
//     cards (checkCards, 375 px light and dark; a table at 1280), the
//     mitigation page's pairs (checkMitigationFits), 404.html from file://
//     (checkNotFound), the group plots (checkGroupPlots, 320, 375 and
//     1280 px), and the scroll cue of browsers without scroll-state
//     queries (cueCounts, 375 px; it changes the page: last);
//   - the composite board's chart over time (checkTimeChart, 375 and
//     1280 px), and its size and weights filters (checkSizeFilter, 1280
//     px; it changes the page: last);
//   - the composite board's rank changes since the previous release
//     (checkRankChanges, 375 and 1280 px).
//
// And on every load, no console error, uncaught exception, dialog or
// request outside file:// (checkClean).
func TestPages(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	kinds := kindPages(t)
	browser(t) // skip before the subtests when there is no chromium
	var s sweep
	s.dir = siteDir

	// In the order of the kinds, for the header's comparison and the log.
	var kindOrder []string
	for _, k := range site.PageKinds() {
		if len(kinds[k]) == 0 {
			t.Errorf("page kind %s: no page of it in the site (site.PageKind)", k)
		}
		kindOrder = append(kindOrder, kinds[k]...)
	}
	kindOrder = existing(kindOrder...)

	layout := layoutPages(p)
	axe := axePages(p)
	boards := existing("index.html", "board/explicit-age.html", "board/explicit-gender.html", "board/explicit-race.html",
		"board/implicit-composite.html", "board/implicit-age.html", "board/implicit-gender.html", "board/implicit-race.html")
	groups := existing("board/explicit-groups.html", "board/implicit-groups.html")

	// 1280 px, light: the checks that read the page, then axe.
	s.add(desktop, check{name: "loads", run: checkLoads}, layout...)
	s.add(desktop, check{name: "board-rows", run: checkBoardRows}, "index.html")
	s.add(desktop, check{name: "overflow", run: checkOverflow}, layout...)
	s.add(desktop, check{name: "tables-fit", run: checkTablesFit}, union(layout, kindOrder)...)
	s.add(desktopDark, check{name: "tables-fit", run: checkTablesFit}, union(layout, kindOrder)...)
	header := &headerPlaces{at: map[string]navPlace{}}
	s.add(desktop, check{name: "header", run: header.check}, kindOrder...)
	s.after(desktop, func(t *testing.T) { header.compare(t, kindOrder) })
	s.add(desktop, check{name: "cards", run: checkCards}, "index.html")
	summaries := append(append([]string(nil), boards...), kinds["run"]...)
	for _, m := range []mode{desktop, desktopDark, phone, phoneDark} {
		s.add(m, check{name: "summary", run: checkSummary}, summaries...)
		s.add(m, check{name: "run-page-reads", run: checkRunPageReads}, union(kinds["run"], existing("runs/skew-13b-explicit/index.html"))...)
	}
	s.add(desktop, check{name: "time-chart", run: checkTimeChart}, "index.html")
	s.add(desktop, check{name: "rank-changes", run: checkRankChanges}, "index.html")
	s.add(desktop, check{name: "size-filter", run: checkSizeFilter, changes: true}, "index.html")
	s.add(desktop, check{name: "fragment-opens", run: checkFragmentOpens, changes: true}, p.Run)
	s.add(desktop, check{name: "group-plots", run: checkGroupPlots}, groups...)
	s.add(desktop, check{name: "axe", run: checkAxe}, axe...)
	s.add(desktopDark, check{name: "axe", run: checkAxe}, axe...)

	// 375 px: a phone.
	for _, m := range []mode{phone, phoneDark} {
		s.add(m, check{name: "baseline-in-view", run: checkBaselineInView}, union(kinds["scenario"], existing("runs/fair-7b-explicit-sampled/q3.html"))...)
		s.add(m, check{name: "kind-layout", run: checkPhoneLayout}, kindOrder...)
		s.add(m, check{name: "cards", run: checkCards}, boards...)
	}
	s.add(phone, check{name: "overflow", run: checkOverflow}, layout...)
	s.add(phone, check{name: "first-screen", run: checkFirstScreen}, existing("index.html", "board/explicit-race.html", "board/implicit-composite.html")...)
	s.add(phone, check{name: "group-plots", run: checkGroupPlots}, groups...)
	s.add(phone, check{name: "time-chart", run: checkTimeChart}, "index.html")
	s.add(phone, check{name: "rank-changes", run: checkRankChanges}, "index.html")
	s.add(phone, check{name: "not-found", run: checkNotFound}, "404.html")
	s.add(phone, check{name: "mitigation-fits", run: checkMitigationFits}, existing("mitigation.html")...)
	for _, m := range []mode{phone, phoneDark} {
		s.add(m, check{name: "axe", run: checkAxe}, axe[:4]...)
	}
	cue := &cueCounts{}
	s.add(phone, check{name: "scroll-cue", run: cue.check, changes: true}, append(existing("methodology.html", "rubric.html", "provenance.html"), kinds["scenarios"]...)...)
	s.after(phone, cue.total)

	// 320 and 1024 px.
	s.add(narrow, check{name: "overflow", run: checkOverflow}, layout...)
	s.add(narrow, check{name: "group-plots", run: checkGroupPlots}, groups...)
	s.add(laptop, check{name: "overflow", run: checkOverflow}, layout...)

	s.run(t)
}

// headerPlaces records where each page kind has the site's navigation.
type headerPlaces struct {
	mu sync.Mutex
	at map[string]navPlace
}

type navPlace struct {
	Left int `json:"left"`
	Top  int `json:"top"`
}

// check reads where the page has the navigation's first link.
func (h *headerPlaces) check(t *testing.T, tb *tab, v visit) {
	r := eval[navPlace](tb, `(() => { const r = document.querySelector("header.site nav li").getBoundingClientRect(); return {left: Math.round(r.left), top: Math.round(r.top)}; })()`)
	h.mu.Lock()
	h.at[v.page] = r
	h.mu.Unlock()
}

// compare requires the site's navigation in the same place on a page of
// every kind at 1280 px (it never moves beside the title on
// one page and under it on another), the first page's place, in the
// kinds' order, taken as the right one.
func (h *headerPlaces) compare(t *testing.T, pages []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	first := ""
	for _, page := range pages {
		r, ok := h.at[page]
		if !ok {
			continue // the page's check did not run (-run) or failed
		}
		if first == "" {
			first = page
		} else if f := h.at[first]; r != f {
			t.Errorf("header: %s: the navigation's first link is at (%d, %d), on %s at (%d, %d)", page, r.Left, r.Top, first, f.Left, f.Top)
		}
	}
}
