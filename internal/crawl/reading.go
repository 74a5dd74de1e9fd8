package crawl

// What a reader meets on a page before opening anything: its words and
// tables outside closed <details>, its paragraphs, its summary; and over
// a site, the explanatory paragraphs that stand on many pages and the
// spellings of a unit. The tests of the built sites hold the site to the
// limits below; cmd/pagefigures in internal/browsertest prints the
// figures.

import (
	"fmt"
	stdhtml "html"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"
)

// The limits the site is held to.
const (
	// ExplainWords and ExplainPages: no paragraph of ExplainWords words or
	// more stands on more than ExplainPages pages (a thing explained once,
	// on the glossary or the methodology, and linked).
	ExplainWords = 40
	ExplainPages = 3
	// RunPageWords is the most words a run page shows before any
	// <details> is opened, and SummaryWords the most of an element with
	// id="summary".
	RunPageWords = 1200
	SummaryWords = 120
)

// Text is what a page shows before any <details> is opened.
type Text struct {
	// Words and TablesShown count what is shown outside closed <details>
	// (their <summary> is shown) and outside <head>, scripts, styles,
	// templates and elements with the hidden attribute.
	Words, TablesShown int
	// Summary is the text of the element with id="summary", whitespace
	// collapsed, and HasSummary whether there is one.
	Summary    string
	HasSummary bool
	// Paragraphs are the texts of the page's <p> elements, whitespace
	// collapsed, wherever they stand.
	Paragraphs []string
	// Tables are the page's tables, shown or not, by column.
	Tables []Table
	// Generated is the page's text, shown or not, outside <head>,
	// scripts and styles, Markdown content (an element of class "prose")
	// and <dfn>s: the words the site writes from its numbers, where a
	// unit has one spelling (the glossary's <dfn> spells it out; people's
	// prose says "points" of other things).
	Generated string
}

// Table is one table of a page, by column.
type Table struct {
	// Class is its class attribute; Prose says it stands in Markdown
	// content (an element of class "prose" around it).
	Class   string
	Prose   bool
	Caption string
	Columns []Column
}

// Column is a table column: its header text and its body cells' texts.
type Column struct {
	Header string
	Cells  []string
}

// WordCount counts the words of s as the browser measure does: runs of
// non-space characters that hold a letter or a digit.
func WordCount(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// phrasing are the elements inside which a paragraph goes on.
var phrasing = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "br": true, "cite": true, "code": true, "data": true,
	"dfn": true, "em": true, "i": true, "kbd": true, "mark": true, "q": true, "s": true, "samp": true, "small": true,
	"span": true, "strong": true, "sub": true, "sup": true, "time": true, "u": true, "var": true, "wbr": true,
	"img": true, "label": true, "output": true,
}

// void elements have no end tag.
var void = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// region follows an element whose end tag is never left out (a div, a
// section, a details' summary) through the tokens, by its tag's depth.
type region struct {
	tag   string
	depth int
}

func (r *region) in() bool { return r.depth > 0 }

// enter starts the region at an element named tag, unless it is in one.
func (r *region) enter(tag string) {
	if r.depth == 0 && !optionalEnd[tag] && !void[tag] {
		r.tag, r.depth = tag, 1
	}
}

func (r *region) start(tag string) {
	if r.depth > 0 && tag == r.tag {
		r.depth++
	}
}

func (r *region) end(tag string) {
	if r.depth > 0 && tag == r.tag {
		r.depth--
	}
}

// optionalEnd are the elements whose end tag the minifier leaves out:
// a region cannot be followed through them.
var optionalEnd = map[string]bool{
	"p": true, "li": true, "dt": true, "dd": true, "tr": true, "td": true, "th": true, "thead": true,
	"tbody": true, "tfoot": true, "option": true, "html": true, "head": true, "body": true, "caption": true,
	"colgroup": true, "optgroup": true, "rt": true, "rp": true,
}

