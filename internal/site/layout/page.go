package layout

import (
	"html/template"
	"strings"

	"github.com/discrimeval/leaderboard/internal/site/paths"
)

// page is one HTML page to render: where it goes, its title, the
// navigation entry it belongs to, and its body, whose type decides its
// kind and so its template (pageKinds, kinds.go).
type Page struct {
	Path    string // output path, slash-separated
	Title   string
	Section Section
	Body    any // the data of one of pageKinds
}

// section is the navigation entry a page marks as current.
type Section string

const (
	SecBoard       Section = "board"
	SecBenchmark   Section = "benchmark"
	SecMitigation  Section = "mitigation"
	SecTranscripts Section = "transcripts" // the hub only: scenario, prompt and transcript pages are secNone
	SecMethodology Section = "methodology"
	SecRubric      Section = "rubric"
	SecProvenance  Section = "provenance"
	SecChanges     Section = "changes"
	SecData        Section = "data"
	SecGlossary    Section = "glossary"
	SecSearch      Section = "search"
	SecNone        Section = "none"
)

// contentSection is the section of a content page.
func ContentSection(slug string) Section { return Section("page-" + slug) }

// siteInfo is what every page shows of the site.
type SiteInfo struct {
	Title string
	// Benchmark is the benchmark's name, as its page in content/benchmarks
	// gives it.
	Benchmark   string
	Description string
	BasePath    string
	Release     ReleaseInfo
	Version     string
	Repository  string
	// Cite is how to cite the release, as BibTeX and as plain text
	// (cite.go).
	Cite      citation
	Synthetic bool
	Nav       []NavItem
	Design    DesignFacts
	// CSV is where the footer links the CSV: data/leaderboard.csv, or,
	// when the runs are more than one file's (PageRows) and the CSV is in
	// parts, the Downloads page's list of them. Decided from the runs
	// found at load (splitRuns), which the data files follow.
	CSV string
	// PageRows is the most places a page of a listing shows
	// (Config.PageRows, pager.go), which the run pages' board links
	// follow: part of the frame's key.
	PageRows Paging
}

// splitRuns says whether a site of n runs lists them in parts
// (sitedata.SplitRuns), and sets where the footer links the CSV.
func (s *SiteInfo) SplitRuns(n int) {
	s.CSV = paths.LeaderboardCSVPath
	if n > int(s.PageRows) {
		s.CSV = paths.DownloadsPath + "#csv"
	}
}

// designFacts are the numbers and names of the benchmark's design that
// prose on every page mentions, from package design.
type DesignFacts struct {
	Baseline  string // "60, male, white"
	Questions int    // decision questions per variant
	Cells     int    // prompts per question
	Decimals  string // the precision boards are shown and ranked at, in words
}

type ReleaseInfo struct{ Label, Date string }

type NavItem struct {
	Label, Path string
	Section     Section
	// Isolate is set for a label from the inputs (a page's title), which
	// the list shows isolated (<bdi>) from the words after it, unless it
	// is printable ASCII (show.PlainASCII).
	Isolate bool
}

// pageData is what a template receives: Data is of its kind's type B.
type PageData[B any] struct {
	Site  *SiteInfo
	Page  *Page
	Paths *paths.SitePaths
	Data  B
	// Nav is the site's navigation list for the page: partials.html's
	// "navitems", rendered once per folder and section (renderer.nav).
	Nav template.HTML
}

// Rel returns a link from the page to a site path; an absolute URL (a
// run's files at site.yaml's runs_url) is returned as it is.
func (d *PageData[B]) Rel(p string) string {
	if strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "http://") {
		return p
	}
	return paths.RelPath(d.Page.Path, p)
}

// Root is the relative path from the page to the site root: "" or
// "../", for a script that joins it to paths from the root.
func (d *PageData[B]) Root() string { return paths.Root(d.Page.Path) }

// article is a page of Markdown we rendered ourselves (methodology,
// content pages).
type Article struct{ HTML template.HTML }

// notFound is 404.html, which GitHub Pages serves at any missing path: its
// links resolve from base_path (or, from file://, from the site's root),
// and its stylesheet is inline (the site's own), so it is styled at any
// depth.
type NotFound struct{ CSS template.CSS }

// runLink links to one run from a list.
type RunLink struct {
	// Model and Intervention are the manifest's, each shown isolated
	// (<bdi>) from the words around it; Variant is the run's.
	ID, Model, Variant, Intervention, Href string
	Ranked                                 bool // IsRanked: else the list marks it
}

type QuestionLink struct {
	Label, Href string
}
