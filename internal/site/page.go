package site

import (
	"html/template"
	"reflect"
	"strings"
)

// page is one HTML page to render: where it goes, its title, the
// navigation entry it belongs to, and its body, whose type decides the
// template.
type page struct {
	Path    string // output path, slash-separated
	Title   string
	Section section
	Body    body
}

// body is the data of one page kind. Each kind is a type of its own with
// its own template file, named by kind(), so a page cannot be rendered
// with another kind's template; TestEveryKindRenders executes every
// template against a value of its type.
type body interface{ kind() kind }

// kind names a page kind: its template is templates/<kind>.html.
type kind string

const (
	kindLeaderboard   kind = "leaderboard"
	kindPairwise      kind = "pairwise"
	kindMitigation    kind = "mitigation"
	kindRun           kind = "run"
	kindRunProvenance kind = "runprovenance"
	kindScenarios     kind = "scenarios"
	kindScenario      kind = "scenario"
	kindTranscript    kind = "transcript"
	kindPromptIndex   kind = "promptindex"
	kindPrompt        kind = "prompt"
	kindCompare       kind = "compare"
	kindHub           kind = "hub"
	kindRubric        kind = "rubric"
	kindProvenance    kind = "provenance"
	kindChanges       kind = "changes"
	kindBenchmark     kind = "benchmark"
	kindArticle       kind = "article"
	kindNotFound      kind = "notfound"
	kindDownloads     kind = "downloads"
	kindSearch        kind = "search"
)

// kinds lists every page kind with the type of its data.
var kinds = []kindInfo{
	kindOf[boardData](kindLeaderboard), kindOf[pairwiseData](kindPairwise), kindOf[mitigationData](kindMitigation),
	kindOf[runData](kindRun), kindOf[runProvenanceData](kindRunProvenance), kindOf[scenarioIndexData](kindScenarios),
	kindOf[scenarioData](kindScenario), kindOf[transcriptData](kindTranscript), kindOf[promptIndexData](kindPromptIndex),
	kindOf[promptData](kindPrompt), kindOf[compareData](kindCompare), kindOf[hubData](kindHub), kindOf[rubricData](kindRubric),
	kindOf[provenanceData](kindProvenance), kindOf[changesData](kindChanges), kindOf[benchmarkData](kindBenchmark),
	kindOf[article](kindArticle), kindOf[notFound](kindNotFound), kindOf[downloadsData](kindDownloads), kindOf[searchData](kindSearch),
}

// kindInfo is one page kind: its name, which is its template's, and the
// type its template receives, *pageData[B] for the kind's data type B
// (TestTemplatesTypeCheck checks every template against it).
type kindInfo struct {
	name kind
	data reflect.Type
	// frame puts a page of the kind into its template's data.
	frame func(site *siteInfo, p *page) any
}

func kindOf[B body](k kind) kindInfo {
	return kindInfo{name: k, data: reflect.TypeFor[*pageData[B]](), frame: func(site *siteInfo, p *page) any {
		return &pageData[B]{Site: site, Page: p, Paths: &paths, Data: p.Body.(B)}
	}}
}

// kindsByName finds a page kind by its name.
var kindsByName = func() map[kind]*kindInfo {
	m := map[kind]*kindInfo{}
	for i := range kinds {
		m[kinds[i].name] = &kinds[i]
	}
	return m
}()

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
	secNone        section = "none"
)

// contentSection is the section of a content page.
func contentSection(slug string) section { return section("page-" + slug) }

// siteInfo is what every page shows of the site.
type siteInfo struct {
	Title       string
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
type pageData[B body] struct {
	Site  *siteInfo
	Page  *page
	Paths *sitePaths
	Data  B
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

func (article) kind() kind { return kindArticle }

// notFound is 404.html, which GitHub Pages serves at any missing path: its
// links resolve from base_path (or, from file://, from the site's root),
// and its stylesheet is inline (the site's own), so it is styled at any
// depth.
type notFound struct{ CSS template.CSS }

func (notFound) kind() kind { return kindNotFound }