// ReadPage reads what a page shows. The site's HTML is minified, with the
// end tags HTML allows to be left out left out: the reading follows only
// <details>, <summary>, hidden and prose elements (whose end tags are
// never left out) and ends a paragraph or a table cell at the next start
// that ends it.
func ReadPage(doc []byte) Text {
	var t Text
	l := html.NewLexer(parse.NewInputBytes(doc))
	var (
		tag           string
		detailsOpen   []bool // the open attribute of each <details> around
		closedDetails int    // how many of them are closed
		inSummary     int
		hidden        region
		prose         region
		dfn           region
		gen           strings.Builder
		summaryEl     region
		skip          string // inside script, style, template or title
		inHead        bool
		para          *strings.Builder
		summary       strings.Builder
		inTable       int
		table         *Table
		row           []string
		rowIsHead     bool
		inThead       bool
		cell, caption *strings.Builder
	)
	collapse := func(b *strings.Builder) string {
		return strings.Join(strings.Fields(stdhtml.UnescapeString(b.String())), " ")
	}
	endPara := func() {
		if para != nil {
			t.Paragraphs = append(t.Paragraphs, collapse(para))
			para = nil
		}
	}
	endCell := func() {
		if cell != nil {
			row = append(row, collapse(cell))
			cell = nil
		}
	}
	endRow := func() {
		endCell()
		if table != nil && row != nil {
			for i, c := range row {
				for len(table.Columns) <= i {
					table.Columns = append(table.Columns, Column{})
				}
				col := &table.Columns[i]
				if rowIsHead || inThead {
					col.Header = strings.TrimSpace(col.Header + " " + c)
				} else {
					col.Cells = append(col.Cells, c)
				}
			}
		}
		row, rowIsHead = nil, false
	}
	shown := func() bool {
		return (closedDetails == 0 || inSummary > 0) && !hidden.in() && skip == "" && !inHead
	}
	text := func(s string) {
		if skip != "" || inHead {
			return
		}
		if shown() {
			t.Words += WordCount(stdhtml.UnescapeString(s))
		}
		for _, b := range []*strings.Builder{para, cell, caption} {
			if b != nil {
				b.WriteString(s)
			}
		}
		if summaryEl.in() {
			summary.WriteString(s)
		}
		if !prose.in() && !dfn.in() {
			gen.WriteString(s)
			gen.WriteByte(' ')
		}
	}
	for {
		tt, data := l.Next()
		switch tt {
		case html.ErrorToken:
			endPara()
			t.Summary = collapse(&summary)
			t.Generated = strings.Join(strings.Fields(stdhtml.UnescapeString(gen.String())), " ")
			return t
		case html.StartTagToken:
			tag = strings.ToLower(string(data[1:]))
			hidden.start(tag)
			prose.start(tag)
			dfn.start(tag)
			summaryEl.start(tag)
			if !phrasing[tag] {
				endPara()
			}
			switch tag {
			case "head":
				inHead = true
			case "body":
				inHead = false
			case "script", "style", "template", "title":
				skip = tag
			case "p":
				para = &strings.Builder{}
			case "dfn":
				dfn.enter(tag)
			case "details":
				detailsOpen = append(detailsOpen, false)
			case "summary":
				inSummary++
			case "table":
				inTable++
				if inTable == 1 {
					table = &Table{Prose: prose.in()}
					if shown() {
						t.TablesShown++
					}
				}
			case "caption":
				if inTable == 1 {
					caption = &strings.Builder{}
				}
			case "thead":
				endRow()
				inThead = true
			case "tbody", "tfoot":
				endRow()
				inThead = false
			case "tr":
				if inTable == 1 {
					endRow()
					row = []string{}
				}
			case "th", "td":
				if inTable == 1 {
					if caption != nil {
						table.Caption, caption = collapse(caption), nil
					}
					endCell()
					cell = &strings.Builder{}
				}
			}
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			val := stdhtml.UnescapeString(strings.Trim(string(l.AttrVal()), `"'`))
			switch {
			case key == "open" && tag == "details":
				detailsOpen[len(detailsOpen)-1] = true
			case key == "hidden":
				hidden.enter(tag)
			case key == "class" && tag == "table" && table != nil && inTable == 1:
				table.Class = val
			case key == "class" && slices.Contains(strings.Fields(val), "prose"):
				prose.enter(tag)
			case key == "id" && val == "summary":
				t.HasSummary = true
				summaryEl.enter(tag)
			}
		case html.StartTagCloseToken, html.StartTagVoidToken:
			if tag == "details" && !detailsOpen[len(detailsOpen)-1] {
				closedDetails++
			}
			if tag == "br" {
				text(" ")
			}
		case html.TextToken:
			text(string(data))
		case html.SVGToken, html.MathToken:
			// A chart: its labels are words on the page.
			text(string(tagRe.ReplaceAll(data, []byte(" "))))
		case html.EndTagToken:
			name := strings.ToLower(string(data[2 : len(data)-1]))
			hidden.end(name)
			prose.end(name)
			dfn.end(name)
			summaryEl.end(name)
			if !phrasing[name] {
				endPara()
			}
			switch name {
			case "head":
				inHead = false
			case "script", "style", "template", "title":
				skip = ""
			case "details":
				if n := len(detailsOpen); n > 0 {
					if !detailsOpen[n-1] {
						closedDetails--
					}
					detailsOpen = detailsOpen[:n-1]
				}
			case "summary":
				inSummary--
			case "caption":
				if caption != nil {
					table.Caption, caption = collapse(caption), nil
				}
			case "th", "td":
				if inTable == 1 {
					endCell()
				}
			case "tr":
				if inTable == 1 {
					endRow()
				}
			case "thead":
				endRow()
				inThead = false
			case "table":
				if inTable == 1 && table != nil {
					endRow()
					t.Tables = append(t.Tables, *table)
					table = nil
				}
				inTable--
			}
			tag = ""
		}
	}
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// digits are what may differ between two pages' copies of one
// explanation: "a transcript for 1 of the 135 prompts" and "for 2 of the
// 135" explain the same thing.
var digits = regexp.MustCompile(`[0-9]+(?:[.,][0-9]+)*`)

// Repeated is an explanatory paragraph that stands on many pages, its
// numbers aside.
type Repeated struct {
	// Text is its text on the first of its pages.
	Text  string
	Pages int
	// First is the first of its pages, by path.
	First string
}

// Reading is what Read finds over a site.
type Reading struct {
	// Pages is each HTML page's Text.
	Pages map[string]Text
	// Repeated are the paragraphs of at least ExplainWords words that
	// stand on more than ExplainPages pages, most pages first.
	Repeated []Repeated
	// Units counts the pages on which each spelling of a difference in
	// P(yes) stands (unitSpellings).
	Units map[string]int
}

// unitSpellings are the ways a difference in the probability of "yes"
// has been written on the site, each found in the page's generated text
// (Text.Generated); the site keeps one.
var unitSpellings = []struct {
	name string
	re   *regexp.Regexp
}{
	{"pp", regexp.MustCompile(`\d pp\b`)},
	{"points", regexp.MustCompile(`\d points\b`)},
	{"percentage points", regexp.MustCompile(`(?i)percentage points?\b`)},
}

// Read reads every HTML page of files.
func Read(files map[string][]byte) Reading {
	r := Reading{Pages: map[string]Text{}, Units: map[string]int{}}
	on, example := map[string][]string{}, map[string]string{}
	var names []string
	for name := range files {
		if strings.HasSuffix(name, ".html") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		t := ReadPage(files[name])
		r.Pages[name] = t
		seen := map[string]bool{}
		for _, p := range t.Paragraphs {
			k := digits.ReplaceAllString(p, "#")
			if WordCount(p) >= ExplainWords && !seen[k] {
				seen[k] = true
				on[k] = append(on[k], name)
				if _, ok := example[k]; !ok {
					example[k] = p
				}
			}
		}
		for _, u := range unitSpellings {
			if u.re.MatchString(t.Generated) {
				r.Units[u.name]++
			}
		}
	}
	for k, pages := range on {
		if len(pages) > ExplainPages {
			r.Repeated = append(r.Repeated, Repeated{Text: example[k], Pages: len(pages), First: pages[0]})
		}
	}
	sort.Slice(r.Repeated, func(i, j int) bool {
		a, b := r.Repeated[i], r.Repeated[j]
		if a.Pages != b.Pages {
			return a.Pages > b.Pages
		}
		return a.Text < b.Text
	})
	return r
}

// numberCell says a table cell holds a number: it starts with a digit,
// optionally signed or bracketed ("+0.12", "[0.01, 0.05]", "1–3", "95%").
// (By hand: the site has some 300,000 cells.)
func numberCell(s string) bool {
	s = strings.TrimLeft(s, "([")
	for _, sign := range []string{"−", "+", "-"} {
		if r, ok := strings.CutPrefix(s, sign); ok {
			s = r
			break
		}
	}
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// NumericColumns lists a table's columns whose body cells are mostly
// numbers.
func NumericColumns(tb Table) []Column {
	var out []Column
	for _, c := range tb.Columns {
		n, num := 0, 0
		for _, s := range c.Cells {
			if s == "" || s == "–" || s == "—" || s == "n/a" {
				continue
			}
			n++
			if numberCell(s) && !hexCell.MatchString(s) && !labelCell.MatchString(s) {
				num++
			}
		}
		if n > 0 && 2*num > n {
			out = append(out, c)
		}
	}
	return out
}

// hexCell is a hash or a commit, which starts with a digit as often as not.
var hexCell = regexp.MustCompile(`^[0-9a-f]{7,}$`)

// labelCell is a date ("2024-04-18") or a release's label ("2026.11-demo"):
// a name, not a quantity with a unit.
var labelCell = regexp.MustCompile(`^[0-9]{4}[-.][0-9]{2}\b`)

// unitWord names a unit in a column header or a grid's caption.
var unitWord = regexp.MustCompile(`(?i)\blogits?\b|\bpp\b|%|\bP\(yes\)|\bprompts?\b|\bpairs?\b|\bruns?\b|\bscenarios?\b|\bquestions?\b|\byears?\b|\bbytes\b|\brank\b|\branks\b|\banswers\b|\btimes\b|\bcells?\b|\bcount\b|\bshare\b|\bparameters\b|\bcolumn\b|\b(?:log-)?probability\b`)

// captionUnit is a table's caption that names the unit of its numbers
// ("…, in logit"): a column whose header names no unit of its own is in
// that one.
var captionUnit = regexp.MustCompile(`(?i)\bin (?:logits?|pp|percentage points)\b`)

// RepeatedProblems reports the explanatory paragraphs that stand on more
// than ExplainPages pages.
func (r Reading) RepeatedProblems() []string {
	var out []string
	for _, rp := range r.Repeated {
		out = append(out, fmt.Sprintf("%s and %d other pages: a paragraph of %d words stands on %d pages, more than %d: say it once (the glossary, the methodology) and link it: %.120q…",
			rp.First, rp.Pages-1, WordCount(rp.Text), rp.Pages, ExplainPages, rp.Text))
	}
	return out
}

// RunPage says whether a page is a run's page, runs/<id>/index.html.
func RunPage(name string) bool {
	rest, ok := strings.CutPrefix(name, "runs/")
	return ok && strings.Count(rest, "/") == 1 && strings.HasSuffix(rest, "/index.html")
}

// RunPageProblems reports the run pages that show more than RunPageWords
// words before any <details> is opened.
func (r Reading) RunPageProblems() []string {
	var out []string
	for _, name := range r.names() {
		if t := r.Pages[name]; RunPage(name) && t.Words > RunPageWords {
			out = append(out, fmt.Sprintf("%s: %d words before any <details> is opened, more than %d", name, t.Words, RunPageWords))
		}
	}
	return out
}

// SummaryProblems reports each of want that has no element with
// id="summary", and every page whose summary is over SummaryWords words or
// has no words.
func (r Reading) SummaryProblems(want func(name string) bool) []string {
	var out []string
	for _, name := range r.names() {
		t := r.Pages[name]
		switch n := WordCount(t.Summary); {
		case !t.HasSummary:
			if want(name) {
				out = append(out, name+`: no element with id="summary"`)
			}
		case n == 0:
			out = append(out, name+`: the element with id="summary" (a div or a section) has no words`)
		case n > SummaryWords:
			out = append(out, fmt.Sprintf(`%s: the summary has %d words, more than %d: %.80q…`, name, n, SummaryWords, t.Summary))
		}
	}
	return out
}

// UnitProblems reports a site that writes a difference in P(yes) in more
// than one way, with the pages of each.
func (r Reading) UnitProblems() []string {
	if len(r.Units) <= 1 {
		return nil
	}
	var ways []string
	for _, u := range unitSpellings {
		if n := r.Units[u.name]; n > 0 {
			ways = append(ways, fmt.Sprintf("%q on %d pages", u.name, n))
		}
	}
	return []string{"a difference in P(yes) is written " + strings.Join(ways, ", ") + ": keep one"}
}

// ColumnProblems reports, on every page, the table columns of numbers
// whose header names no unit (unitWord) and whose table's caption does not
// say the unit its numbers are in (captionUnit); a grid (class "grid"),
// whose columns are groups of people, names its unit in its caption.
// Tables of Markdown content (prose) are the content's.
func (r Reading) ColumnProblems() []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range r.names() {
		for _, tb := range r.Pages[name].Tables {
			for _, c := range unitless(tb) {
				// One line for a header however many pages repeat it.
				k := c.Header + "\x00" + digits.ReplaceAllString(tb.Caption, "#")
				if seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, fmt.Sprintf("%s: table %.60q: column %q holds numbers and names no unit", name, tb.Caption, c.Header))
			}
		}
	}
	return out
}

