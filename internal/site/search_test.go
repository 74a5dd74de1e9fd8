package site

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/site/browse"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// readSearchIndex reads the index back from its parts, checking that the
// first assigns SEARCH_INDEX and each later one adds to it.
func readSearchIndex(t *testing.T, parts []outdir.File) []browse.SearchItem {
	t.Helper()
	var all []browse.SearchItem
	for k, f := range parts {
		if want := browse.SearchIndexPartPath(k + 1); f.Path != want {
			t.Errorf("part %d is %s, want %s", k+1, f.Path, want)
		}
		prefix, suffix := "window.SEARCH_INDEX=", ";\n"
		if k > 0 {
			prefix, suffix = "window.SEARCH_INDEX=window.SEARCH_INDEX.concat(", ");\n"
		}
		body, ok := bytes.CutPrefix(f.Data, []byte(prefix))
		body, ok2 := bytes.CutSuffix(body, []byte(suffix))
		if !ok || !ok2 {
			t.Fatalf("%s: not %s…%s: %.80s", f.Path, prefix, suffix, f.Data)
		}
		var items []browse.SearchItem
		if err := json.Unmarshal(body, &items); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		all = append(all, items...)
	}
	return all
}

// TestSearchIndexJS: the index is a script that assigns a JSON value, and
// no text in it can end the script or break the string it is in; in parts
// of per entries, the first assigns and the others add, in order, every
// entry once.
func TestSearchIndexJS(t *testing.T) {
	hostile := "</script><script>alert(1)</script> & \u2028\u2029 \"quoted\" \\"
	items := []browse.SearchItem{{Kind: "model", Title: hostile, Href: "runs/x/index.html", Words: browse.Words(hostile)}}
	parts, err := browse.SearchIndexJS(items, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 {
		t.Fatalf("%d parts of one entry", len(parts))
	}
	for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
		if bytes.Contains(parts[0].Data, []byte(bad)) {
			t.Errorf("index holds a raw %q: %s", bad, parts[0].Data)
		}
	}
	if back := readSearchIndex(t, parts); len(back) != 1 || back[0].Title != hostile {
		t.Errorf("read back %+v", back)
	}
	if got, want := browse.Words("Kidney kidney-transplant, KIDNEY 60-year-old"), "kidney transplant 60 year old"; got != want {
		t.Errorf("words: %q, want %q", got, want)
	}
	for _, n := range []int{0, 1, 2, 5, 6} {
		var many []browse.SearchItem
		for i := range n {
			many = append(many, browse.SearchItem{Kind: "run", Title: show.Itoa(i)})
		}
		parts, err := browse.SearchIndexJS(many, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := max(1, (n+1)/2); len(parts) != want {
			t.Errorf("%d entries, 2 a part: %d parts, want %d", n, len(parts), want)
		}
		back := readSearchIndex(t, parts)
		if len(back) != n {
			t.Errorf("%d entries, 2 a part: read back %d", n, len(back))
		}
		for i, it := range back {
			if it.Title != show.Itoa(i) {
				t.Errorf("%d entries, 2 a part: entry %d is %q", n, i, it.Title)
			}
		}
	}
}

// TestSearchIndexInSite: the fixture site's index has every scenario of
// both variants, every model and run, the intervention, the design's
// groups and the glossary's terms, each linking to a page the site has
// (and an anchor on it), a scenario to its prompt pages too, and the
// search page loads it by a relative path.
func TestSearchIndexInSite(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	if files[browse.SearchIndexPartPath(2)] != nil {
		t.Fatalf("the fixture site's index is in parts")
	}
	items := readSearchIndex(t, []outdir.File{{Path: browse.SearchIndexPath, Data: files[browse.SearchIndexPath]}})
	kinds := map[string]int{}
	baseline := "#" + design.Baseline.Anchor()
	for _, it := range items {
		kind := strings.SplitN(it.Kind, " ", 2)[0]
		kinds[kind]++
		if (it.Prompts != "") != (kind == "scenario") || (it.Cell != nil) && kind != "group" {
			t.Errorf("%s (%s): prompts %q, cell %q", it.Title, it.Kind, it.Prompts, it.Cell)
		}
		for _, href := range []string{it.Href, it.Alt, it.Prompts + baseline, it.AltPrompts + baseline} {
			if href == "" || href == baseline {
				continue
			}
			path, anchor, _ := strings.Cut(href, "#")
			page := files[path]
			if page == nil {
				t.Errorf("%s links to %s: no such page", it.Title, href)
				continue
			}
			if anchor != "" && !bytes.Contains(page, []byte("id="+anchor)) && !bytes.Contains(page, []byte(`id="`+anchor+`"`)) {
				t.Errorf("%s links to %s: no such anchor", it.Title, href)
			}
		}
		// A scenario is found by its own words, not by the person of its
		// baseline prompt, whom a group's words pick.
		if ws := " " + it.Words + " "; kind == "scenario" && (strings.Contains(ws, " male ") || strings.Contains(ws, " white ") || strings.Contains(ws, " 60 ")) {
			t.Errorf("%s: words %q hold the baseline person's", it.Title, it.Words)
		}
	}
	// Six runs of five models; one intervention; the explicit and implicit
	// questions of the reference rows; nine ages, older and younger, three
	// genders and five races; the glossary's terms.
	if kinds["run"] != 6 || kinds["model"] != 5 || kinds["intervention"] != 1 || kinds["scenario"] == 0 || kinds["group"] != 19 || kinds["term"] != len(vocab.Terms) {
		t.Errorf("index kinds %v, want 6 runs, 5 models, 1 intervention, the scenarios, 19 groups and %d terms", kinds, len(vocab.Terms))
	}
	for _, it := range items {
		if it.Kind == "model" && strings.HasPrefix(it.Title, "Beta") && it.Title != "Beta <b>bold</b> & co" {
			t.Errorf("model title %q", it.Title)
		}
	}
	s := files[browse.SearchPath]
	if !bytes.Contains(s, []byte("<script src=data/search-index.js></script><script src=assets/search.js></script>")) {
		t.Errorf("%s does not load the index and the script by relative paths", browse.SearchPath)
	}
	if !bytes.Contains(s, []byte("<noscript>")) {
		t.Errorf("%s says nothing without JavaScript", browse.SearchPath)
	}
}
