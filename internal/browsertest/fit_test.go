package browsertest

import (
	"slices"
	"testing"
)

// checkTablesFit requires that no table box scroll sideways: at 1280 px
// every table of every page kind fits its box (a phone scrolls wide tables
// inside theirs). TestPages runs it on a page of every kind and on the
// layout pages, in light and dark mode.
func checkTablesFit(t *testing.T, tb *tab, v visit) {
	t.Helper()
	wide := eval[[]string](tb, `(() => {
		const wide = [];
		for (const el of document.querySelectorAll(".table-wrap, .prose table")) {
			if (el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1) {
				const t = el.matches("table") ? el : el.querySelector("table, svg");
				const what = t && t.caption ? t.caption.textContent.trim().slice(0, 60) : (t ? t.tagName.toLowerCase() : "a box");
				wide.push(what + " (" + el.scrollWidth + " px in " + el.clientWidth + ")");
			}
		}
		return wide;
	})()`)
	for _, w := range wide {
		t.Errorf("%s at %d px: a table box scrolls sideways: %s", v.page, v.width, w)
	}
}

// union is the pages of a and then those of b not in a.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, p := range b {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
