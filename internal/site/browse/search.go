package browse

// The search page and its index. The index is a script, data/search-index.js,
// that assigns the global SEARCH_INDEX: a page opened from file:// cannot
// fetch() a data file, but it can load a script by a relative path. A site
// of many runs has its index in parts (searchParts entries each, about
// 0.2 MB at 1,000), data/search-index-<k>.js from the second, each adding
// its entries, so that no file passes the 500 KB budget at any size; the
// search page loads them all, in order. The search runs in the page
// (static/search.js); nothing leaves it.

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

const (
	SearchPath      = "search.html"
	SearchIndexPath = "data/search-index.js"
	searchJSPath    = "assets/search.js"
)

type SearchData struct {
	// IndexHrefs are the index's parts, in order.
	IndexHrefs []string
	ScriptHref string
	// Browse lists the pages to read without a script.
	Browse []layout.QuestionLink
	Items  int // entries in the index
}

// searchItem is one entry of the index: what it is, its title, the page
// and anchor it links to, and its words (lower case, each once, in order of
// first appearance) that a query's words are matched against as prefixes.
type SearchItem struct {
	Kind  string `json:"k"`
	Title string `json:"t"`
	Href  string `json:"u"`
	// Alt is a scenario's page of the other variant (its implicit
	// prompts), when both variants have the question.
	Alt   string `json:"a,omitempty"`
	Words string `json:"w"`
}

// searchIndex is the index's entries: each scenario (its labels and the
// words of its variants' baseline prompts), each model, each run and each
// intervention run against its model's default prompt.
func SearchIndex(texts *layout.DatasetTexts, rs *stage.Runs, rk *stage.Ranked) []SearchItem {
	var items []SearchItem
	// Scenarios: one entry per question, for both variants (their texts
	// share most words, so one entry costs half of two), linking to the
	// baseline person's prompt on each variant's prompt page.
	seen := map[int]bool{}
	var qs []int
	for _, v := range board.Variants {
		for _, q := range texts.Questions(v) {
			if !seen[q] {
				seen[q] = true
				qs = append(qs, q)
			}
		}
	}
	sort.Ints(qs)
	for _, q := range qs {
		it := SearchItem{Kind: "scenario"}
		var ws []string
		for _, v := range board.Variants {
			base, ok := texts.Text(v, q, design.Baseline)
			if !ok && texts.Prompts(v, q) == 0 {
				continue
			}
			href := paths.PromptPath(v, q) + "#" + design.Baseline.Anchor()
			if it.Href == "" {
				it.Title, it.Href = "Question "+show.Itoa(q)+": "+texts.Label(v, q), href
			} else {
				it.Alt = href
			}
			it.Kind += " · " + string(v)
			ws = append(ws, texts.Label(v, q), texts.Title(v, q), base)
		}
		it.Words = Words(append([]string{"q" + show.Itoa(q)}, ws...)...)
		items = append(items, it)
	}
	// Models, by id: each links to its first run's row on the boards
	// (the first run by id that is ranked), else to its first run's page.
	type model struct {
		name, id, provider string
		href               string
		runs               []string
	}
	byID := map[string]*model{}
	var ids []string
	for _, e := range rs.Entries {
		m := e.Run.Manifest
		md := byID[m.Model.ID]
		if md == nil {
			md = &model{name: m.Model.Name, id: m.Model.ID, provider: m.Model.Provider, href: paths.RunPath(e.ID())}
			byID[m.Model.ID] = md
			ids = append(ids, m.Model.ID)
		}
		if e.Ranked && !strings.Contains(md.href, "#") {
			md.href = boards.BoardRowPath(rk, e, score.Composite)
		}
		md.runs = append(md.runs, e.ID())
	}
	sort.Strings(ids)
	for _, id := range ids {
		md := byID[id]
		items = append(items, SearchItem{Kind: "model", Title: md.name, Href: md.href, Words: Words(md.name, md.id, md.provider, strings.Join(md.runs, " "))})
	}
	for _, e := range rs.Entries {
		m := e.Run.Manifest
		kind := "run · " + string(m.Variant) + " · " + string(m.Scoring)
		if !layout.IsRanked(e) {
			kind += " · not ranked"
		}
		items = append(items, SearchItem{Kind: kind, Title: m.Model.Name + " · " + e.ID(),
			Href: paths.RunPath(e.ID()), Words: Words(e.ID(), m.Model.Name, m.Model.ID, string(m.Variant), string(m.Scoring), m.Intervention)})
	}
	for _, p := range rk.Pairs {
		m := p.B.Run.Manifest
		items = append(items, SearchItem{Kind: "intervention · " + string(m.Variant), Title: m.Model.Name + " · " + m.Intervention,
			Href: paths.MitigationAnchor(p.A.ID(), p.B.ID()), Words: Words(m.Intervention, m.Model.Name, p.B.ID(), p.A.ID(), m.InterventionText)})
	}
	return items
}

