package browsertest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

type searchState struct {
	URL      string   `json:"url"`
	Query    string   `json:"query"`
	Status   string   `json:"status"`
	Hrefs    []string `json:"hrefs"`
	Sections []string `json:"sections"`
	// Pages and Prompts are the links of those groups of results.
	Pages   []string `json:"pages"`
	Prompts []string `json:"prompts"`
	Visible bool     `json:"visible"`
}

const searchStateJS = `(() => {
	const f = document.getElementById("search-form");
	const links = sel => Array.from(document.querySelectorAll(sel)).map(a => a.getAttribute("href"));
	return {
		url: location.search + location.hash,
		query: document.getElementById("search-q").value,
		status: document.getElementById("search-status").textContent,
		hrefs: links("#search-results a"),
		sections: Array.from(document.querySelectorAll("#search-results section")).map(s => s.id),
		pages: links("#results-pages a"),
		prompts: links("#results-prompts a"),
		visible: !f.hidden && f.offsetParent !== null,
	};
})()`

// searchWord is the longest word of the question sentence on the
// scenario's prompt page, read from the built site: a word of its text.
func searchWord(t *testing.T, p Pages) string {
	t.Helper()
	html, err := os.ReadFile(filepath.Join(siteDir, filepath.FromSlash(p.Prompt)))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<h1>[^<]*<span class=sub>([^<]+)</span>`).FindSubmatch(html)
	if m == nil {
		t.Fatalf("%s: no question sentence in its heading", p.Prompt)
	}
	word := ""
	for _, w := range regexp.MustCompile(`[A-Za-z]+`).FindAllString(string(m[1]), -1) {
		if len(w) > len(word) {
			word = w
		}
	}
	if len(word) < 6 {
		t.Fatalf("%s: the question's longest word %q is too short to test a typo", p.Prompt, word)
	}
	return word
}

func hasPage(hrefs []string, page string) bool {
	return slices.ContainsFunc(hrefs, func(h string) bool { return strings.Split(h, "#")[0] == page })
}

// TestSearch: a search finds a scenario by a word of its text, the
// longest of the question sentence on its prompt page. Typed into the
// search box, it lists the question's compare page under Scenarios and
// its prompt page (at the baseline prompt) under Prompts, puts the query
// in the URL (#q=), and the result opens the page, with no request
// leaving file://. The same word with a letter left out finds the same
// entries and says how it read it; a word in no entry finds nothing.
// ?q=, #q= and the older #search?q= fill the box and search.
func TestSearch(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	word := searchWord(t, p)
	typed := strings.ToUpper(word[:1]) + word[1:]
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, "search.html")
	if s := eval[searchState](tb, searchStateJS); !s.Visible || len(s.Hrefs) != 0 {
		t.Fatalf("search.html before a query: form shown %v, %d results; want the form and none", s.Visible, len(s.Hrefs))
	}
	tb.do(chromeSendKeys("#search-q", typed))
	s := eval[searchState](tb, searchStateJS)
	if !hasPage(s.Prompts, p.Prompt) || !slices.Contains(s.Hrefs, p.Compare) {
		t.Fatalf("searching %q: results %v (%q) do not include %s under Prompts and %s", word, s.Hrefs, s.Status, p.Prompt, p.Compare)
	}
	if want := "#q=" + typed; s.URL != want {
		t.Errorf("searching %q: URL %q, want %q", word, s.URL, want)
	}
	if !strings.Contains(s.Status, " matches: ") || strings.Contains(s.Status, "begins no word") {
		t.Errorf("searching %q: status %q", word, s.Status)
	}
	tb.checkClean("search.html")

	// One letter left out, inside the word: the same results, said so.
	typo := word[:2] + word[3:]
	tb.open(siteDir, "search.html#q="+typo)
	ts := eval[searchState](tb, searchStateJS)
	if !slices.Equal(ts.Hrefs, s.Hrefs) {
		t.Errorf("searching the typo %q: results %v, want those of %q: %v", typo, ts.Hrefs, word, s.Hrefs)
	}
	if want := "“" + strings.ToLower(typo) + "” begins no word: read as “" + strings.ToLower(word) + "”"; !strings.Contains(ts.Status, want) {
		t.Errorf("searching the typo %q: status %q, want it to say %q", typo, ts.Status, want)
	}
	// Two letters wrong is no longer the word.
	if far := word[:2] + word[4:]; len(far) >= 5 {
		tb.open(siteDir, "search.html#q="+far)
		if fs := eval[searchState](tb, searchStateJS); hasPage(fs.Prompts, p.Prompt) {
			t.Errorf("searching %q, two letters from %q: found %s", far, word, p.Prompt)
		}
	}

	// A query in a link is searched when the page opens, in each form.
	for _, u := range []string{"search.html?q=" + word, "search.html#q=" + word, "search.html#search?q=" + word} {
		tb.open(siteDir, u)
		if s := eval[searchState](tb, searchStateJS); s.Query != word || !hasPage(s.Prompts, p.Prompt) {
			t.Errorf("%s: box %q, results %v; want %q and %s", u, s.Query, s.Hrefs, word, p.Prompt)
		}
	}
	// Typing on a page opened at ?q= keeps the query in the fragment.
	tb.do(chromeSendKeys("#search-q", "s"))
	if s := eval[searchState](tb, searchStateJS); s.URL != "#q="+word+"s" {
		t.Errorf("typing after ?q=%s: URL %q, want #q=%ss", word, s.URL, word)
	}
	tb.open(siteDir, "search.html#q=zzzqqq")
	if s := eval[searchState](tb, searchStateJS); len(s.Hrefs) != 0 || s.Status != "Nothing matches. “zzzqqq” is no word of the index, nor one letter from one." {
		t.Errorf("searching a word in no entry: %d results, status %q", len(s.Hrefs), s.Status)
	}
	tb.open(siteDir, "search.html#q="+word)
	if hasPage(eval[searchState](tb, searchStateJS).Prompts, p.Prompt) { // else failed above
		tb.clickAndLoad(`#results-prompts a[href^="` + p.Prompt + `#"]`)
		if got := eval[string](tb, `location.pathname`); !strings.HasSuffix(got, "/"+p.Prompt) {
			t.Errorf("the result opened %s, want %s", got, p.Prompt)
		}
	}
	tb.checkClean("search result")
}

