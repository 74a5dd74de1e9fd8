package site

import (
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// TestGlossary: glossary.html is a <dl> of vocab.Terms in their order,
// each <dt> with the term's id and name, each with a definition, and
// every page's frame links it.
func TestGlossary(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	page := string(files[paths.GlossaryPath])
	dl := regexp.MustCompile(`(?s)<dl class=glossary>(.*)</dl>`).FindStringSubmatch(page)
	if dl == nil {
		t.Fatal("glossary.html has no <dl class=glossary>")
	}
	// Minified: the end tags of <dt> and <dd> are left out.
	entry := regexp.MustCompile(`(?s)^<dt id=([a-z-]+)><dfn>([^<]*)</dfn>(?:</dt>)?<dd>(.*)$`)
	var entries [][]string
	for i, e := range strings.Split(dl[1], "<dt ")[1:] {
		m := entry.FindStringSubmatch("<dt " + e)
		if m == nil {
			t.Fatalf("entry %d: %.80q…", i+1, e)
		}
		entries = append(entries, m)
	}
	if len(entries) != len(vocab.Terms) {
		t.Fatalf("glossary.html has %d entries, vocab.Terms %d", len(entries), len(vocab.Terms))
	}
	for i, e := range entries {
		term := vocab.Terms[i]
		if e[1] != term.ID || html.UnescapeString(e[2]) != term.Name {
			t.Errorf("entry %d: <dt id=%s> %q, want %s %q", i+1, e[1], e[2], term.ID, term.Name)
		}
		if n := crawl.WordCount(stripTags(e[3], " ")); n < 15 {
			t.Errorf("entry %s: a definition of %d words", term.ID, n)
		}
	}
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") || name == paths.NotFoundPath {
			continue
		}
		want := regexp.MustCompile(`<a href=` + regexp.QuoteMeta(paths.RelPath(name, paths.GlossaryPath)) + `(?: aria-current=[a-z]+)?>Glossary</a>`)
		if !want.Match(data) {
			t.Errorf("%s: the frame does not link the glossary (%s)", name, want)
		}
	}
	if !strings.Contains(string(files[paths.NotFoundPath]), `href=glossary.html>`) {
		t.Errorf("404.html does not link the glossary from the base path")
	}
}
