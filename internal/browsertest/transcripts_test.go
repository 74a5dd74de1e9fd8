package browsertest

import (
	"strconv"
	"strings"
	"testing"
)

// filterState is what a reader sees of the variant filter on a page.
type filterState struct {
	Hash    string   `json:"hash"`
	Output  string   `json:"output"`
	Shown   []string `json:"shown"`
	Total   int      `json:"total"`
	Race    string   `json:"race"`
	Gender  string   `json:"gender"`
	Visible bool     `json:"visible"`
}

const filterStateJS = `(() => {
	const items = Array.from(document.querySelectorAll("main [id^='age-']"));
	const f = document.querySelector("form.filters");
	return {
		hash: location.hash,
		output: f.querySelector("output").textContent,
		shown: items.filter(el => !el.hidden && el.offsetParent !== null).map(el => el.id),
		total: items.length,
		race: f.elements.race.value,
		gender: f.elements.gender.value,
		visible: !f.hidden && f.offsetParent !== null,
	};
})()`

func readFilter(tb *tab) filterState {
	tb.t.Helper()
	return eval[filterState](tb, filterStateJS)
}

// choose selects an option of one of the filter's select boxes as a
// reader would: the value changes and the change event fires.
func choose(tb *tab, name, value string) {
	tb.t.Helper()
	tb.do(focusCSS(`form.filters select[name="` + name + `"]`))
	eval[bool](tb, `(() => { const s = document.querySelector('form.filters select[name="`+name+`"]');
		s.value = "`+value+`"; s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
}

// TestVariantFilter filters the variants of a prompt page by race, by the
// form and by a shared link, and checks the variants shown and the count;
// then the same filter on a transcript page.
func TestVariantFilter(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, p.Prompt)
	s := readFilter(tb)
	if !s.Visible {
		t.Fatalf("%s: the filter form is not shown", p.Prompt)
	}
	if s.Total != 135 || len(s.Shown) != 135 || s.Output != "135 of 135 shown" {
		t.Fatalf("%s unfiltered: %d of %d variants shown, count %q; want all 135", p.Prompt, len(s.Shown), s.Total, s.Output)
	}

	choose(tb, "race", "black")
	s = readFilter(tb)
	checkShown(t, "race=black", s, 27, func(id string) bool { return strings.HasSuffix(id, "-black") })
	if s.Hash != "#filter?race=black" {
		t.Errorf("race=black: the address says %q, want #filter?race=black", s.Hash)
	}

	choose(tb, "gender", "female")
	s = readFilter(tb)
	checkShown(t, "race=black, gender=female", s, 9, func(id string) bool { return strings.HasSuffix(id, "-female-black") })

	// The same filter from a link, on a fresh load.
	tb.open(siteDir, p.Prompt+"#filter?race=asian&gender=non-binary")
	s = readFilter(tb)
	checkShown(t, "#filter?race=asian&gender=non-binary", s, 9, func(id string) bool { return strings.HasSuffix(id, "-non-binary-asian") })
	if s.Race != "asian" || s.Gender != "non-binary" {
		t.Errorf("the form does not show the linked filter: race=%q gender=%q", s.Race, s.Gender)
	}

	// Clear shows everything again and empties the address's filter.
	tb.do(clickCSS(`form.filters button[type="reset"]`))
	s = eval[filterState](tb, `new Promise(r => setTimeout(() => r(`+filterStateJS+`), 50))`)
	if len(s.Shown) != 135 || s.Output != "135 of 135 shown" || s.Hash != "" {
		t.Errorf("after Clear: %d variants shown, count %q, address %q", len(s.Shown), s.Output, s.Hash)
	}
	tb.checkClean(p.Prompt)

	// The transcript page has the same filter over its transcripts: filter
	// by the race of its first transcript.
	if p.Transcripts != "" {
		tb.open(siteDir, p.Transcripts)
		s = readFilter(tb)
		if s.Total == 0 || len(s.Shown) != s.Total {
			t.Fatalf("%s: %d of %d transcripts shown before filtering", p.Transcripts, len(s.Shown), s.Total)
		}
		race := s.Shown[0][strings.LastIndex(s.Shown[0], "-")+1:]
		if strings.HasSuffix(s.Shown[0], "-native-american") {
			race = "native-american"
		}
		want := 0
		for _, id := range s.Shown {
			if strings.HasSuffix(id, "-"+race) {
				want++
			}
		}
		tb.open(siteDir, p.Transcripts+"#filter?race="+race)
		s = readFilter(tb)
		checkShown(t, p.Transcripts+"#filter?race="+race, s, want, func(id string) bool { return strings.HasSuffix(id, "-"+race) })
		tb.checkClean(p.Transcripts)
	}
}

func checkShown(t *testing.T, what string, s filterState, want int, ok func(string) bool) {
	t.Helper()
	if len(s.Shown) != want {
		t.Errorf("%s: %d rows shown, want %d", what, len(s.Shown), want)
	}
	for _, id := range s.Shown {
		if !ok(id) {
			t.Errorf("%s: row %s is shown", what, id)
		}
	}
	if wantOut := strconv.Itoa(len(s.Shown)) + " of " + strconv.Itoa(s.Total) + " shown"; s.Output != wantOut {
		t.Errorf("%s: the count says %q, want %q", what, s.Output, wantOut)
	}
}

// targetState is where a deep link landed.
type targetState struct {
	Target   string `json:"target"`
	Hidden   bool   `json:"hidden"`
	InView   bool   `json:"inView"`
	OnTop    bool   `json:"onTop"`
	Top      int    `json:"top"`
	Bottom   int    `json:"bottom"`
	Viewport int    `json:"viewport"`
	// HeadBottom is the bottom of the sticky header row of the target's
	// table, when the target is a row; Marked says it is highlighted.
	HeadBottom int    `json:"headBottom"`
	Marked     bool   `json:"marked"`
	Colour     string `json:"colour"`
}

// targetJS reads the :target element: whether it is shown, inside the
// viewport, and not covered by anything (a sticky header or filter bar)
// at its centre.
const targetJS = `(() => {
	const t = document.querySelector(":target");
	if (!t) return {target: ""};
	const r = t.getBoundingClientRect();
	const x = r.left + Math.min(r.width, window.innerWidth) / 2, y = r.top + Math.min(r.height, 40) / 2;
	const hit = document.elementFromPoint(x, y);
	const table = t.closest("table");
	// The sticky header row is the last of the head (a first row may
	// group columns and scroll away).
	const head = table && table.tHead ? table.tHead.rows[table.tHead.rows.length - 1].getBoundingClientRect() : null;
	const marker = t.matches("tr") ? t.cells[0] : t;
	const colour = getComputedStyle(marker).backgroundColor;
	// A grid cell keeps its colour and is outlined instead.
	const outlined = t.matches("td") && getComputedStyle(t).outlineStyle !== "none" && parseFloat(getComputedStyle(t).outlineWidth) >= 3;
	return {
		target: t.id, hidden: t.hidden || t.offsetParent === null,
		inView: r.top >= -1 && r.top < window.innerHeight && r.bottom > 0,
		onTop: !!hit && t.contains(hit),
		top: Math.round(r.top), bottom: Math.round(r.bottom), viewport: window.innerHeight,
		headBottom: head ? Math.round(head.bottom) : 0,
		marked: t.matches("td") ? outlined : colour !== "rgba(0, 0, 0, 0)" && colour !== getComputedStyle(document.body).backgroundColor, colour,
	};
})()`

func checkTarget(t *testing.T, tb *tab, what, want string) {
	t.Helper()
	// browse.js scrolls the target clear of its table's sticky header in
	// an animation frame after the load event, and at once on a
	// hashchange (which setHash waits for): the state is read two frames
	// after.
	s := eval[targetState](tb, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(`+targetJS+`))))`)
	switch {
	case s.Target != want:
		t.Errorf("%s: :target is %q, want %q", what, s.Target, want)
	case s.Hidden:
		t.Errorf("%s: the target %s is hidden", what, want)
	case !s.InView:
		t.Errorf("%s: the target %s is out of view (top %d, bottom %d, viewport %d)", what, want, s.Top, s.Bottom, s.Viewport)
	case !s.OnTop:
		t.Errorf("%s: the target %s is covered by another element at its top (top %d)", what, want, s.Top)
	case s.Top < s.HeadBottom-1:
		t.Errorf("%s: the target %s (top %d) is under its table's sticky header (bottom %d)", what, want, s.Top, s.HeadBottom)
	case !s.Marked:
		t.Errorf("%s: the target %s is not highlighted (background %s)", what, want, s.Colour)
	}
}

