package browsertest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

type searchState struct {
	Hash    string   `json:"hash"`
	Status  string   `json:"status"`
	Hrefs   []string `json:"hrefs"`
	Visible bool     `json:"visible"`
}

const searchStateJS = `(() => {
	const f = document.getElementById("search-form");
	return {
		hash: location.hash,
		status: document.getElementById("search-status").textContent,
		hrefs: Array.from(document.querySelectorAll("#search-results a")).map(a => a.getAttribute("href")),
		visible: !f.hidden && f.offsetParent !== null,
	};
})()`

// TestSearch: a search finds a scenario by a word of its text. The word is
// the longest of the question sentence on the scenario's prompt page, read
// from the built site; typed into the search box, it lists that page (at
// its baseline prompt) among the results, puts the query in the URL, and the result opens the page,
// with no request leaving file://. A word in no entry finds nothing.
func TestSearch(t *testing.T) {
	t.Parallel()
	p := sitePages(t)
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
	tb := newTab(t, 1280, 900, "light")
	tb.open(siteDir, "search.html")
	if s := eval[searchState](tb, searchStateJS); !s.Visible || len(s.Hrefs) != 0 {
		t.Fatalf("search.html before a query: form shown %v, %d results; want the form and none", s.Visible, len(s.Hrefs))
	}
	tb.do(chromeSendKeys("#search-q", strings.ToUpper(word[:1])+word[1:]))
	s := eval[searchState](tb, searchStateJS)
	found := false
	for _, h := range s.Hrefs {
		found = found || strings.Split(h, "#")[0] == p.Prompt
	}
	if !found {
		t.Fatalf("searching %q: results %v (%q) do not include %s", word, s.Hrefs, s.Status, p.Prompt)
	}
	if !strings.Contains(s.Status, " match") {
		t.Errorf("searching %q: status %q", word, s.Status)
	}
	if want := "#search?q=" + strings.ToUpper(word[:1]) + word[1:]; s.Hash != want {
		t.Errorf("searching %q: URL hash %q, want %q", word, s.Hash, want)
	}
	tb.checkClean("search.html")

	// The query in a link is searched when the page opens.
	tb.open(siteDir, "search.html#search?q=zzzqqq")
	if s := eval[searchState](tb, searchStateJS); len(s.Hrefs) != 0 || s.Status != "Nothing matches." {
		t.Errorf("searching a word in no entry: %d results, status %q", len(s.Hrefs), s.Status)
	}
	tb.open(siteDir, "search.html#search?q="+word)
	tb.clickAndLoad(`#search-results a[href^="` + p.Prompt + `#"]`)
	if got := eval[string](tb, `location.pathname`); !strings.HasSuffix(got, "/"+p.Prompt) {
		t.Errorf("the result opened %s, want %s", got, p.Prompt)
	}
	tb.checkClean("search result")
}