// TestSearchGroups: the design's groups are found by their names and the
// site's words for them, each leading to its plot on the groups page (or,
// for the baseline person's own groups, the board of its attribute); a
// group beside a scenario's word opens the scenario's prompts at that
// person, and alone lists no scenario. Results come in their groups, in
// the order runs, scenarios, prompts, pages.
func TestSearchGroups(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	word := searchWord(t, p)
	tb := newTab(t, 1280, 900, "light")
	for _, c := range []struct{ q, want string }{
		{"Black", "groups/explicit-black.html"},
		{"non-binary", "groups/explicit-non-binary.html"},
		{"women", "groups/explicit-female.html"},
		{"older", "groups/explicit-age.html"},
		{"Native American", "groups/explicit-native-american.html"},
		{"latino", "groups/explicit-hispanic.html"},
		{"white", "board/explicit-race.html"},
	} {
		tb.open(siteDir, "search.html#q="+c.q)
		s := eval[searchState](tb, searchStateJS)
		if !slices.Contains(s.Pages, c.want) {
			t.Errorf("searching %q: pages %v (%q), want %s among them", c.q, s.Pages, s.Status, c.want)
		}
		if len(s.Prompts) != 0 {
			t.Errorf("searching %q: %d prompts listed; a group alone lists no scenario", c.q, len(s.Prompts))
		}
		if file, anchor, _ := strings.Cut(c.want, "#"); anchor != "" {
			html, err := os.ReadFile(filepath.Join(siteDir, filepath.FromSlash(file)))
			if err != nil || !regexp.MustCompile(`id="?`+anchor+`[" >]`).Match(html) {
				t.Errorf("searching %q: %s has no id %s (%v)", c.q, file, anchor, err)
			}
		}
	}
	tb.open(siteDir, "search.html#q="+word+"%20Black%20woman%2030")
	s := eval[searchState](tb, searchStateJS)
	if want := p.Prompt + "#age-30-female-black"; !slices.Contains(s.Prompts, want) {
		t.Errorf("searching %q with a person: prompts %v, want %s", word, s.Prompts, want)
	} else {
		tb.clickAndLoad(`#results-prompts a[href="` + want + `"]`)
		if got := eval[string](tb, `document.querySelector(":target") ? document.querySelector(":target").id : ""`); got != "age-30-female-black" {
			t.Errorf("the prompt for 30, female, Black opened at %q", got)
		}
	}

	// A query finding runs and pages lists them in that order, each group
	// headed, with every result in one.
	tb.open(siteDir, "search.html#q=implicit")
	s = eval[searchState](tb, searchStateJS)
	order := []string{"results-runs", "results-scenarios", "results-prompts", "results-pages"}
	if !slices.Contains(s.Sections, "results-runs") || !slices.Contains(s.Sections, "results-pages") ||
		!slices.IsSortedFunc(s.Sections, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) }) {
		t.Errorf("searching implicit: groups %v, want runs and pages among them, in the order %v", s.Sections, order)
	}
	if n := eval[int](tb, `document.querySelectorAll("#search-results section > h2").length`); n != len(s.Sections) {
		t.Errorf("searching implicit: %d headings for %d groups", n, len(s.Sections))
	}
	tb.checkClean("search groups")
}

// TestSearchInNav: every page's navigation links the search page, which
// marks itself there as the current page: from the site's root and from
// a run's folder, at 375 px, the link opens the page and a group typed
// there is found.
func TestSearchInNav(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
	tb := newTab(t, 375, 800, "dark")
	for _, pg := range []string{"index.html", p.Scenario} {
		tb.open(siteDir, pg)
		sel := `header nav a[href$="search.html"]`
		if n := eval[int](tb, `document.querySelectorAll('`+sel+`').length`); n != 1 {
			t.Errorf("%s: %d links to the search page in the navigation, want 1", pg, n)
			continue
		}
		tb.clickAndLoad(sel)
		tb.do(chromeSendKeys("#search-q", "Black"))
		s := eval[searchState](tb, searchStateJS)
		if got := eval[string](tb, `location.pathname`); !strings.HasSuffix(got, "/search.html") || !slices.Contains(s.Pages, "groups/explicit-black.html") {
			t.Errorf("the navigation's search link on %s opened %s%s, pages %v", pg, got, s.URL, s.Pages)
		}
		if cur := eval[string](tb, `document.querySelector('`+sel+`').getAttribute("aria-current") || ""`); cur != "page" {
			t.Errorf("search.html: its link in the navigation is aria-current=%q, want page", cur)
		}
	}
	tb.checkClean("the navigation's search")
}
