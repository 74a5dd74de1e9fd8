package browsertest

import (
	"fmt"
	"testing"
)

// layoutPages are the pages whose layout TestPages checks at every width
// (checkOverflow) and which it requires to load cleanly (checkLoads).
func layoutPages(p Pages) []string {
	return existing("index.html", "board/implicit-race.html", "board/explicit-race-pairwise.html", p.Run, p.Scenario, p.Prompt, p.Compare,
		"runs/"+p.RunID+"/scenarios.html", "runs/"+p.RunID+"/provenance.html", p.Transcripts, "transcripts.html",
		"methodology.html", "rubric.html", "benchmark.html", "mitigation.html", "provenance.html", "changes.html", "pages/about.html", "downloads.html", "search.html", "board/explicit-groups.html", "groups/explicit-black.html", "glossary.html")
}

// checkOverflow requires the page to fit the width of the window. TestPages
// runs it on layoutPages at 320 and 375 px (phones: a wide table scrolls
// inside its .table-wrap, not the page) and at 1024 and 1280 px (where the
// tables must fit); TestPagedListings on the listings' pages at 320 and
// 1280 px.
func checkOverflow(t *testing.T, tb *tab, v visit) {
	t.Helper()
	type over struct {
		Page  int      `json:"page"`
		Wide  []string `json:"wide"`
		Inner int      `json:"inner"`
	}
	o := eval[over](tb, `(() => {
		const vw = document.documentElement.clientWidth;
		const wide = [];
		for (const el of document.querySelectorAll("body *")) {
			if (el.closest(".table-wrap, pre, .prose table") && !el.matches(".table-wrap, pre, .prose table")) continue;
			const r = el.getBoundingClientRect();
			if (r.width > 0 && (r.right > vw + 1 || r.left < -1) && !el.matches(".skip, .vh, .vh *")) {
				wide.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " right=" + Math.round(r.right));
			}
		}
		return {page: document.documentElement.scrollWidth, inner: vw, wide: wide.slice(0, 8)};
	})()`)
	if o.Page > o.Inner {
		t.Errorf("%s at %d px: the page is %d px wide, wider than the viewport (%d px); too wide: %v", v.page, v.width, o.Page, o.Inner, o.Wide)
	}
}

// TestStickyTableHeader scrolls a long table (a run's 70 scenarios) and
// requires its header row to stay in view.
func TestStickyTableHeader(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := newTab(t, 1280, 800, "light")
	for _, width := range []int64{1280, 375} {
		tb.emulate(width, 800, "light")
		for _, page := range []string{"runs/" + p.RunID + "/scenarios.html"} {
			tb.open(siteDir, page)
			// Scroll the row in the middle of the table to the middle of the
			// screen, as a reader scrolling down the table would.
			type head struct {
				Top    float64 `json:"top"`
				Bottom float64 `json:"bottom"`
				Table  float64 `json:"table"`
				Hit    bool    `json:"hit"`
			}
			h := eval[head](tb, `new Promise(r => {
				const table = document.querySelector("table.sortable");
				const rows = table.tBodies[0].rows;
				rows[Math.floor(rows.length / 2)].scrollIntoView({block: "center"});
				requestAnimationFrame(() => requestAnimationFrame(() => {
					const th = table.tHead.rows[0].cells[0];
					const b = th.getBoundingClientRect();
					const hit = document.elementFromPoint(b.left + 5, b.top + b.height / 2);
					r({top: b.top, bottom: b.bottom, table: table.getBoundingClientRect().top, hit: !!hit && th.contains(hit)});
				}));
			})`)
			if h.Top < -1 || h.Bottom > 800 || !h.Hit {
				t.Errorf("%s at %d px: with the middle row in view, the header row is not (header top %.0f, table top %.0f, visible: %v)", page, width, h.Top, h.Table, h.Hit)
			}
		}
		tb.checkClean(fmt.Sprint(width))
	}
}

// TestKeyboard tabs through pages: the first Tab shows the skip link, which
// moves focus to the main content, and every element that takes focus
// shows a visible focus indicator.
func TestKeyboard(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := newTab(t, 1280, 900, "light")
	for _, page := range []string{"index.html", p.Scenario, p.Run} {
		tb.open(siteDir, page)
		tb.do(key("\t"))
		type focus struct {
			Tag     string  `json:"tag"`
			Class   string  `json:"class"`
			Text    string  `json:"text"`
			Visible bool    `json:"visible"`
			Outline string  `json:"outline"`
			Width   float64 `json:"width"`
			Shadow  string  `json:"shadow"`
		}
		const focusJS = `(() => {
			const e = document.activeElement, s = getComputedStyle(e), r = e.getBoundingClientRect();
			return {tag: e.tagName.toLowerCase(), class: e.className, text: e.textContent.trim().slice(0, 40),
				visible: r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
				outline: s.outlineStyle, width: parseFloat(s.outlineWidth), shadow: s.boxShadow};
		})()`
		f := eval[focus](tb, focusJS)
		if f.Class != "skip" || !f.Visible {
			t.Errorf("%s: the first Tab focuses %s.%s %q (visible: %v), want the skip link shown", page, f.Tag, f.Class, f.Text, f.Visible)
		}
		tb.do(key("\r"))
		if got := eval[string](tb, `document.activeElement.id + " " + location.hash`); got != "main #main" {
			t.Errorf("%s: after the skip link, focus and address are %q, want the main element", page, got)
		}
		// Tab on from the main content through the first controls.
		for i := 0; i < 25; i++ {
			tb.do(key("\t"))
			f := eval[focus](tb, focusJS)
			if f.Tag == "body" {
				break
			}
			if (f.Outline == "none" || f.Width < 2) && (f.Shadow == "" || f.Shadow == "none") {
				t.Errorf("%s: Tab %d focuses %s.%s %q with no visible focus indicator (outline %s %.0fpx)", page, i+1, f.Tag, f.Class, f.Text, f.Outline, f.Width)
			}
		}
		tb.checkClean(page)
	}
}
