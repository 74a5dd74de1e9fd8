package browsertest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
)

// checkRunPageReads holds a run page to what a reader meets before opening
// anything, as the browser shows it: at most crawl.RunPageWords words
// outside closed <details>, each of its disclosures of detail (class
// "more") saying what is inside (a summary of three words or more), and its sections in the order of its
// summary: scores and ranks, then the coefficients (its largest effect),
// explicit against implicit, the interventions and the data quality (its
// validity), before any section kept behind a disclosure. TestPages runs it
// on the run pages of kindPages and the one with the most interventions
// (skew-13b-explicit), at 1280 and 375 px, light and dark; cmd/build's
// tests count every run page's words in its HTML.
func checkRunPageReads(t *testing.T, tb *tab, v visit) {
	t.Helper()
	type reading struct {
		Words     int      `json:"words"`
		Summaries []string `json:"summaries"`
		Sections  []string `json:"sections"`
		Hidden    []bool   `json:"hidden"`
	}
	r := eval[reading](tb, `(() => {
		const words = document.body.innerText.split(/\s+/).filter(w => /[\p{L}\p{N}]/u.test(w)).length;
		const summaries = [...document.querySelectorAll("main details.more:not([open]) > summary")].map(s => s.innerText.trim());
		const secs = [...document.querySelectorAll("main section[aria-labelledby]")];
		return {words, summaries, sections: secs.map(s => s.getAttribute("aria-labelledby")),
			hidden: secs.map(s => { const h = s.querySelector("h2"); const d = h && h.nextElementSibling; return !!d && d.tagName === "DETAILS" && d.classList.contains("more") && !d.open; })};
	})()`)
	if r.Words > crawl.RunPageWords {
		t.Errorf("%s at %d px: %d words before any <details> is opened, more than %d", v.page, v.width, r.Words, crawl.RunPageWords)
	}
	for _, s := range r.Summaries {
		if crawl.WordCount(s) < 3 {
			t.Errorf("%s: a disclosure's summary %q does not say what is inside", v.page, s)
		}
	}
	// The order of the summary's sentences, among the sections the page has.
	order := []string{"views", "coefficients", "explicit-implicit", "paired", "quality"}
	last, shut := -1, false
	for i, id := range r.Sections {
		k := -1
		for j, o := range order {
			if o == id {
				k = j
			}
		}
		switch {
		case k >= 0 && (k < last || shut):
			t.Errorf("%s: section %s stands after %s: the page does not read in the order of its summary (%s)", v.page, id, r.Sections[i-1], strings.Join(r.Sections, ", "))
		case k >= 0 && r.Hidden[i]:
			t.Errorf("%s: section %s, which the summary speaks of, is behind a disclosure", v.page, id)
		case k >= 0:
			last = k
		case id == "cite":
		case !r.Hidden[i]:
			t.Errorf("%s: section %s, after what the summary speaks of, is not behind a disclosure", v.page, id)
		default:
			shut = true
		}
	}
	t.Logf("%s at %d px: %d words shown, %d disclosures closed", v.page, v.width, r.Words, len(r.Summaries))
}

// checkFragmentOpens follows a link to a part of a run page kept behind a
// disclosure (a coefficient's row, the input files): the <details> holding
// it opens and the target is scrolled into the window, as HTML's fragment
// navigation does for a closed <details> (not for a hidden element, or
// one a script collapses). It changes the page.
func checkFragmentOpens(t *testing.T, tb *tab, v visit) {
	t.Helper()
	for _, id := range []string{"coef-age", "files"} {
		tb.setHash(id)
		type state struct {
			Found   bool    `json:"found"`
			Open    bool    `json:"open"`
			Visible bool    `json:"visible"`
			Top     float64 `json:"top"`
			Height  float64 `json:"height"`
		}
		s := eval[state](tb, `new Promise(r => requestAnimationFrame(() => {
			const el = document.getElementById(`+strconv.Quote(id)+`);
			if (!el) { r({found: false}); return; }
			const d = el.closest("details");
			const b = el.getBoundingClientRect();
			r({found: true, open: !!d && d.open, visible: el.checkVisibility() && b.height > 0, top: b.top, height: innerHeight});
		}))`)
		switch {
		case !s.Found:
			t.Errorf("%s: no element #%s", v.page, id)
		case !s.Open || !s.Visible:
			t.Errorf("%s#%s: the target is not shown (the <details> holding it open: %v)", v.page, id, s.Open)
		case s.Top < 0 || s.Top > s.Height:
			t.Errorf("%s#%s: the target is %.0f px from the top of a %.0f px window, not in view", v.page, id, s.Top, s.Height)
		}
	}
}

// checkBaselineInView requires a scenario page's grid to show the
// baseline person's cell, which every difference on it refers to, as the
// page opens: inside its box, right of the sticky age column. On a phone
// the grid is wider than the screen and its box scrolls sideways;
// browse.js opens it at that cell. TestPages runs it at 375 px, light and
// dark.
func checkBaselineInView(t *testing.T, tb *tab, v visit) {
	t.Helper()
	type p2 struct {
		Found     bool    `json:"found"`
		Left      float64 `json:"left"`
		Right     float64 `json:"right"`
		BoxLeft   float64 `json:"boxLeft"`
		BoxRight  float64 `json:"boxRight"`
		AgeRight  float64 `json:"ageRight"`
		ViewportW float64 `json:"viewportW"`
	}
	p := eval[p2](tb, `(() => {
		const base = document.querySelector("table.grid td.base");
		if (!base) return {found: false};
		const b = base.getBoundingClientRect(), w = base.closest(".table-wrap").getBoundingClientRect();
		const age = base.parentElement.cells[0].getBoundingClientRect();
		return {found: true, left: b.left, right: b.right, boxLeft: w.left, boxRight: Math.min(w.right, innerWidth), ageRight: age.right, viewportW: innerWidth};
	})()`)
	switch {
	case !p.Found:
		t.Errorf("%s: no baseline cell (td.base) in the grid", v.page)
	case p.Left < p.AgeRight-1 || p.Right > p.BoxRight+1:
		t.Errorf("%s at %d px: the baseline cell stands at %.0f–%.0f px, outside the grid's view (%.0f–%.0f px beside the age column)", v.page, v.width, p.Left, p.Right, p.AgeRight, p.BoxRight)
	}
}
