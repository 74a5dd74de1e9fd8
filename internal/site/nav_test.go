package site

import (
	"html/template"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/templates"
)

// TestNavMemo: the navigation list renderer.nav keeps per folder and
// section is, on every page, the list the layout's own loop rendered
// before (the loop below, as layout.html had it), whichever page of a key
// rendered it first: pages in the root and in folders, pages that are a
// nav entry, and entries with a fragment or another host.
func TestNavMemo(t *testing.T) {
	sets, err := render.ParseTemplates(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	inline := template.Must(template.New("nav").Funcs(render.Funcs).Parse(`<ul>
{{- range .Site.Nav}}
<li><a href="{{$.Rel .Path}}"{{if eq .Path $.Page.Path}} aria-current="page"{{else if eq .Section $.Page.Section}} aria-current="true"{{end}}>{{.Label}}</a></li>
{{- end}}
</ul>`))
	plain := []layout.NavItem{
		{Label: "Leaderboard", Path: paths.HomePath, Section: layout.SecBoard},
		{Label: "Provenance", Path: paths.ProvenancePagePath, Section: layout.SecProvenance},
		{Label: "Elsewhere", Path: "https://example.org/x", Section: layout.SecNone},
		{Label: "About <us>", Path: paths.ContentPagePath("about"), Section: layout.ContentSection("about")},
	}
	withFragment := append([]layout.NavItem{{Label: "Part", Path: "runs/a/index.html#part", Section: layout.SecTranscripts}}, plain...)
	for _, nav := range [][]layout.NavItem{plain, withFragment} {
		site := &layout.SiteInfo{Nav: nav}
		r := checkNav(t, sets, inline, site)
		// 13 pages, 9 keys: the scenario pages of run a share one, its
		// index and other page one, and the two board pages one.
		if nav[0].Label != "Part" && len(r.Navs) != 9 {
			t.Errorf("%d lists kept for 13 pages, want 9", len(r.Navs))
		}
	}
}

func checkNav(t *testing.T, sets map[render.Kind]*template.Template, inline *template.Template, site *layout.SiteInfo) *render.Renderer {
	t.Helper()
	r := &render.Renderer{Sets: sets, Site: site}
	pages := []*layout.Page{
		{Path: "runs/a/q1.html", Section: layout.SecNone}, {Path: "runs/a/q2.html", Section: layout.SecNone}, {Path: "runs/a/q3.html", Section: layout.SecNone},
		{Path: "runs/a/index.html", Section: layout.SecBoard}, {Path: "runs/a/other.html", Section: layout.SecBoard}, {Path: "runs/b/index.html", Section: layout.SecBoard},
		{Path: paths.HomePath, Section: layout.SecBoard}, {Path: "board/x.html", Section: layout.SecBoard}, {Path: "board/y.html", Section: layout.SecBoard},
		{Path: paths.ProvenancePagePath, Section: layout.SecProvenance}, {Path: "rubric.html", Section: layout.SecProvenance},
		{Path: paths.ContentPagePath("about"), Section: layout.ContentSection("about")}, {Path: "pages/other.html", Section: layout.ContentSection("about")},
	}
	for round := range 2 {
		for _, p := range pages {
			got, err := r.Nav(sets["scenario"], p)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := inline.Execute(&want, &layout.PageData[struct{}]{Site: site, Page: p, Paths: &paths.Paths}); err != nil {
				t.Fatal(err)
			}
			if w := strings.TrimSuffix(strings.TrimPrefix(want.String(), "<ul>"), "\n</ul>"); string(got) != w {
				t.Errorf("round %d, %s: nav\n%s\nwant\n%s", round, p.Path, got, w)
			}
		}
	}
	return r
}
