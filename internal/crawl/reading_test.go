package crawl

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A page as the minifier writes it: optional end tags left out.
const readingPage = `<!doctype html><html lang=en><head><title>Three words here</title><style>p{color:red}</style></head>` +
	`<body><main><div id=summary><p>Fair ranks first, <a href=x.html>beyond doubt</a>.</div>` +
	`<p>One two three<p>Four five` +
	`<details><summary>More: two tables</summary><p>six seven eight<table><tr><td>1</table></details>` +
	`<details open><summary>Open</summary><p>nine ten</details>` +
	`<div hidden><p>eleven twelve</div>` +
	`<script>var a = "thirteen fourteen";</script>` +
	`<table class="grid d5"><caption>Scores in logit</caption><thead><tr><th>Model<th>Score (logit)<th>SE<tbody>` +
	`<tr><th>A<td>+0.12<td>0.01<tr><th>B<td>−0.30<td>0.02</table>` +
	`<div class=prose><table><thead><tr><th>true gap<tbody><tr><td>0.5</table></div>` +
	`<p>Tail <dfn>defined</dfn> · – 3</main>`

func TestReadPage(t *testing.T) {
	got := ReadPage([]byte(readingPage))
	// Shown: summary 5 (Fair ranks first beyond doubt), 3, 2, the closed
	// details' summary 3 (More two tables), the open one's 3 (Open nine
	// ten), the table 13 (Scores in logit, Model, Score (logit), SE, A
	// +0.12 0.01, B −0.30 0.02), the prose table 3, the tail 3 (Tail,
	// defined, 3). Generated leaves out the head, the script, the prose
	// and the <dfn>.
	want := Text{
		Words: 5 + 3 + 2 + 3 + 3 + 13 + 3 + 3, TablesShown: 2,
		Summary: "Fair ranks first, beyond doubt.", HasSummary: true,
		Paragraphs: []string{"Fair ranks first, beyond doubt.", "One two three", "Four five", "six seven eight", "nine ten", "eleven twelve", "Tail defined · – 3"},
		Tables: []Table{
			{Columns: []Column{{Cells: []string{"1"}}}},
			{Class: "grid d5", Caption: "Scores in logit", Columns: []Column{
				{Header: "Model", Cells: []string{"A", "B"}},
				{Header: "Score (logit)", Cells: []string{"+0.12", "−0.30"}},
				{Header: "SE", Cells: []string{"0.01", "0.02"}},
			}},
			{Prose: true, Columns: []Column{{Header: "true gap", Cells: []string{"0.5"}}}},
		},
		Generated: "Fair ranks first, beyond doubt . One two three Four five More: two tables six seven eight 1 Open nine ten eleven twelve " +
			"Scores in logit Model Score (logit) SE A +0.12 0.01 B −0.30 0.02 Tail · – 3",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadPage (-want +got):\n%s", d)
	}
}

