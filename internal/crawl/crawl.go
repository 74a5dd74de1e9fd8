// Package crawl checks a generated site as a reader's browser would meet it:
// every internal link and fragment resolves to a file and an id, ids are
// unique per page, nothing is escaped twice, and no page asks for anything
// from the network.
package crawl

import (
	"bytes"
	"fmt"
	stdhtml "html"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/html"
)

// Page is what the crawl learns of one HTML file.
type Page struct {
	IDs   map[string]bool
	Links []Link
}

// Link is a reference from a page.
type Link struct {
	Tag, Attr, URL string
}

// Parse extracts ids and references from an HTML document and reports
// duplicate ids.
func Parse(doc []byte) (*Page, []string) {
	p := &Page{IDs: map[string]bool{}}
	var problems []string
	l := html.NewLexer(parse.NewInputBytes(doc))
	var tag string
	for {
		tt, data := l.Next()
		switch tt {
		case html.ErrorToken:
			return p, problems
		case html.StartTagToken:
			tag = strings.ToLower(string(data[1:]))
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			val := stdhtml.UnescapeString(strings.Trim(string(l.AttrVal()), `"'`))
			switch key {
			case "id":
				if p.IDs[val] {
					problems = append(problems, fmt.Sprintf("duplicate id %q", val))
				}
				p.IDs[val] = true
			case "href", "src", "action", "srcset", "poster", "data":
				// <base> is deliberate: 404.html is served at any path and
				// resolves its relative links from the site's base path.
				if tag != "base" {
					p.Links = append(p.Links, Link{tag, key, val})
				}
			}
		}
	}
}

// Site checks every HTML file among files (path → contents) and returns
// the problems found, sorted.
func Site(files map[string][]byte) []string {
	pages := map[string]*Page{}
	var problems []string
	add := func(file, format string, args ...any) {
		problems = append(problems, file+": "+fmt.Sprintf(format, args...))
	}
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		p, dups := Parse(data)
		pages[name] = p
		for _, d := range dups {
			add(name, "%s", d)
		}
		for _, bad := range []string{"&amp;lt;", "&amp;gt;", "&amp;amp;", "&amp;quot;", "&amp;#"} {
			if bytes.Contains(data, []byte(bad)) {
				add(name, "double-escaped text %q", bad)
			}
		}
	}
	for name, p := range pages {
		for _, l := range p.Links {
			u, err := url.Parse(l.URL)
			if err != nil {
				add(name, "<%s %s=%q>: %v", l.Tag, l.Attr, l.URL, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				// Readers may follow links out; the page itself must not load
				// anything from elsewhere.
				if l.Tag != "a" || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "mailto") {
					add(name, "<%s %s=%q> reaches outside the site", l.Tag, l.Attr, l.URL)
				}
				continue
			}
			if strings.HasPrefix(u.Path, "/") {
				add(name, "<%s %s=%q> is root-relative and breaks from file:// and sub-paths", l.Tag, l.Attr, l.URL)
				continue
			}
			target := name
			if u.Path != "" {
				target = path.Join(path.Dir(name), u.Path)
				if strings.HasSuffix(u.Path, "/") || u.Path == "." {
					add(name, "<%s %s=%q> links a folder, which file:// does not resolve to index.html", l.Tag, l.Attr, l.URL)
					continue
				}
				if strings.HasPrefix(target, "../") || target == ".." {
					add(name, "<%s %s=%q> leaves the site", l.Tag, l.Attr, l.URL)
					continue
				}
				if _, ok := files[target]; !ok {
					add(name, "<%s %s=%q>: no such file %s", l.Tag, l.Attr, l.URL, target)
					continue
				}
			}
			if u.Fragment != "" {
				tp, ok := pages[target]
				if !ok {
					add(name, "<%s %s=%q>: fragment into a non-HTML file", l.Tag, l.Attr, l.URL)
				} else if !tp.IDs[u.Fragment] {
					add(name, "<%s %s=%q>: %s has no id %q", l.Tag, l.Attr, l.URL, target, u.Fragment)
				}
			}
		}
	}
	sort.Strings(problems)
	return problems
}
