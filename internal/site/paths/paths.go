package paths

import (
	"path"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// Every URL of the site is made here; templates get paths from Go and
// never spell one. Paths are slash-separated and relative to the site
// root; pages link with relPath, so the site works from file://, a web
// root or a sub-path.

// Fixed paths.
const (
	HomePath             = "index.html" // the explicit composite board
	BenchmarkPath        = "benchmark.html"
	MethodologyPath      = "methodology.html"
	GlossaryPath         = "glossary.html"
	MitigationPath       = "mitigation.html"
	TranscriptsPath      = "transcripts.html" // the transcript browser's hub
	RubricPath           = "rubric.html"
	RubricJSONPath       = "data/rubric.json"
	RubricSchemaPath     = "data/schema/rubric.schema.json"
	ProvenanceSchemaPath = "data/schema/provenance.schema.json"
	// provenancePartSchemaPath is the schema of provenance-<k>.json.
	ProvenancePartSchemaPath = "data/schema/provenance-part.schema.json"
	RunProvenanceSchema      = "data/schema/run-provenance.schema.json"
	DownloadsPath            = "downloads.html"
	ProvenancePagePath       = "provenance.html"
	ChangesPath              = "changes.html"
	SearchPath               = "search.html"
	NotFoundPath             = "404.html"
	LeaderboardJSONPath      = sitedata.LeaderboardJSON
	LeaderboardCSVPath       = sitedata.LeaderboardCSV
	siteCSSPath              = "assets/site.css"
	ChromaCSSPath            = "assets/chroma.css"
	sortJSPath               = "assets/sort.js"
	browseJSPath             = "assets/browse.js"
	boardJSPath              = "assets/board.js"
	cueJSPath                = "assets/cue.js"
	// ScenarioJSPath is the one script a scenario page loads after its
	// question's and run's data (render.StaticFiles writes it): the
	// static scripts ScenarioJSParts, minified, in their order. Scenario
	// pages are 70 a run: one script tag where three were saves 89 bytes
	// a page, 6.2 MB at 1,000 runs.
	ScenarioJSPath = "assets/scenario.js"
	// ReproducePath is static/reproduce.py in the site.
	ReproducePath = "assets/reproduce.py"
	NoJekyllPath  = ".nojekyll"
)

// ProvenancePath is the manifest of a built site: the root of trust.
const ProvenancePath = "provenance.json"

// sitePaths is what templates see of the fixed paths.
type SitePaths struct {
	Home, Benchmark, Methodology, Mitigation, Transcripts       string
	Rubric, RubricJSON, Provenance, ProvenanceJSON              string
	LeaderboardJSON, LeaderboardCSV, SiteCSS, ChromaCSS, SortJS string
	BrowseJS, BoardJS, CueJS, Downloads, Search                 string
}

// ScenarioJSParts are the files of static/ that ScenarioJSPath joins:
// cue.js (every page's), browse.js (the grid's cell ids) and cells.js
// (the cell view).
var ScenarioJSParts = []string{"cue.js", "browse.js", "cells.js"}

var Paths = SitePaths{
	Home: HomePath, Benchmark: BenchmarkPath, Methodology: MethodologyPath, Mitigation: MitigationPath, Transcripts: TranscriptsPath,
	Rubric: RubricPath, RubricJSON: RubricJSONPath, Provenance: ProvenancePagePath, ProvenanceJSON: ProvenancePath,
	LeaderboardJSON: LeaderboardJSONPath, LeaderboardCSV: LeaderboardCSVPath, SiteCSS: siteCSSPath, ChromaCSS: ChromaCSSPath, SortJS: sortJSPath,
	BrowseJS: browseJSPath, BoardJS: boardJSPath, CueJS: cueJSPath, Downloads: DownloadsPath,
	Search: SearchPath,
}

// boardPath is where the board of a variant and view is rendered; the
// explicit composite board is the home page.
func BoardPath(variant run.Variant, v score.View) string {
	if variant == run.Explicit && v == score.Composite {
		return HomePath
	}
	return "board/" + string(variant) + "-" + v.Name() + ".html"
}

// boardPartPath is page k (from 1) of the board of a variant and view:
// page 1 at boardPath, then board/<variant>-<view>-<k>.html (pager.go).
func BoardPartPath(variant run.Variant, v score.View, k int) string {
	return PagedPath(BoardPath(variant, v), "board/"+string(variant)+"-"+v.Name(), k)
}

// pairwisePartPath is page k (from 1) of a pairwise page.
func PairwisePartPath(variant run.Variant, v score.View, k int) string {
	return PagedPath(PairwisePath(variant, v), strings.TrimSuffix(PairwisePath(variant, v), ".html"), k)
}

// BoardIndexPath is the script listing every run of a variant's boards
// with the page of each view that holds its row (boards/boardindex.go),
// for boards of more than one page.
func BoardIndexPath(variant run.Variant) string {
	return "data/boards/" + string(variant) + ".js"
}

// The page of any two runs side by side, and its data (boards/pair.go):
// the runs it lists, and each run's file, loaded when it is picked.
const (
	PairPath     = "pair.html"
	PairRunsPath = "data/pair-runs.js"
	PairJSPath   = "assets/pair.js"
)

func PairDataPath(id string) string { return "data/pairs/" + id + ".js" }

// PairAnchor is pair.html with two runs picked; b may be "".
func PairAnchor(a, b string) string {
	s := PairPath + "#a=" + a
	if b != "" {
		s += "&b=" + b
	}
	return s
}

// groupsPath is the page of a variant's signed per-group plots across
// the models of its composite boards.
func GroupsPath(variant run.Variant) string {
	return "board/" + string(variant) + "-groups.html"
}

// GroupBoardPath is the board of a variant's runs ranked by one
// coefficient ("groups/explicit-black.html").
func GroupBoardPath(variant run.Variant, c design.Coef) string {
	return "groups/" + string(variant) + "-" + GroupSlug(c) + ".html"
}

// GroupBoardDataPath is a group board's data file
// ("data/groups/explicit-black.json").
func GroupBoardDataPath(variant run.Variant, c design.Coef) string {
	return "data/groups/" + string(variant) + "-" + GroupSlug(c) + ".json"
}

// GroupSlug is a coefficient as a URL names it: its name with hyphens
// ("non-binary", "native-american", "age").
func GroupSlug(c design.Coef) string { return strings.ReplaceAll(c.Name(), "_", "-") }

// pairwisePath is the pairwise page of a variant and view.
func PairwisePath(variant run.Variant, v score.View) string {
	return "board/" + string(variant) + "-" + v.Name() + "-pairwise.html"
}

// pairAnchor is the id of a comparison on the mitigation page.
func pairAnchor(a, b string) string { return b + "-vs-" + a }

func MitigationAnchor(a, b string) string { return MitigationPath + "#" + pairAnchor(a, b) }

func ContentPagePath(slug string) string { return "pages/" + slug + ".html" }

// Per run.
func RunPath(id string) string                   { return "runs/" + id + "/index.html" }
func RunFilesPath(id string) string              { return RunPath(id) + "#files" }
func RunProvenancePath(id string) string         { return "runs/" + id + "/provenance.html" }
func RunProvenanceJSONPath(id string) string     { return "runs/" + id + "/provenance.json" }
func RunDataPath(id string) string               { return sitedata.RunFile(id) }
func ScenariosPath(id string) string             { return "runs/" + id + "/scenarios.html" }
func ScenarioPath(id string, q int) string       { return "runs/" + id + "/q" + strconv.Itoa(q) + ".html" }
func PromptIndexPath(variant run.Variant) string { return "prompts/" + string(variant) + "/index.html" }
func PromptPath(variant run.Variant, q int) string {
	return "prompts/" + string(variant) + "/q" + strconv.Itoa(q) + ".html"
}
func ComparePath(variant run.Variant, q int) string { return ComparePartPath(variant, q, 1) }

// comparePartPath is page n (from 1) of a question's compare pages.
func ComparePartPath(variant run.Variant, q, n int) string {
	s := "compare/" + string(variant) + "/q" + strconv.Itoa(q)
	if n > 1 {
		s += "-" + strconv.Itoa(n)
	}
	return s + ".html"
}

// transcriptPath is part n (from 1) of a question's transcripts.
func TranscriptPath(id string, q, n int) string {
	s := "runs/" + id + "/q" + strconv.Itoa(q) + "-transcripts"
	if n > 1 {
		s += "-" + strconv.Itoa(n)
	}
	return s + ".html"
}

// anchored adds a fragment to a path.
func Anchored(p, anchor string) string { return p + "#" + anchor }

// relPath returns the relative link from the page at from to the site path
// to. Links within the same folder stay short ("q12.html", not
// "../../runs/x/q12.html"); a fragment is kept.
func RelPath(from, to string) string {
	dir := path.Dir(from)
	if dir == "." {
		return to
	}
	target, frag, _ := strings.Cut(to, "#")
	if frag != "" {
		frag = "#" + frag
	}
	if target == "" {
		return frag
	}
	if rest, ok := strings.CutPrefix(target, dir+"/"); ok {
		if rest == path.Base(from) && frag != "" {
			return frag
		}
		return rest + frag
	}
	return Root(from) + target + frag
}

// root returns the relative path from a page to the site root.
func Root(p string) string {
	return strings.Repeat("../", strings.Count(p, "/"))
}

// RunFiles says where the site offers its runs' files: copied into it,
// under data/runs/<id>/, or, when the copies would take the site past its
// Pages budget (site.yaml's pages_budget), linked where the runs folder
// is published (runs_url, or build -runs-url), with their SHA-256.
type RunFiles struct {
	Linked bool
	// URL is where the runs folder is published, ending in /; empty when
	// no address was given (the files are then copied).
	URL string
}

// Href is where a run's file (named by its path in the runs folder) is
// offered: a site path of its copy, or its URL.
func (f RunFiles) Href(p string) string {
	if f.Linked {
		return f.URL + p
	}
	return sitedata.RunCopy(p)
}

// pagedPath is page k (from 1) of the listing whose first page is at
// first; name is the listing's file name without ".html" for pages after
// the first (board pages share "board/<variant>-<view>").
func PagedPath(first, name string, k int) string {
	if k == 1 {
		return first
	}
	return name + "-" + strconv.Itoa(k) + ".html"
}

const SwingsJSPath = "assets/swings.js"

func SwingsPath(id string) string { return "runs/" + id + "/swings.html" }
