package site

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSearchIndexJS: the index is a script that assigns a JSON value, and
// no text in it can end the script or break the string it is in.
func TestSearchIndexJS(t *testing.T) {
	hostile := "</script><script>alert(1)</script> & \u2028\u2029 \"quoted\" \\"
	items := []searchItem{{Kind: "model", Title: hostile, Href: "runs/x/index.html", Words: words(hostile)}}
	js, err := searchIndexJS(items)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("index holds a raw %q: %s", bad, js)
		}
	}
	body, ok := bytes.CutPrefix(js, []byte("window.SEARCH_INDEX="))
	body, ok2 := bytes.CutSuffix(body, []byte(";\n"))
	if !ok || !ok2 {
		t.Fatalf("not an assignment: %s", js)
	}
	var back []searchItem
	if err := json.Unmarshal(body, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].Title != hostile {
		t.Errorf("read back %+v", back)
	}
	if got, want := words("Kidney kidney-transplant, KIDNEY 60-year-old"), "kidney transplant 60 year old"; got != want {
		t.Errorf("words: %q, want %q", got, want)
	}
}

// TestSearchIndexInSite: the fixture site's index has every scenario of
// both variants, every model and run and the intervention, each linking
// to a page the site has (and an anchor on it), and the search page loads
// it by a relative path.
func TestSearchIndexInSite(t *testing.T) {
	files := fixtureSite(t)
	js := files[searchIndexPath]
	body, _ := bytes.CutPrefix(js, []byte("window.SEARCH_INDEX="))
	var items []searchItem
	if err := json.Unmarshal(bytes.TrimSuffix(body, []byte(";\n")), &items); err != nil {
		t.Fatalf("%s: %v", searchIndexPath, err)
	}
	kinds := map[string]int{}
	for _, it := range items {
		kinds[strings.SplitN(it.Kind, " ", 2)[0]]++
		path, anchor, _ := strings.Cut(it.Href, "#")
		page := files[path]
		if page == nil {
			t.Errorf("%s links to %s: no such page", it.Title, it.Href)
			continue
		}
		if anchor != "" && !bytes.Contains(page, []byte("id="+anchor)) && !bytes.Contains(page, []byte(`id="`+anchor+`"`)) {
			t.Errorf("%s links to %s: no such anchor", it.Title, it.Href)
		}
	}
	// Six runs of five models; one intervention; the explicit and implicit
	// questions of the reference rows.
	if kinds["run"] != 6 || kinds["model"] != 5 || kinds["intervention"] != 1 || kinds["scenario"] == 0 {
		t.Errorf("index kinds %v, want 6 runs, 5 models, 1 intervention and the scenarios", kinds)
	}
	for _, it := range items {
		if it.Kind == "model" && strings.HasPrefix(it.Title, "Beta") && it.Title != "Beta <b>bold</b> & co" {
			t.Errorf("model title %q", it.Title)
		}
	}
	s := files[searchPath]
	if !bytes.Contains(s, []byte("<script src=data/search-index.js></script><script src=assets/search.js></script>")) {
		t.Errorf("%s does not load the index and the script by relative paths", searchPath)
	}
	if !bytes.Contains(s, []byte("<noscript>")) {
		t.Errorf("%s says nothing without JavaScript", searchPath)
	}
}
