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
	"regexp"
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
// duplicate ids. References are the attributes that link or load (href,
// src, srcset candidates, poster, data, action, xlink:href …) and the
// url() and @import of style attributes and <style> elements.
// pageState is a fragment that names a state of a page rather than an
// anchor: a word and "?", as "#filter?race=black" (the site's convention),
// or a page's whole state, a word and "=", as pair.html's "#a=<id>&b=<id>"
// (no id of the site holds an "=").
var pageState = regexp.MustCompile(`^[a-z]+[?=]`)

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
		case html.SVGToken, html.MathToken:
			// The lexer returns a whole <svg> or <math> element as one
			// token: lex its inside again, as a <g> so it is not one
			// token again, and keep its ids and references.
			if i := bytes.IndexAny(data, " \t\n\r\f/>"); i > 0 {
				inner, dups := Parse(append([]byte("<g"), data[i:]...))
				for id := range inner.IDs {
					if p.IDs[id] {
						problems = append(problems, fmt.Sprintf("duplicate id %q", id))
					}
					p.IDs[id] = true
				}
				problems = append(problems, dups...)
				p.Links = append(p.Links, inner.Links...)
			}
		case html.TextToken:
			if tag == "style" {
				for _, u := range CSSURLs(data) {
					p.Links = append(p.Links, Link{"style", "url()", u})
				}
			}
		case html.EndTagToken:
			tag = ""
		case html.AttributeToken:
			key := strings.ToLower(string(l.AttrKey()))
			val := stdhtml.UnescapeString(strings.Trim(string(l.AttrVal()), `"'`))
			switch key {
			case "id":
				if p.IDs[val] {
					problems = append(problems, fmt.Sprintf("duplicate id %q", val))
				}
				p.IDs[val] = true
			case "srcset", "imagesrcset":
				for _, c := range strings.Split(val, ",") {
					if f := strings.Fields(c); len(f) > 0 {
						p.Links = append(p.Links, Link{tag, key, f[0]})
					}
				}
			case "style":
				for _, u := range CSSURLs([]byte(val)) {
					p.Links = append(p.Links, Link{tag, "style", u})
				}
			case "href", "src", "action", "formaction", "poster", "data", "xlink:href", "background", "manifest", "ping":
				// <base> is deliberate: 404.html is served at any path and
				// resolves its relative links from the site's base path.
				if tag != "base" {
					p.Links = append(p.Links, Link{tag, key, val})
				}
			}
		}
	}
}

var cssURLRE = regexp.MustCompile(`(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')`)

// CSSURLs lists the url(…) and @import "…" references of CSS text.
func CSSURLs(css []byte) []string {
	var urls []string
	for _, m := range cssURLRE.FindAllSubmatch(css, -1) {
		for _, g := range m[1:] {
			if len(g) > 0 {
				urls = append(urls, stdhtml.UnescapeString(string(g)))
				break
			}
		}
	}
	return urls
}

// loads reports whether a reference is fetched by the page itself (an
// image, a script, a stylesheet, a frame …) rather than followed by the
// reader (a link, a form).
func loads(l Link) bool {
	switch l.Tag {
	case "a", "area", "form":
		return l.Attr == "ping"
	case "button", "input":
		return l.Attr == "src" // <input type=image>; formaction is followed
	}
	return true
}

// External lists the references of the HTML and CSS files among files
// that load something from outside the site: a loading element (img,
// script, link, iframe, source, video, audio, object, embed, …) or a CSS
// url() whose address has a scheme or a host ("https://…", "//host/…",
// "data:…"), or a root-relative path, which leaves the site served from a
// sub-path. Sorted.
func External(files map[string][]byte) []string {
	var found []string
	check := func(name string, l Link) {
		u, err := url.Parse(strings.TrimSpace(l.URL))
		if err != nil {
			found = append(found, fmt.Sprintf("%s: <%s %s=%q>: %v", name, l.Tag, l.Attr, l.URL, err))
			return
		}
		if u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") || strings.HasPrefix(l.URL, "//") || strings.HasPrefix(l.URL, "\\") {
			found = append(found, fmt.Sprintf("%s: <%s %s=%q> loads from outside the site", name, l.Tag, l.Attr, l.URL))
		}
	}
	for name, data := range files {
		switch {
		case strings.HasSuffix(name, ".html"):
			p, _ := Parse(data)
			for _, l := range p.Links {
				if loads(l) {
					check(name, l)
				}
			}
		case strings.HasSuffix(name, ".css"):
			for _, u := range CSSURLs(data) {
				check(name, Link{"css", "url()", u})
			}
		}
	}
	sort.Strings(found)
	return found
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
				} else if pageState.MatchString(u.Fragment) {
					// A state of the page ("#cells?a=…"), which its script
					// reads: not an id.
				} else if !tp.IDs[u.Fragment] {
					add(name, "<%s %s=%q>: %s has no id %q", l.Tag, l.Attr, l.URL, target, u.Fragment)
				}
			}
		}
	}
	sort.Strings(problems)
	return problems
}
