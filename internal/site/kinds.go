package site

import (
	"regexp"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/browse"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/scenarios"
)

// pageKinds is every page kind, one row each: its name, which is its
// template's (templates/<name>.html), and its data's Go type (the type
// parameter), which its template receives as pageData[B].Data; then, for
// doc.go's table of kinds, its URLs, the file with its data type and
// builder and what it is made from; and last the fixture site's page of
// the kind whose golden TestEveryKindRenders keeps
// (testdata/golden/<name>.html). doc.go's table is written from these
// rows (go test -run TestDocListsKinds -update).
var pageKinds = []render.KindInfo{
	render.KindOf[boards.BoardData]("leaderboard", "index.html, board/<variant>-<view>[-<k>].html", "boards/leaderboard.go", "boards", "index.html"),
	render.KindOf[boards.GroupsData]("groups", "board/<variant>-groups.html", "boards/groups.go", "the composite boards' ranked runs' coefficients", "board/explicit-groups.html"),
	render.KindOf[boards.GroupBoardData]("groupboard", "groups/<variant>-<group>.html", "boards/groupboard.go", "the ranked runs by one coefficient, its rank sets (data/groups/<variant>-<group>.json)", "groups/explicit-black.html"),
	render.KindOf[boards.PairwiseData]("pairwise", "board/<variant>-<view>-pairwise[-<k>].html", "boards/pairwise.go", "boards' paired comparisons", "board/explicit-composite-pairwise.html"),
	render.KindOf[boards.PairData]("pair", "pair.html", "boards/pair.go", "boards' paired comparisons, each run's numbers (data/pair-runs.js, data/pairs/<id>.js)", "pair.html"),
	render.KindOf[boards.MitigationData]("mitigation", "mitigation.html", "boards/mitigation.go", "intervention runs against their model's default", "mitigation.html"),
	render.KindOf[runpage.RunData]("run", "runs/<id>/index.html", "runpage/runpage.go", "a run's result, board entry, pairs, its model in content/releases (runpage/history.go)", "runs/beta/index.html"),
	render.KindOf[datapage.RunProvenanceData]("runprovenance", "runs/<id>/provenance.html", "datapage/runprovenance.go", "manifest, files, claimed numbers", "runs/beta/provenance.html"),
	render.KindOf[scenarios.ScenarioIndexData]("scenarios", "runs/<id>/scenarios.html", "scenarios/scenarios.go", "per-question coefficients, coloured", "runs/beta/scenarios.html"),
	render.KindOf[scenarios.ScenarioData]("scenario", "runs/<id>/q<N>.html", "scenarios/scenario.go", "the run's cells of one question", "runs/beta/q3.html").
		StencilledBy(scenarios.ScenarioParts...),
	render.KindOf[runpage.SwingsData]("swings", "runs/<id>/swings.html", "runpage/swings.go", "the run's cells, the noise reference of score.RunSwings", "runs/beta/swings.html"),
	render.KindOf[scenarios.TranscriptData]("transcript", "runs/<id>/q<N>-transcripts[-<n>].html", "scenarios/transcript.go", "a second pass over the run's file", "runs/beta/q2-transcripts.html"),
	render.KindOf[browse.PromptIndexData]("promptindex", "prompts/<variant>/index.html", "browse/prompt.go", "dataset texts", "prompts/explicit/index.html"),
	render.KindOf[browse.PromptData]("prompt", "prompts/<variant>/q<N>.html", "browse/prompt.go", "dataset texts, word differences", "prompts/explicit/q3.html"),
	render.KindOf[browse.CompareData]("compare", "compare/<variant>/q<N>[-<k>].html", "browse/compare.go", "every run's own numbers on one question", "compare/explicit/q3.html"),
	render.KindOf[browse.HubData]("hub", "transcripts[-<k>].html", "browse/hub.go", "runs, variants, which runs stored transcripts", "transcripts.html"),
	render.KindOf[datapage.DownloadsData]("downloads", "downloads[-<k>].html", "datapage/downloads.go", "the data files, CSV columns, schemas, run files", "downloads.html"),
	render.KindOf[datapage.RubricData]("rubric", "rubric.html (and data/rubric.json)", "datapage/rubric.go", "the scoring code's settings, worked examples", "rubric.html"),
	render.KindOf[datapage.ProvenanceData]("provenance", "provenance[-<k>].html (and provenance.json)", "datapage/provenance.go", "every input and output file", "provenance.html"),
	render.KindOf[datapage.ChangesData]("changes", "changes[-<k>].html", "datapage/changes.go", "the previous release's data/leaderboard.json, compared by internal/changes", "changes.html"),
	render.KindOf[layout.BenchmarkData]("benchmark", "benchmark.html", "layout/benchmark.go", "content/benchmarks/<id>.json", "benchmark.html"),
	render.KindOf[layout.Article]("article", "methodology.html, pages/<slug>.html", "layout/page.go", "METHODOLOGY.md, content/pages/*.md", "methodology.html"),
	render.KindOf[layout.NotFound]("notfound", "404.html", "layout/page.go", "site.yaml's base_path", "404.html"),
	render.KindOf[glossaryData]("glossary", "glossary.html", "glossary.go", "the site's terms (package vocab), the numbers their definitions quote", "glossary.html"),
	render.KindOf[browse.SearchData]("search", "search.html (and data/search-index[-<k>].js)", "browse/search.go", "dataset texts, runs, interventions, the design's groups, the navigation, the glossary's terms", "search.html"),
}

// PageKinds are the page kinds' names, in pageKinds' order.
func PageKinds() []string {
	var out []string
	for _, k := range pageKinds {
		out = append(out, string(k.Name))
	}
	return out
}

// PageKind is the kind of the page at site path p, from the URLs of
// pageKinds, and false for a path that is no page: what the browser tests
// know of the kinds (internal/browsertest).
func PageKind(p string) (string, bool) {
	for i, re := range kindPaths() {
		if re.MatchString(p) {
			return string(pageKinds[i].Name), true
		}
	}
	return "", false
}

// kindPaths are the kinds' URLs as patterns, one a kind: a name in angle
// brackets stands for any of its values, a part in square brackets may be
// left out, and what follows a URL in parentheses is not one of them.
var kindPaths = sync.OnceValue(func() []*regexp.Regexp {
	var views []string
	for _, v := range score.Views {
		views = append(views, v.Name())
	}
	var groups []string
	for _, c := range design.Coefs {
		groups = append(groups, paths.GroupSlug(c))
	}
	values := map[string]string{
		"<variant>": "(" + string(run.Explicit) + "|" + string(run.Implicit) + ")",
		"<view>":    "(" + strings.Join(views, "|") + ")",
		"<group>":   "(" + strings.Join(groups, "|") + ")",
		"<id>":      "[^/]+", "<slug>": "[^/]+", "<N>": "[0-9]+", "<k>": "[0-9]+", "<n>": "[0-9]+",
	}
	var out []*regexp.Regexp
	for _, k := range pageKinds {
		var alts []string
		for _, u := range strings.Split(k.Url, ", ") {
			u, _, _ = strings.Cut(u, " (")
			u = regexp.QuoteMeta(u)
			u = strings.NewReplacer(`\[`, "(?:", `\]`, ")?").Replace(u)
			for name, re := range values {
				u = strings.ReplaceAll(u, name, re)
			}
			alts = append(alts, u)
		}
		out = append(out, regexp.MustCompile("^("+strings.Join(alts, "|")+")$"))
	}
	return out
})
