package site

import (
	"path"
	"testing"
)

// TestPageKind: every HTML file of the fixture site is a page of exactly
// one kind by the URLs of pageKinds, each kind's golden page is of that
// kind, and every kind has a page; no other file is a page. (The browser
// tests know the kinds from PageKind.)
func TestPageKind(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for p := range fixtureSite(t) {
		kind, ok := PageKind(p)
		if html := path.Ext(p) == ".html"; ok != html {
			t.Errorf("%s: kind %q, a page %v", p, kind, ok)
			continue
		}
		n := 0
		for _, re := range kindPaths() {
			if re.MatchString(p) {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%s: the URL of %d kinds", p, n)
		}
		seen[kind]++
	}
	for _, k := range pageKinds {
		if got, _ := PageKind(k.Golden); got != string(k.Name) {
			t.Errorf("%s's golden page %s is of kind %q", k.Name, k.Golden, got)
		}
		if seen[string(k.Name)] == 0 {
			t.Errorf("no page of kind %s", k.Name)
		}
	}
}
