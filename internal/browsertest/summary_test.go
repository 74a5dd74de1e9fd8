package browsertest

import "testing"

// summaryScreen is the first screen the summary must stand in, at any
// width: 800 px from the top of the page (1280 × 800, 375 × 800).
const summaryScreen = 800

// checkSummary requires a page's summary (id="summary") to be shown whole
// inside the first screen, not covered, and at most 120 words: the
// answer first. TestPages runs it on the boards and run pages at 1280
// and 375 px, light and dark.
func checkSummary(t *testing.T, tb *tab, v visit) {
	t.Helper()
	type box struct {
		Found  bool    `json:"found"`
		Top    float64 `json:"top"`
		Bottom float64 `json:"bottom"`
		Right  float64 `json:"right"`
		Words  int     `json:"words"`
		OnTop  bool    `json:"onTop"`
	}
	b := eval[box](tb, `(() => {
		const s = document.getElementById("summary");
		if (!s) return {found: false};
		const r = s.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + 10, r.top + 10);
		return {found: true, top: r.top + scrollY, bottom: r.bottom + scrollY, right: r.right,
			words: s.innerText.split(/\s+/).filter(w => /[\p{L}\p{N}]/u.test(w)).length, onTop: !!hit && s.contains(hit)};
	})()`)
	switch {
	case !b.Found:
		t.Errorf("%s: no element with id=summary", v.page)
	case b.Bottom > summaryScreen || b.Right > float64(v.width) || !b.OnTop:
		t.Errorf("%s at %d px: the summary (%.0f to %.0f px from the top, right %.0f, visible %v) is not inside the first %d px", v.page, v.width, b.Top, b.Bottom, b.Right, b.OnTop, summaryScreen)
	case b.Words > 120:
		t.Errorf("%s: the summary has %d words, over 120", v.page, b.Words)
	}
	t.Logf("%s at %d px: summary %.0f–%.0f px, %d words", v.page, v.width, b.Top, b.Bottom, b.Words)
}
