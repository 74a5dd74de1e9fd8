package highlight

import (
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
)

func TestHighlightKeepsTextAndEscapes(t *testing.T) {
	src := "model:\n  name: \"<script>alert(1)</script>\"\nnotes: |\n  a & b {{.X}}\n"
	got, err := Highlight("yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "<script>") || strings.Contains(s, "style=") {
		t.Errorf("unescaped markup or inline styles:\n%s", s)
	}
	if !strings.Contains(s, `class="chroma"`) {
		t.Errorf("no chroma class:\n%s", s)
	}
	// Strip the tags and unescape: the source comes back byte for byte.
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, ""))
	if text != src {
		t.Errorf("text changed:\n%q\nwant\n%q", text, src)
	}
}

func TestCSS(t *testing.T) {
	css, err := CSS()
	if err != nil {
		t.Fatal(err)
	}
	s := string(css)
	if !strings.Contains(s, ".chroma") || !strings.Contains(s, "prefers-color-scheme: dark") {
		t.Errorf("stylesheet:\n%s", s[:200])
	}
	again, _ := CSS()
	if string(again) != s {
		t.Error("the stylesheet is not deterministic")
	}
}

func TestUnknownLanguage(t *testing.T) {
	if _, err := Highlight("no-such-language", nil); err == nil {
		t.Error("no error for an unknown lexer")
	}
}

// TestNoMatchTimeout: once used, the lexers the site uses have no match
// timeout, so what a page shows does not depend on the machine's speed.
func TestNoMatchTimeout(t *testing.T) {
	for _, lang := range []string{"json", "yaml"} {
		if _, err := Highlight(lang, []byte("{}")); err != nil {
			t.Fatal(err)
		}
		ts := matchTimeouts(lexers.Get(lang))
		if len(ts) == 0 {
			t.Errorf("%s: no compiled rules", lang)
		}
		for _, d := range ts {
			if d != math.MaxInt64 {
				t.Errorf("%s: a rule has a match timeout of %d ns", lang, d)
				break
			}
		}
	}
}

// TestBidiShown: a bidi control in a file shown as stored is shown as its
// code point, never left to reorder the rest of its line.
func TestBidiShown(t *testing.T) {
	out, err := Highlight("yaml", []byte("name: \"Demo \u202eModel\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(string(out), '\u202e') || !strings.Contains(string(out), "[U+202E]Model") {
		t.Errorf("%s", out)
	}
}