// unitless are the columns of numbers of a table whose header names no
// unit and whose caption says none for them.
func unitless(tb Table) []Column {
	if tb.Prose {
		return nil
	}
	if captionUnit.MatchString(tb.Caption) || slices.Contains(strings.Fields(tb.Class), "grid") && unitWord.MatchString(tb.Caption) {
		return nil
	}
	var out []Column
	for _, c := range NumericColumns(tb) {
		if !unitWord.MatchString(c.Header) {
			out = append(out, c)
		}
	}
	return out
}

// NumberColumns counts, over every page, the table columns of numbers
// outside Markdown content, and those of them that name no unit
// (ColumnProblems, which reports each header once).
func (r Reading) NumberColumns() (all, noUnit int) {
	for _, t := range r.Pages {
		for _, tb := range t.Tables {
			if !tb.Prose {
				all += len(NumericColumns(tb))
				noUnit += len(unitless(tb))
			}
		}
	}
	return all, noUnit
}

func (r Reading) names() []string {
	names := make([]string, 0, len(r.Pages))
	for name := range r.Pages {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// A GlossaryTerm is a term the site links to its glossary entry at its
// first use on a page: the entry's id on glossary.html and the pattern of
// its uses.
type GlossaryTerm struct {
	ID   string
	Uses *regexp.Regexp
}

// TermUse is the first use of a glossary term in a page's running text.
type TermUse struct {
	ID, Text string
	// Context is the text around it, for a message.
	Context string
	// Linked says it stands in a link to its entry.
	Linked bool
}

// runningText are the elements whose text is running text, where a term's
// first use is linked; headings, navigation, table cells, code and the
// texts quoted from the inputs are not.
var runningText = map[string]bool{"p": true, "li": true, "dd": true, "caption": true, "figcaption": true, "summary": true}

// FirstUses finds the first use of each term in the running text of a
// page's <main>, outside <pre>, <code>, <nav> (a list of links: the
// boards' switches), <bdi> and <blockquote> (a name or a text from the
// inputs), links to other pages than the glossary (a label), elements of
// class "crumbs", "text" or "flag" (a label), Markdown content (class "prose": people's words, read on GitHub
// too, where the glossary is no file) and the glossary's own <dfn>s, and
// says whether it is linked to glossary.html#<id>.
func FirstUses(doc []byte, terms []GlossaryTerm) []TermUse {
	return firstUses(doc, terms, termHints(terms))
}

// termHints are, for each term, strings one of which (lower-cased) every
// use of it contains, or nil: a text without any is not searched with
// the term's pattern, most of the time of a site's check.
func termHints(terms []GlossaryTerm) [][]string {
	out := make([][]string, len(terms))
	for i, t := range terms {
		if re, err := syntax.Parse(t.Uses.String(), syntax.Perl); err == nil {
			out[i] = literals(re.Simplify())
		}
	}
	return out
}

// literals are strings one of which every match of re contains, or nil.
func literals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return literals(re.Sub[0])
	case syntax.OpConcat:
		// The child whose shortest literal is longest.
		var best []string
		bestLen := 0
		for _, s := range re.Sub {
			l := literals(s)
			if len(l) == 0 {
				continue
			}
			n := len(l[0])
			for _, x := range l {
				n = min(n, len(x))
			}
			if n > bestLen {
				best, bestLen = l, n
			}
		}
		return best
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l := literals(s)
			if len(l) == 0 {
				return nil
			}
			out = append(out, l...)
		}
		return out
	}
	return nil
}

