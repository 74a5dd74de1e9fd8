package site

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// TestBenchmarkLeadsWithSiteMetric: the benchmark page says first what the
// site ranks, then quotes the registry's record as the registry's, its
// metric marked as the registry's.
func TestBenchmarkLeadsWithSiteMetric(t *testing.T) {
	skipReaderUnderRace(t)
	page := string(fixtureSite(t)["benchmark.html"])
	h2 := regexp.MustCompile(`<h2 id=([a-z-]+)>`).FindAllStringSubmatch(page, -1)
	if len(h2) < 2 || h2[0][1] != "site-metric" || h2[1][1] != "registry-record" {
		t.Fatalf("benchmark.html's sections: %v, want site-metric first, then registry-record", h2)
	}
	site, registry := strings.Index(page, "What this site ranks"), strings.Index(page, "The registry’s metric")
	if site < 0 || registry < 0 || site > registry {
		t.Errorf("benchmark.html: the site's metric at %d, the registry's at %d", site, registry)
	}
	if !strings.Contains(page[site:registry], "glossary.html#composite") {
		t.Error("benchmark.html: the site's metric does not link the glossary's composite")
	}
}

// TestAgePlotOlderYounger: the groups page's age plot speaks of older and
// younger people, never of a baseline, and its words say which side is
// which.
func TestAgePlotOlderYounger(t *testing.T) {
	skipReaderUnderRace(t)
	page := string(fixtureSite(t)["board/explicit-groups.html"])
	i := strings.Index(page, `id="groups-logprob-age-title"`)
	if i < 0 {
		t.Fatal("board/explicit-groups.html has no age plot")
	}
	age := page[i:]
	age = age[:strings.Index(age, "</svg>")]
	for _, w := range []string{"favours older (+)", "favours younger (−)"} {
		if !strings.Contains(age, w) {
			t.Errorf("the age plot has no %q", w)
		}
	}
	if strings.Contains(age, "baseline") {
		t.Error("the age plot speaks of a baseline")
	}
	if strings.Contains(page, "younger people)") || !strings.Contains(page, "for age older people over younger ones") {
		t.Error("the groups page's lede does not say which side of the age plot favours whom")
	}
}

// TestUnrankedMarked: wherever a page lists runs — the compare pages, the
// Browse hub, the provenance and Downloads pages — a run that holds no
// rank on its board is marked "not ranked", linking the glossary, and a
// ranked run is not.
func TestUnrankedMarked(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(files["data/leaderboard.json"], &lb); err != nil {
		t.Fatal(err)
	}
	ranked := map[string]bool{}
	for _, r := range lb.Runs {
		ranked[r.ID] = r.Ranked && r.Rank[score.Composite.Name()] > 0
	}
	// A listed run: the row or item that links one of its pages.
	item := regexp.MustCompile(`(?:<li>|<tr>)(<th scope=row>)?<a href=(?:\.\./)*runs/([^/]+)/[^>]*>.*?(?:<li>|<tr>|</ul>|</tbody>)`)
	seen := map[bool]int{}
	for name, data := range files {
		if !strings.HasPrefix(name, "compare/") && name != "transcripts.html" && name != "provenance.html" && name != "downloads.html" {
			continue
		}
		for _, m := range item.FindAllStringSubmatch(string(data), -1) {
			id := m[2]
			r, ok := ranked[id]
			if !ok {
				t.Errorf("%s: run %s is not in data/leaderboard.json", name, id)
				continue
			}
			marked := strings.Contains(m[0], `<a class=flag href=`) && strings.Contains(m[0], `glossary.html#ranked>not ranked</a>`)
			if marked == r {
				t.Errorf("%s: run %s (ranked: %v) is marked not ranked: %v", name, id, r, marked)
			}
			seen[r]++
		}
	}
	t.Logf("listed runs checked: %v", seen)
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("listed runs checked: %v, want both ranked and unranked ones", seen)
	}
}
