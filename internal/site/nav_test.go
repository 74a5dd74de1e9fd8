package site

import (
	"html/template"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/templates"
)

// TestNavMemo: the navigation list renderer.nav keeps per folder and
// section is, on every page, the list the layout's own loop rendered
// before (the loop below, as layout.html had it), whichever page of a key
// rendered it first: pages in the root and in folders, pages that are a
// nav entry, and entries with a fragment or another host.
func TestNavMemo(t *testing.T) {
	sets, err := parseTemplates(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	inline := template.Must(template.New("nav").Funcs(funcs).Parse(`<ul>
{{- range .Site.Nav}}
<li><a href="{{$.Rel .Path}}"{{if eq .Path $.Page.Path}} aria-current="page"{{else if eq .Section $.Page.Section}} aria-current="true"{{end}}>{{.Label}}</a></li>
{{- end}}
</ul>`))
	plain := []navItem{
		{"Leaderboard", homePath, secBoard},
		{"Provenance", provenancePagePath, secProvenance},
		{"Elsewhere", "https://example.org/x", secNone},
		{"About <us>", contentPagePath("about"), contentSection("about")},
	}
	withFragment := append([]navItem{{"Part", "runs/a/index.html#part", secTranscripts}}, plain...)
	for _, nav := range [][]navItem{plain, withFragment} {
		site := &siteInfo{Nav: nav}
		r := checkNav(t, sets, inline, site)
		// 13 pages, 9 keys: the scenario pages of run a share one, its
		// index and other page one, and the two board pages one.
		if nav[0].Label != "Part" && len(r.navs) != 9 {
			t.Errorf("%d lists kept for 13 pages, want 9", len(r.navs))
		}
	}
}

func checkNav(t *testing.T, sets map[kind]*template.Template, inline *template.Template, site *siteInfo) *renderer {
	t.Helper()
	r := &renderer{sets: sets, site: site}
	pages := []*page{
		{Path: "runs/a/q1.html", Section: secNone}, {Path: "runs/a/q2.html", Section: secNone}, {Path: "runs/a/q3.html", Section: secNone},
		{Path: "runs/a/index.html", Section: secBoard}, {Path: "runs/a/other.html", Section: secBoard}, {Path: "runs/b/index.html", Section: secBoard},
		{Path: homePath, Section: secBoard}, {Path: "board/x.html", Section: secBoard}, {Path: "board/y.html", Section: secBoard},
		{Path: provenancePagePath, Section: secProvenance}, {Path: "rubric.html", Section: secProvenance},
		{Path: contentPagePath("about"), Section: contentSection("about")}, {Path: "pages/other.html", Section: contentSection("about")},
	}
	for round := range 2 {
		for _, p := range pages {
			got, err := r.nav(sets["scenario"], p)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := inline.Execute(&want, &pageData[struct{}]{Site: site, Page: p, Paths: &paths}); err != nil {
				t.Fatal(err)
			}
			if w := strings.TrimSuffix(strings.TrimPrefix(want.String(), "<ul>"), "\n</ul>"); string(got) != w {
				t.Errorf("round %d, %s: nav\n%s\nwant\n%s", round, p.Path, got, w)
			}
		}
	}
	return r
}