// glossaryLink says a link's href is to the glossary page.
func glossaryLink(href string) bool {
	p, _, _ := strings.Cut(href, "#")
	return path.Base(p) == "glossary.html"
}

// inName says the match at loc is part of a name such as a run's id
// ("fair-7b-explicit"), not a use of the word.
func inName(s string, loc []int) bool {
	return loc[0] > 0 && strings.IndexByte("-_/.", s[loc[0]-1]) >= 0
}

func firstUses(doc []byte, terms []GlossaryTerm, hints [][]string) []TermUse {
	l := html.NewLexer(parse.NewInputBytes(doc))
	var (
		tag         string
		inMain, out region // out: crumbs, quoted text, code
		link        string // the href of the link we are in
		pendingHref string // of the start tag being read
		running     bool   // in running text
		found       = map[string]bool{}
		uses        []TermUse
	)
	for {
		tt, data := l.Next()
		switch tt {
		case html.ErrorToken:
			return uses
		case html.StartTagToken:
			tag, pendingHref = strings.ToLower(string(data[1:])), ""
			inMain.start(tag)
			out.start(tag)
			if tag == "main" {
				inMain.enter(tag)
			}
			if runningText[tag] {
				running = true
			} else if !phrasing[tag] {
				running = false
			}
			switch tag {
			case "pre", "code", "dfn", "script", "style", "svg", "nav", "bdi", "blockquote":
				out.enter(tag)
			}
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			val := stdhtml.UnescapeString(strings.Trim(string(l.AttrVal()), `"'`))
			switch key {
			case "class":
				for _, c := range strings.Fields(val) {
					if c == "crumbs" || c == "text" || c == "prose" || c == "flag" {
						// A paragraph's end is left out: it is no running
						// text until the next element that is.
						running = false
						out.enter(tag)
					}
				}
			case "href":
				pendingHref = val
			}
		case html.StartTagCloseToken:
			if tag == "a" {
				link = pendingHref
			}
		case html.EndTagToken:
			name := strings.ToLower(string(data[2 : len(data)-1]))
			inMain.end(name)
			out.end(name)
			if name == "a" {
				link = ""
			}
			if runningText[name] {
				running = false
			}
		case html.TextToken:
			if !inMain.in() || out.in() || !running || link != "" && !glossaryLink(link) {
				continue
			}
			s := stdhtml.UnescapeString(string(data))
			lower := strings.ToLower(s)
			for i, t := range terms {
				if found[t.ID] || hints[i] != nil && !slices.ContainsFunc(hints[i], func(h string) bool { return strings.Contains(lower, h) }) {
					continue
				}
				var loc []int
				for _, l := range t.Uses.FindAllStringIndex(s, -1) {
					if !inName(s, l) {
						loc = l
						break
					}
				}
				if loc != nil {
					found[t.ID] = true
					_, frag, _ := strings.Cut(link, "#")
					uses = append(uses, TermUse{ID: t.ID, Text: s[loc[0]:loc[1]], Context: around(s, loc), Linked: frag == t.ID && glossaryLink(link)})
				}
			}
		}
	}
}

// around is the text of s around loc, some words either side.
func around(s string, loc []int) string {
	from, to := max(0, loc[0]-40), min(len(s), loc[1]+40)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	return strings.Join(strings.Fields(s[from:to]), " ")
}

// TermProblems reports, on every page but the glossary itself, the terms
// whose first use in running text is not linked to their entry.
func TermProblems(files map[string][]byte, terms []GlossaryTerm) []string {
	var out []string
	var names []string
	for name := range files {
		if strings.HasSuffix(name, ".html") && name != "glossary.html" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	hints := termHints(terms)
	for _, name := range names {
		for _, u := range firstUses(files[name], terms, hints) {
			if !u.Linked {
				out = append(out, fmt.Sprintf("%s: the first use of %q (%q, in %q) is not linked to glossary.html#%s", name, u.ID, u.Text, u.Context, u.ID))
			}
		}
	}
	return out
}
