package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nodeModules is where `npm ci --prefix .ci` installs the test tools.
var nodeModules = filepath.Join(repo, ".ci", "node_modules")

// npmFile returns the path of a file of an npm package of .ci/package.json,
// or skips the test when the packages are not installed.
func npmFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(nodeModules, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed: run `npm ci --prefix .ci --ignore-scripts` (.ci/run does)", p)
	}
	return p
}

type axeResult struct {
	ID          string `json:"id"`
	Impact      string `json:"impact"`
	Help        string `json:"help"`
	HelpURL     string `json:"helpUrl"`
	Description string `json:"description"`
	Nodes       []struct {
		Target  []any  `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axePages are the pages axe checks, and the viewports and colour schemes
// it checks them in. The issue asks for the leaderboard, a run page, a
// scenario page and the rubric page; the others are cheap to add.
func axePages(p Pages) []string {
	return []string{
		"index.html",
		p.Run,
		p.Scenario,
		// The rubric page, when the site has one; the methodology page
		// until then. (rubric.html is being written on another branch.)
		rubricOrMethodology(),
		p.Prompt,
		p.Compare,
		p.Transcripts,
		"board/implicit-age.html",
		"runs/" + p.RunID + "/scenarios.html",
		"transcripts.html",
		"benchmark.html",
		"mitigation.html",
	}
}

func rubricOrMethodology() string {
	if _, err := os.Stat(filepath.Join(siteDir, "rubric.html")); err == nil {
		return "rubric.html"
	}
	return "methodology.html"
}

// TestAxe injects axe-core into pages of the site and requires no
// violation of any of its rules (WCAG 2.x A and AA, and best practices),
// in light and dark mode and at 1280 and 375 px wide.
func TestAxe(t *testing.T) {
	src, err := os.ReadFile(npmFile(t, "axe-core/axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	p := sitePages(t)
	for _, mode := range []struct {
		width  int64
		scheme string
		all    bool // every page, or only the four the issue names
	}{
		{1280, "light", true},
		{1280, "dark", true},
		{375, "light", false},
		{375, "dark", false},
	} {
		t.Run(fmt.Sprintf("%dpx-%s", mode.width, mode.scheme), func(t *testing.T) {
			tb := newTab(t, mode.width, 900, mode.scheme)
			pages := axePages(p)
			if !mode.all {
				pages = pages[:4]
			}
			for _, page := range pages {
				if page == "" {
					continue
				}
				tb.open(siteDir, page)
				tb.checkClean(page)
				eval[bool](tb, string(src)+";true")
				// preload: false, or axe fetches the stylesheets with
				// XMLHttpRequest, which file:// pages may not do.
				res := eval[[]axeResult](tb, `axe.run(document, {resultTypes: ["violations"], preload: false}).then(r => r.violations)`)
				for _, v := range res {
					var b strings.Builder
					fmt.Fprintf(&b, "%s: axe %s (%s): %s\n    %s", page, v.ID, v.Impact, v.Help, v.HelpURL)
					for i, n := range v.Nodes {
						if i == 5 {
							fmt.Fprintf(&b, "\n    … and %d more elements", len(v.Nodes)-5)
							break
						}
						fmt.Fprintf(&b, "\n    - %v %s\n      %s", n.Target, n.HTML, strings.ReplaceAll(n.Summary, "\n", "\n      "))
					}
					t.Error(b.String())
				}
			}
		})
	}
}
