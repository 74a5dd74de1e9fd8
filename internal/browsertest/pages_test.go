package browsertest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// A mode is a viewport (CSS pixels) and a colour scheme to load pages in.
type mode struct {
	width, height int64
	scheme        string // "light" or "dark", for prefers-color-scheme
}

func (m mode) String() string { return fmt.Sprintf("%dx%d-%s", m.width, m.height, m.scheme) }

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
// load, and a load has at most one.
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

// A sweep loads each page of a site once in each mode and runs on that
// load every check that needs the page in that mode: checks of a page's
// layout, of its scripts' state, axe. (Opening a page is most of a
// check's CPU: a check of its own load each, the checks of TestPages
// loaded each page two to four times in each mode.)
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

// run runs the sweep as subtests of t: a parallel subtest for each mode
// (TestPages/375x667-dark), in it a parallel subtest for each page, which
// loads the page in a tab and runs its checks in turn, each a subtest
// (TestPages/375x667-dark/index.html/axe), then requires that the page
// logged no error, made no request outside file:// and opened no dialog
// (checkClean) while they ran.
func (s *sweep) run(t *testing.T) {
	for _, mp := range s.modes {
		t.Run(mp.mode.String(), func(t *testing.T) {
			t.Parallel()
			// Clean-ups run once the parallel subtests are done.
			t.Cleanup(func() {
				for _, f := range mp.after {
					f(t)
				}
			})
			for _, page := range mp.pages {
				checks := slices.Clone(mp.checks[page])
				// Stable: the checks that change the page last, the others in
				// the order added.
				slices.SortStableFunc(checks, func(a, b check) int {
					switch {
					case a.changes == b.changes:
						return 0
					case b.changes:
						return -1
					}
					return 1
				})
				if len(checks) > 1 && checks[len(checks)-2].changes {
					t.Fatalf("%s: two checks change the page (%s, %s): each needs a load of its own", page, checks[len(checks)-2].name, checks[len(checks)-1].name)
				}
				t.Run(page, func(t *testing.T) {
					t.Parallel()
					tb := newTab(t, mp.width, mp.height, mp.scheme)
					tb.open(s.dir, page)
					v := visit{dir: s.dir, page: page, mode: mp.mode}
					for _, c := range checks {
						t.Run(c.name, func(t *testing.T) {
							tb.reportTo(t)
							defer tb.reportTo(tb.owner)
							c.run(t, tb, v)
						})
					}
					tb.checkClean(fmt.Sprintf("%s (%s)", page, mp.mode))
				})
			}
		})
	}
}

// TestPages loads each page of the site built from the committed runs once
// in each mode and runs on it each check that concerns it (sweep):
//
//   - axe-core finds no violation (checkAxe): in light and dark mode at
//     1280 px, every page of axePages; at 375 px, its first four;
//   - no page is wider than the window (checkOverflow): layoutPages at
//     320, 375, 1024 and 1280 px;
//   - the pages load cleanly (checkLoads) and the leaderboard is sortable
//     (checkBoardRows), at 1280 px;
//   - the site's navigation is in the same place on every page kind
//     (checkHeader, 1280 px);
//   - a page of every kind fits a phone and cues its scrolling tables
//     (checkPhoneLayout, 375 px, light and dark);
//   - the boards' first screen on a phone (checkFirstScreen), their rows as
//     cards (checkCards, 375 px light and dark; a table at 1280), the
//     mitigation page's pairs (checkMitigationFits), 404.html from file://
//     (checkNotFound), the group plots (checkGroupPlots, 320, 375 and
//     1280 px), and the scroll cue of browsers without scroll-state
//     queries (checkScrollCue, 375 px; it changes the page: last).
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
	for _, k := range goldenKinds(t) {
		if len(kinds[k]) == 0 {
			t.Errorf("page kind %s: no page of it in the site (add it to kindPages)", k)
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
	header := &headerPlaces{at: map[string]navPlace{}}
	s.add(desktop, check{name: "header", run: header.check}, kindOrder...)
	s.after(desktop, func(t *testing.T) { header.compare(t, kindOrder) })
	s.add(desktop, check{name: "cards", run: checkCards}, "index.html")
	s.add(desktop, check{name: "group-plots", run: checkGroupPlots}, groups...)
	s.add(desktop, check{name: "axe", run: checkAxe}, axe...)
	s.add(desktopDark, check{name: "axe", run: checkAxe}, axe...)

	// 375 px: a phone.
	for _, m := range []mode{phone, phoneDark} {
		s.add(m, check{name: "kind-layout", run: checkPhoneLayout}, kindOrder...)
		s.add(m, check{name: "cards", run: checkCards}, boards...)
	}
	s.add(phone, check{name: "overflow", run: checkOverflow}, layout...)
	s.add(phone, check{name: "first-screen", run: checkFirstScreen}, existing("index.html", "board/explicit-race.html", "board/implicit-composite.html")...)
	s.add(phone, check{name: "group-plots", run: checkGroupPlots}, groups...)
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
