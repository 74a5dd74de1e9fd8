package crawl

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"

	"github.com/discrimeval/leaderboard/internal/input"
)

// isBidiControl is input.IsBidiControl: the embeddings, overrides and
// isolates.
var isBidiControl = input.IsBidiControl

// rightToLeft reports a letter of a right-to-left script (Hebrew, Arabic
// and the scripts written like them), whose run of text reorders the
// neutral characters around it unless it is isolated.
func rightToLeft(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

// Bidi checks that no text of the inputs can reorder the site's own text
// around it: in every HTML page, each run of text holding a bidi control
// or a right-to-left letter is inside a <bdi> element; no attribute value
// and no <title> holds a bidi control, since neither can be isolated (they
// are stripped); and no CSV file holds one. (Text inside <script> and
// <style> is data and code, not read as text; text inside <pre> is a
// file's lines shown as stored, each line only its own; and an <article>
// holds Markdown of the inputs, paragraphs of their own.)
func Bidi(files map[string][]byte) []string {
	var problems []string
	for name, data := range files {
		switch {
		case strings.HasSuffix(name, ".html"):
			for _, p := range bidiPage(data) {
				problems = append(problems, name+": "+p)
			}
		case strings.HasSuffix(name, ".csv"):
			if i := bytes.IndexFunc(data, isBidiControl); i >= 0 {
				r, _ := utf8.DecodeRune(data[i:])
				problems = append(problems, fmt.Sprintf("%s: line %d holds the bidi control U+%04X", name, 1+bytes.Count(data[:i], []byte("\n")), r))
			}
		}
	}
	sort.Strings(problems)
	return problems
}

func bidiPage(doc []byte) []string {
	var problems []string
	seen := map[string]bool{}
	add := func(format string, args ...any) {
		if p := fmt.Sprintf(format, args...); !seen[p] {
			seen[p] = true
			problems = append(problems, p)
		}
	}
	l := html.NewLexer(parse.NewInputBytes(doc))
	var tag string
	depth, pre := 0, 0 // of <bdi>, and of <pre> and <article>: end tags never left out
	for {
		tt, data := l.Next()
		switch tt {
		case html.ErrorToken:
			return problems
		case html.StartTagToken:
			tag = strings.ToLower(string(data[1:]))
			switch tag {
			case "bdi":
				depth++
			case "pre", "article":
				pre++
			}
		case html.EndTagToken:
			switch end := strings.ToLower(string(data[2 : len(data)-1])); {
			case end == "bdi" && depth > 0:
				depth--
			case (end == "pre" || end == "article") && pre > 0:
				pre--
			}
			tag = ""
		case html.AttributeToken:
			if bytes.ContainsFunc(l.AttrVal(), isBidiControl) {
				add("<%s %s=…> holds a bidi control, which an attribute cannot isolate", tag, l.AttrKey())
			}
		case html.TextToken:
			text := string(data)
			switch {
			case tag == "title" && strings.ContainsFunc(text, isBidiControl):
				add("<title> holds a bidi control, which a title cannot isolate: %q", text)
			case tag == "script" || tag == "style" || tag == "title" || pre > 0:
			case depth == 0 && strings.ContainsFunc(text, func(r rune) bool { return isBidiControl(r) || rightToLeft(r) }):
				add("text not isolated (no <bdi> around it): %q", shortText(text))
			}
		}
	}
}

// shortText is the part of a text around its first right-to-left
// character or bidi control, for a message.
func shortText(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return isBidiControl(r) || rightToLeft(r) })
	rs := []rune(s[max(0, i-40):])
	return string(rs[:min(len(rs), 80)])
}