// words is the lower-case words of texts, each once, in order of first
// appearance: what a query is matched against.
func Words(texts ...string) string {
	seen := map[string]bool{}
	var out []string
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return strings.Join(out, " ")
}

// searchParts is how many entries a part of the index holds: ten pages of
// a listing's places (1,000 by default). An entry is about 0.15 KB (a
// scenario's, all in the first part, about 1 KB), so a part stays near
// 0.2 MB.
func SearchParts(per layout.Paging) int { return 10 * int(per) }

// searchIndexPartPath is part k (from 1) of the index.
func SearchIndexPartPath(k int) string {
	if k == 1 {
		return SearchIndexPath
	}
	return strings.TrimSuffix(SearchIndexPath, ".js") + "-" + show.Itoa(k) + ".js"
}

// searchIndexJS is the index as scripts of at most per entries: the first
// assigns SEARCH_INDEX, each later one appends its entries. json.Marshal
// escapes <, > and & and the line separators U+2028 and U+2029, so no
// text in it can end the script or the string it is in.
func SearchIndexJS(items []SearchItem, per int) ([]outdir.File, error) {
	var parts []outdir.File
	for k, lo := 1, 0; lo < len(items) || k == 1; k, lo = k+1, lo+per {
		data, err := json.Marshal(items[lo:min(len(items), lo+per)])
		if err != nil {
			return nil, err
		}
		var out []byte
		if k == 1 {
			out = append([]byte("window.SEARCH_INDEX="), data...)
		} else {
			out = append(append([]byte("window.SEARCH_INDEX=window.SEARCH_INDEX.concat("), data...), ')')
		}
		parts = append(parts, outdir.File{Path: SearchIndexPartPath(k), Data: append(out, ";\n"...)})
	}
	return parts, nil
}

// searchPage links, for readers without JavaScript, the browse pages;
// a variant's prompt index only when the site has its prompts.
func SearchPage(texts *layout.DatasetTexts, n int, parts []outdir.File) *layout.Page {
	browse := []layout.QuestionLink{{Label: "the leaderboard", Href: paths.HomePath}, {Label: "the scenarios and runs", Href: paths.TranscriptsPath}}
	for _, v := range board.Variants {
		if len(texts.Questions(v)) > 0 {
			browse = append(browse, layout.QuestionLink{Label: "the " + string(v) + " prompts", Href: paths.PromptIndexPath(v)})
		}
	}
	browse = append(browse, layout.QuestionLink{Label: "the prompt interventions", Href: paths.MitigationPath})
	d := SearchData{ScriptHref: searchJSPath, Items: n, Browse: browse}
	for _, f := range parts {
		d.IndexHrefs = append(d.IndexHrefs, f.Path)
	}
	return &layout.Page{Path: SearchPath, Title: "Search", Section: layout.SecTranscripts, Body: d}
}
