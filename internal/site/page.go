package site

import (
	"html/template"
	"strings"
)

// page is one HTML page to render: where it goes, its title, the
// navigation entry it belongs to, and its body, whose type decides its
// kind and so its template (pageKinds, kinds.go).
type page struct {
	Path    string // output path, slash-separated
	Title   string
	Section section
	Body    any // the data of one of pageKinds
}

// section is the navigation entry a page marks as current.
type section string

const (
	secBoard       section = "board"
	secBenchmark   section = "benchmark"
	secMitigation  section = "mitigation"
	secTranscripts section = "transcripts" // the hub only: scenario, prompt and transcript pages are secNone
	secMethodology section = "methodology"
	secRubric      section = "rubric"
	secProvenance  section = "provenance"
	secChanges     section = "changes"
	secData        section = "data"
	secGlossary    section = "glossary"
	secNone        section = "none"
)

// contentSection is the section of a content page.
func contentSection(slug string) section { return section("page-" + slug) }

// siteInfo is what every page shows of the site.
type siteInfo struct {
	Title string
	// Benchmark is the benchmark's name, as its page in content/benchmarks
	// gives it.
	Benchmark   string
	Description string
	BasePath    string
	Release     releaseInfo
	Version     string
	Repository  string
	// Cite is how to cite the release, as BibTeX and as plain text
	// (cite.go).
	Cite      citation
	Synthetic bool
	Nav       []navItem
	Design    designFacts
	// RunsURL is site.yaml's runs_url: where run pages link the runs'
	// files (empty: to their copies in the site). Being part of the
	// frame, it is in the key of a run's cached pages.
	RunsURL string
	// CSV is where the footer links the CSV: data/leaderboard.csv, or,
	// when the runs are more than one file's (PageRows) and the CSV is in
	// parts, the Downloads page's list of them. Decided from the runs
	// found at load (splitRuns), which the data files follow.
	CSV string
	// PageRows is the most places a page of a listing shows
	// (Config.PageRows, pager.go), which the run pages' board links
	// follow: part of the frame's key.
	PageRows paging
}

// splitRuns says whether a site of n runs lists them in parts
// (sitedata.SplitRuns), and sets where the footer links the CSV.
func (s *siteInfo) splitRuns(n int) {
	s.CSV = leaderboardCSVPath
	if n > int(s.PageRows) {
		s.CSV = downloadsPath + "#csv"
	}
}

// designFacts are the numbers and names of the benchmark's design that
// prose on every page mentions, from package design.
type designFacts struct {
	Baseline  string // "60, male, white"
	Questions int    // decision questions per variant
	Cells     int    // prompts per question
	Decimals  string // the precision boards are shown and ranked at, in words
}

type releaseInfo struct{ Label, Date string }

type navItem struct {
	Label, Path string
	Section     section
}

// pageData is what a template receives: Data is of its kind's type B.
type pageData[B any] struct {
	Site  *siteInfo
	Page  *page
	Paths *sitePaths
	Data  B
	// Nav is the site's navigation list for the page: partials.html's
	// "navitems", rendered once per folder and section (renderer.nav).
	Nav template.HTML
}

// Rel returns a link from the page to a site path; an absolute URL (a
// run's files at site.yaml's runs_url) is returned as it is.
func (d *pageData[B]) Rel(p string) string {
	if strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "http://") {
		return p
	}
	return relPath(d.Page.Path, p)
}

// article is a page of Markdown we rendered ourselves (methodology,
// content pages).
type article struct{ HTML template.HTML }

// notFound is 404.html, which GitHub Pages serves at any missing path: its
// links resolve from base_path (or, from file://, from the site's root),
// and its stylesheet is inline (the site's own), so it is styled at any
// depth.
type notFound struct{ CSS template.CSS }

// runLink links to one run from a list.
type runLink struct {
	ID, Model, Intervention, Href string
}

type questionLink struct {
	Label, Href string
}