// TestDeepLink opens variant links (#age-60-male-white) on scenario,
// prompt and compare pages, from a fresh load, by changing the address and
// (on a prompt page) while a filter that hides the variant is active, and
// checks that the variant is the :target, shown, in view and marked.
func TestDeepLink(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	const id = "age-60-male-white"
	tb := newTab(t, 1280, 800, "light")
	for _, width := range []int64{1280, 375} {
		tb.emulate(width, 800, "light")
		what := func(s string) string { return s + " at " + strconv.FormatInt(width, 10) + " px" }

		// A scenario page's grid cells get their ids from browse.js, in
		// time for a link's target on loading and for a later change of
		// the address.
		tb.open(siteDir, p.Scenario+"#"+id)
		checkTarget(t, tb, what(p.Scenario+"#"+id), id)
		tb.setHash("#age-100-non-binary-native-american")
		checkTarget(t, tb, what(p.Scenario+" via the address"), "age-100-non-binary-native-american")
		// A transcript's "numbers" link lands on its cell, which has its
		// id in the page itself.
		if p.Transcripts != "" {
			tb.open(siteDir, p.Transcripts)
			cell := eval[string](tb, `document.querySelector("section.transcript").id`)
			tb.clickAndLoad(`section.transcript a[href*=".html#` + cell + `"]:not([href*="prompts/"])`)
			checkTarget(t, tb, what(p.Transcripts+": numbers"), cell)
			if n := eval[int](tb, `document.querySelectorAll("table.grid td#`+cell+`").length`); n != 1 {
				t.Errorf("%s: the cell %s is not in the grid (%d)", p.Transcripts, cell, n)
			}
		}

		tb.open(siteDir, p.Prompt+"#"+id)
		checkTarget(t, tb, what(p.Prompt+"#"+id), id)
		tb.open(siteDir, p.Prompt+"#filter?gender=female")
		tb.setHash("#" + id)
		checkTarget(t, tb, what(p.Prompt+" after a filter"), id)

		tb.open(siteDir, p.Compare+"#"+id)
		checkTarget(t, tb, what(p.Compare+"#"+id), id)

		// A run's row on the leaderboard.
		tb.open(siteDir, "index.html#"+p.RunID)
		checkTarget(t, tb, what("index.html#"+p.RunID), p.RunID)
		tb.checkClean(p.Scenario)
	}
}
