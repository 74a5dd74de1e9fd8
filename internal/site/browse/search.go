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
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

const (
	SearchPath      = paths.SearchPath
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

// SearchItem is one entry of the index: what it is, its title, the page
// and anchor it links to, and its words (lower case, each once, in order of
// first appearance) that a query's words are matched against as prefixes,
// or, when no word of the index begins with one, within one edit
// (static/search.js).
//
// Kind's first word puts its results in a group: run, model and
// intervention under Runs; scenario under Scenarios and, through Prompts,
// under Prompts; group, board, page and term under Pages.
type SearchItem struct {
	Kind  string `json:"k"`
	Title string `json:"t"`
	Href  string `json:"u"`
	// Alt is the implicit variant's page of an entry whose Href is the
	// explicit one's (a scenario's compare page, a board).
	Alt string `json:"a,omitempty"`
	// Prompts and AltPrompts are a scenario's prompt pages, without an
	// anchor: the script adds the cell the query names, or the
	// baseline's.
	Prompts    string `json:"p,omitempty"`
	AltPrompts string `json:"b,omitempty"`
	// Cell is a group's level of the design, for a group entry that is
	// one: its attribute (age, gender, race), its slug in a cell's anchor
	// and its name as a cell's label writes it. A query naming it opens a
	// scenario's prompt pages at that person's prompt.
	Cell  []string `json:"c,omitempty"`
	Words string   `json:"w"`
}

// searchGroup is a group of the design a reader may search for, by its
// name and the words the site uses for it.
type searchGroup struct {
	title string
	// cell is the level of the design it is, if it is one.
	cell []string
	// coef is the coefficient that compares it with the baseline
	// person's, if there is one: its plot on the groups page.
	coef  design.Coef
	view  score.View
	words string
}

// searchGroups are the design's groups: each age (a cell's level, found
// by its number), older and younger people (the age coefficient), the
// genders and the races, each under the words the site and its readers
// use for it.
func searchGroups() []searchGroup {
	var gs []searchGroup
	for _, a := range design.Ages {
		age := show.Itoa(a)
		gs = append(gs, searchGroup{title: "age " + age + ": the age board", cell: []string{"age", age, age}, coef: design.NumCoefs, view: score.AgeView, words: age})
	}
	gs = append(gs,
		searchGroup{title: "older people, against younger: each model’s age coefficient", coef: design.CoefAge, view: score.AgeView, words: "older old elderly elder aged"},
		searchGroup{title: "younger people, against older: each model’s age coefficient", coef: design.CoefAge, view: score.AgeView, words: "younger young youth"})
	genderWords := map[design.Gender]string{design.Male: "male man men", design.Female: "female woman women", design.NonBinary: "non-binary nonbinary"}
	for _, g := range design.Genders {
		sg := searchGroup{cell: []string{"gender", g.Slug(), g.String()}, coef: design.NumCoefs, view: score.GenderView, words: genderWords[g]}
		sg.title = g.String() + ", the baseline person’s gender: the gender board"
		if g != design.Baseline.Gender {
			sg.coef = design.CoefFemale + design.Coef(g-design.Female)
			sg.title = g.String() + ", against male: each model’s coefficient"
		}
		gs = append(gs, sg)
	}
	raceWords := map[design.Race]string{design.Black: "african", design.Hispanic: "latino latina latinx", design.NativeAmerican: "indigenous"}
	for _, r := range design.Races {
		sg := searchGroup{cell: []string{"race", r.Slug(), r.String()}, coef: design.NumCoefs, view: score.RaceView, words: r.String() + " " + raceWords[r]}
		sg.title = r.String() + ", the baseline person’s race: the race board"
		if r != design.Baseline.Race {
			sg.coef = design.CoefBlack + design.Coef(r-design.Black)
			sg.title = r.String() + ", against white: each model’s coefficient"
		}
		gs = append(gs, sg)
	}
	return gs
}

// searchTerms are the extra words a page of the navigation is found by.
var searchTerms = map[string]string{
	paths.HomePath:           "board ranking rank composite",
	paths.BenchmarkPath:      "discrim eval dataset paper anthropic",
	paths.MitigationPath:     "intervention interventions prompt",
	paths.TranscriptsPath:    "transcripts scenarios prompts runs",
	paths.MethodologyPath:    "statistics model mixed logit",
	paths.RubricPath:         "scoring settings",
	paths.ProvenancePagePath: "files hashes sha256",
	paths.ChangesPath:        "release previous",
	paths.DownloadsPath:      "data csv json schema",
}

// SearchIndex is the index's entries, each kind in an order of its own
// and the kinds in this order: the design's groups and the site's pages,
// each scenario (its labels and the words of its variants' baseline
// prompts, less the words of the design's groups, which pick the person
// whose prompt a scenario's result opens), each model, each run and each
// intervention run against its model's default prompt.
func SearchIndex(texts *layout.DatasetTexts, rs *stage.Runs, rk *stage.Ranked, nav []layout.NavItem) []SearchItem {
	items := searchPages(rk, nav)
	groupWords := map[string]bool{}
	for _, g := range searchGroups() {
		for _, w := range strings.Fields(Words(g.words)) {
			groupWords[w] = true
		}
	}
	// Scenarios: one entry per question, for both variants (their texts
	// share most words, so one entry costs half of two), linking to each
	// variant's compare page and its prompt page.
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
			if it.Href == "" {
				it.Title, it.Href, it.Prompts = "Question "+show.Itoa(q)+": "+texts.Label(v, q), paths.ComparePath(v, q), paths.PromptPath(v, q)
			} else {
				it.Alt, it.AltPrompts = paths.ComparePath(v, q), paths.PromptPath(v, q)
			}
			it.Kind += " · " + string(v)
			ws = append(ws, texts.Label(v, q), texts.Title(v, q), base)
		}
		var kept []string
		for _, w := range strings.Fields(Words(ws...)) {
			if !groupWords[w] {
				kept = append(kept, w)
			}
		}
		it.Words = "q" + show.Itoa(q) + " " + strings.Join(kept, " ")
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

// searchPages are the entries of the design's groups, the boards and
// the pages of the navigation and the glossary's terms. A group links to
// its group board (boards.GroupBoardPages), or without one its plot on
// the groups page, or, for the baseline person's own groups
// and the ages, to the board of its attribute; a board and a groups page
// link to the explicit variant's, with the implicit's beside it.
func searchPages(rk *stage.Ranked, nav []layout.NavItem) []SearchItem {
	var items []SearchItem
	both := func(it SearchItem, href func(run.Variant) string) SearchItem {
		it.Href, it.Alt = href(run.Explicit), href(run.Implicit)
		return it
	}
	for _, g := range searchGroups() {
		kind := "group · " + g.view.Name()
		it := both(SearchItem{Kind: kind, Title: g.title, Cell: g.cell, Words: Words(g.words)}, func(v run.Variant) string {
			if g.coef < design.NumCoefs {
				if boards.HasGroupBoards(rk, v) {
					return paths.GroupBoardPath(v, g.coef)
				}
				if href, ok := boards.GroupAnchor(rk, v, g.coef); ok {
					return href
				}
			}
			return paths.BoardPath(v, g.view)
		})
		items = append(items, it)
	}
	for _, v := range score.Views {
		view := strings.ToLower(v.Title())
		items = append(items,
			both(SearchItem{Kind: "board", Title: "Leaderboard, " + view + " view", Words: Words(v.Name(), view, "board leaderboard ranking rank view")}, func(x run.Variant) string { return paths.BoardPath(x, v) }),
			both(SearchItem{Kind: "board · pairwise", Title: "Pairwise comparisons, " + view + " view", Words: Words(v.Name(), view, "pairwise paired comparisons compare two runs")}, func(x run.Variant) string { return paths.PairwisePath(x, v) }))
	}
	if boards.HasGroupFigure(rk, run.Explicit) || boards.HasGroupFigure(rk, run.Implicit) {
		it := SearchItem{Kind: "board · groups", Title: "Which groups each model favours", Words: Words("groups favours sign signed coefficients direction")}
		for _, v := range board.Variants {
			if boards.HasGroupFigure(rk, v) {
				if it.Href == "" {
					it.Href = paths.GroupsPath(v)
				} else {
					it.Alt = paths.GroupsPath(v)
				}
			}
		}
		items = append(items, it)
	}
	for _, n := range nav {
		items = append(items, SearchItem{Kind: "page", Title: n.Label, Href: n.Path, Words: Words(n.Label, searchTerms[n.Path])})
	}
	for _, t := range vocab.Terms {
		items = append(items, SearchItem{Kind: "term", Title: "Glossary: " + t.Name, Href: paths.GlossaryPath + "#" + t.ID, Words: Words(t.Name, "glossary")})
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
	return &layout.Page{Path: SearchPath, Title: "Search", Section: layout.SecSearch, Body: d}
}