func TestWordCount(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a b": 2, "· – —": 0, "0.12 [−0.3, 0.1]": 3, "P(yes)": 1, "odds ×1.82": 2} {
		if got := WordCount(s); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// site makes a site of pages, each the frame around a body.
func site(bodies map[string]string) map[string][]byte {
	files := map[string][]byte{}
	for name, b := range bodies {
		files[name] = []byte("<!doctype html><html><head><title>t</title></head><body><main>" + b + "</main>")
	}
	return files
}

func TestRepeatedParagraphs(t *testing.T) {
	long := strings.Repeat("word ", ExplainWords-3) + "with %d of %d"
	short := strings.Repeat("word ", ExplainWords-2)
	bodies := map[string]string{}
	for i := range ExplainPages + 1 {
		// The same explanation with other numbers, and a short paragraph:
		// on ExplainPages+1 pages.
		bodies[fmt.Sprintf("p%d.html", i)] = "<p>" + fmt.Sprintf(long, i, 10*i) + "<p>" + short
	}
	r := Read(site(bodies))
	if len(r.Repeated) != 1 || r.Repeated[0].Pages != ExplainPages+1 || r.Repeated[0].First != "p0.html" || !strings.HasSuffix(r.Repeated[0].Text, "with 0 of 0") {
		t.Errorf("Repeated = %+v, want the long paragraph on %d pages, first p0.html", r.Repeated, ExplainPages+1)
	}
	if p := r.RepeatedProblems(); len(p) != 1 {
		t.Errorf("RepeatedProblems = %q", p)
	}
	delete(bodies, "p0.html")
	if p := Read(site(bodies)).RepeatedProblems(); len(p) != 0 {
		t.Errorf("on %d pages: RepeatedProblems = %q, want none", ExplainPages, p)
	}
}

func TestRunPageAndSummaryProblems(t *testing.T) {
	many := "<p>" + strings.Repeat("w ", RunPageWords+1)
	hidden := "<details><summary>more</summary><p>" + strings.Repeat("w ", RunPageWords+1) + "</details>"
	summary := func(n int) string { return "<div id=summary><p>" + strings.Repeat("w ", n) + "</div>" }
	r := Read(site(map[string]string{
		"runs/a/index.html":     summary(10) + many,
		"runs/b/index.html":     summary(SummaryWords+1) + hidden,
		"runs/c/index.html":     summary(SummaryWords) + hidden,
		"runs/c/scenarios.html": many,
		"index.html":            "<p>no summary",
	}))
	if d := cmp.Diff([]string{"runs/a/index.html: 1211 words before any <details> is opened, more than 1200"}, r.RunPageProblems()); d != "" {
		t.Errorf("RunPageProblems (-want +got):\n%s", d)
	}
	p := r.SummaryProblems(func(name string) bool { return name == "index.html" || RunPage(name) })
	if len(p) != 2 || !strings.HasPrefix(p[0], `index.html: no element with id="summary"`) || !strings.HasPrefix(p[1], "runs/b/index.html: the summary has 121 words") {
		t.Errorf("SummaryProblems = %q", p)
	}
}

func TestUnitAndColumnProblems(t *testing.T) {
	r := Read(site(map[string]string{
		"a.html": "<p>up to 4.1 pp of P(yes)",
		"b.html": "<p>up to 4.1 points of P(yes)<table><thead><tr><th>Score<th>Rank<th>SHA-256<tbody><tr><td>0.1<td>1<td>0a1b2c3d</table>",
		"c.html": "<table class=grid><caption>P(yes) per cell</caption><thead><tr><th>white<tbody><tr><td>0.52</table>",
		// The caption says the unit; a date and a release's label are names.
		"d.html": "<table><caption>Gaps, in logits</caption><thead><tr><th>Age<th>Released<th>Release<tbody><tr><td>0.1<td>2024-04-18<td>2026.11-demo</table>",
		// A caption of runs names no unit of the numbers.
		"e.html": "<table><caption>Log-probability runs</caption><thead><tr><th>Age<th>Size <span class=unit>parameters</span><tbody><tr><td>0.1<td>7B</table>",
	}))
	if p := r.UnitProblems(); len(p) != 1 || !strings.Contains(p[0], `"pp" on 1 pages, "points" on 1 pages`) {
		t.Errorf("UnitProblems = %q", p)
	}
	if d := cmp.Diff([]string{
		`b.html: table "": column "Score" holds numbers and names no unit`,
		`e.html: table "Log-probability runs": column "Age" holds numbers and names no unit`,
	}, r.ColumnProblems()); d != "" {
		t.Errorf("ColumnProblems (-want +got):\n%s", d)
	}
	if all, noUnit := r.NumberColumns(); all != 6 || noUnit != 2 {
		t.Errorf("NumberColumns = %d, %d; want 6 columns of numbers (b 2, c 1, d 1, e 2), 2 naming no unit", all, noUnit)
	}
}

func TestFirstUses(t *testing.T) {
	terms := []GlossaryTerm{
		{"logit", regexp.MustCompile(`(?i)\blogits?\b`)},
		{"view", regexp.MustCompile(`(?i)\bviews?\b`)},
		{"swing", regexp.MustCompile(`(?i)\bswings?\b`)},
		{"pp", regexp.MustCompile(`\bpp\b`)},
	}
	page := `<header><nav><a href=x.html>Views</a></nav></header><main><p class=crumbs>Leaderboard › views<h1>Views and logits</h1>` +
		`<p>Scores in <a class=term href="../glossary.html#logit">logits</a>, then logit again; <code>swing</code>` +
		`<table><tr><th>View<td>1 pp</table><p>The composite view<pre class=text>a swing</pre><ul><li>a <a href=glossary.html#pp>swing</a>` +
		`<li>4 pp</ul><div class=prose><p>A view of views</div></main><footer><p>pp</footer>`
	got := FirstUses([]byte(page), terms)
	want := []TermUse{
		{ID: "logit", Text: "logits", Context: "logits", Linked: true},
		{ID: "view", Text: "view", Context: "The composite view", Linked: false},
		{ID: "swing", Text: "swing", Context: "swing", Linked: false},
		{ID: "pp", Text: "pp", Context: "4 pp", Linked: false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("FirstUses (-want +got):\n%s", d)
	}
	// Markdown content is people's words: a use there is no first use.
	prose := FirstUses([]byte(`<main><div class=prose><p>one view<ul><li>a view</ul></div><p>two views</main>`), terms)
	if d := cmp.Diff([]TermUse{{ID: "view", Text: "views", Context: "two views"}}, prose); d != "" {
		t.Errorf("FirstUses after Markdown content (-want +got):\n%s", d)
	}
	files := map[string][]byte{"a.html": []byte(page), "glossary.html": []byte(page), "b.html": []byte(`<main><p><a href=glossary.html#view>Views</a></main>`)}
	if p := TermProblems(files, terms); len(p) != 3 || !strings.HasPrefix(p[0], `a.html: the first use of "view" ("view", in "The composite view") is not linked`) {
		t.Errorf("TermProblems = %q", p)
	}
}

// TestTermHints: the strings that let a text skip a term's pattern are
// ones every use contains, so that skipping never misses a use; a run's
// id holding a term's word is no use of it.
func TestTermHints(t *testing.T) {
	terms := []GlossaryTerm{
		{"logit", regexp.MustCompile(`(?i)\blogits?\b|\blog-odds\b`)},
		{"variant", regexp.MustCompile(`(?i)\bexplicit\b|\bimplicit\b`)},
		{"rank-set", regexp.MustCompile(`(?i)\brank sets?\b|\b95% (?:rank )?sets?\b`)},
		{"any", regexp.MustCompile(`(?i)\w+ly\b|[0-9]`)},
	}
	hints := termHints(terms)
	for i, text := range []string{"Log-Odds and LOGITS", "the IMPLICIT prompts", "its 95% set"} {
		if !slices.ContainsFunc(hints[i], func(h string) bool { return strings.Contains(strings.ToLower(text), h) }) {
			t.Errorf("%s: hints %q: none is in %q, a use", terms[i].ID, hints[i], text)
		}
	}
	if hints[3] != nil {
		t.Errorf("a pattern with a class in each branch has hints %q, want none", hints[3])
	}
	got := FirstUses([]byte(`<main><p>Files of run fair-7b-explicit and ager-implicit/x, then the explicit prompts</main>`), terms)
	if d := cmp.Diff([]TermUse{{ID: "variant", Text: "explicit", Context: "-explicit and ager-implicit/x, then the explicit prompts"}}, got); d != "" {
		t.Errorf("FirstUses in a run's id (-want +got):\n%s", d)
	}
}
