package content

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// FuzzBenchmark feeds benchmark pages (seeded with the registry's real
// one) to ParseBenchmark: no panic, errors name the file.
func FuzzBenchmark(f *testing.F) {
	good, err := os.ReadFile("../../content/benchmarks/discrim_eval.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"body": "x", "page": {"id": 1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseBenchmark("content/benchmarks/b.json", data)
		if err != nil {
			if p, _, ok := fileerr.Position(err); !ok || p != "content/benchmarks/b.json" {
				t.Fatalf("error without the file: %v", err)
			}
		}
	})
}

// loadingTags are elements that load something or carry markup of their
// own; Markdown must never produce them.
var loadingTags = map[string]bool{"img": true, "script": true, "link": true, "iframe": true, "source": true, "video": true, "audio": true,
	"object": true, "embed": true, "style": true, "svg": true, "image": true, "frame": true, "base": true, "meta": true, "math": true}

// alignStyle is the style goldmark gives an aligned table cell.
var alignStyle = regexp.MustCompile(`^"text-align:(left|right|center)"$`)

// loads returns the first element or attribute of an HTML fragment that
// loads something or runs script, or "".
func loads(doc string) string {
	l := html.NewLexer(parse.NewInputString(doc))
	tag := ""
	for {
		tt, data := l.Next()
		switch tt {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			tag = strings.ToLower(string(data[1:]))
			if loadingTags[tag] {
				return string(data)
			}
		case html.SVGToken, html.MathToken:
			return string(data)
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			// goldmark aligns a table's cells with a fixed style
			// attribute (a table row "|--:|"), which loads nothing;
			// any other style could (url(), @import).
			if key == "style" && alignStyle.MatchString(string(l.AttrVal())) {
				continue
			}
			if key == "src" || key == "srcset" || key == "style" || strings.HasPrefix(key, "on") || (key == "href" && tag != "a") {
				return "<" + tag + " " + string(data)
			}
		}
	}
}

// FuzzSiteYAML feeds site.yaml texts (seeded with the committed one) to
// ParseSite, the part of Load that reads site.yaml (the benchmark page
// has its own target): no panic, errors name the file, and an accepted
// base_path is a plain path and an accepted release date exists.
func FuzzSiteYAML(f *testing.F) {
	good, err := os.ReadFile("../../content/site.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(strings.Replace(string(good), "base_path: /", "base_path: //evil.example/", 1)))
	f.Add(append(append([]byte(nil), good...), "---\ntitle: x\n"...))
	for _, u := range []string{"https://github.com/o/r/raw/c/runs/", "http://github.com/o/r/raw/c/runs/", "https://github.com@other.host/runs/"} {
		f.Add(append(append([]byte(nil), good...), "runs_url: "+u+"\n"...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, err := ParseSite("content/site.yaml", data)
		if err != nil {
			if p, _, ok := fileerr.Position(err); !ok || p != "content/site.yaml" {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if checkBasePath(s.BasePath) != nil || strings.HasPrefix(s.BasePath, "//") {
			t.Fatalf("accepted base_path %q", s.BasePath)
		}
		if input.Date(s.Release.Date) != nil {
			t.Fatalf("accepted release.date %q", s.Release.Date)
		}
		if u := s.RunsURL; u != "" && (!strings.HasPrefix(u, "https://") || strings.Contains(strings.SplitN(u[len("https://"):], "/", 2)[0], "@")) {
			t.Fatalf("accepted runs_url %q", u)
		}
	})
}

// chunks splits Markdown between its blocks (at blank lines) into pieces
// of about max bytes.
func chunks(md string, max int) []string {
	var out []string
	cur := ""
	for _, block := range strings.SplitAfter(md, "\n\n") {
		if cur != "" && len(cur)+len(block) > max {
			out = append(out, cur)
			cur = ""
		}
		cur += block
	}
	return append(out, cur)
}

// FuzzMarkdown: whatever the Markdown (seeded with the committed pages and
// METHODOLOGY.md), the HTML has no element that loads anything and no
// event handler. METHODOLOGY.md is seeded in pieces of about 2 KB, split
// between blocks: every construct it uses is in one of them, and the
// fuzzer, which mutates and renders whole inputs, ran 387 a second with
// the 45 KB file whole.
func FuzzMarkdown(f *testing.F) {
	for _, p := range []string{"../../METHODOLOGY.md", "../../content/pages/about.md"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, chunk := range chunks(string(data), 2048) {
			f.Add([]byte(chunk))
		}
	}
	f.Add([]byte("![x](https://evil.example/a.png) <img src=x onerror=alert(1)> <script>alert(1)</script>"))
	f.Add([]byte("[![nested](//evil.example/i.png)](https://example.org/)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Markdown(data)
		if err != nil {
			return
		}
		if m := loads(string(out)); m != "" {
			t.Fatalf("Markdown rendered %q:\n%s", m, out)
		}
	})
}
