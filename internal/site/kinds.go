package site

// pageKinds is every page kind, one row each: its name, which is its
// template's (templates/<name>.html), and its data's Go type (the type
// parameter), which its template receives as pageData[B].Data; then, for
// doc.go's table of kinds, its URLs, the file with its data type and
// builder and what it is made from; and last the fixture site's page of
// the kind whose golden TestEveryKindRenders keeps
// (testdata/golden/<name>.html). doc.go's table is written from these
// rows (go test -run TestDocListsKinds -update).
var pageKinds = []kindInfo{
	kindOf[boardData]("leaderboard", "index.html, board/<variant>-<view>[-<k>].html", "leaderboard.go", "boards", "index.html"),
	kindOf[groupsData]("groups", "board/<variant>-groups.html", "groups.go", "the composite boards' ranked runs' coefficients", "board/explicit-groups.html"),
	kindOf[pairwiseData]("pairwise", "board/<variant>-<view>-pairwise[-<k>].html", "pairwise.go", "boards' paired comparisons", "board/explicit-composite-pairwise.html"),
	kindOf[mitigationData]("mitigation", "mitigation.html", "mitigation.go", "intervention runs against their model's default", "mitigation.html"),
	kindOf[runData]("run", "runs/<id>/index.html", "runpage.go", "a run's result, board entry, pairs, its model in content/releases (history.go)", "runs/beta/index.html"),
	kindOf[runProvenanceData]("runprovenance", "runs/<id>/provenance.html", "runprovenance.go", "manifest, files, claimed numbers", "runs/beta/provenance.html"),
	kindOf[scenarioIndexData]("scenarios", "runs/<id>/scenarios.html", "scenarios.go", "per-question coefficients, coloured", "runs/beta/scenarios.html"),
	kindOf[scenarioData]("scenario", "runs/<id>/q<N>.html", "scenario.go", "the run's cells of one question", "runs/beta/q3.html").
		writtenBy(scenarioParts...),
	kindOf[swingsData]("swings", "runs/<id>/swings.html", "swings.go", "the run's cells, the noise reference of score.RunSwings", "runs/beta/swings.html"),
	kindOf[transcriptData]("transcript", "runs/<id>/q<N>-transcripts[-<n>].html", "transcript.go", "a second pass over the run's file", "runs/beta/q2-transcripts.html"),
	kindOf[promptIndexData]("promptindex", "prompts/<variant>/index.html", "prompt.go", "dataset texts", "prompts/explicit/index.html"),
	kindOf[promptData]("prompt", "prompts/<variant>/q<N>.html", "prompt.go", "dataset texts, word differences", "prompts/explicit/q3.html"),
	kindOf[compareData]("compare", "compare/<variant>/q<N>[-<k>].html", "compare.go", "every run's own numbers on one question", "compare/explicit/q3.html"),
	kindOf[hubData]("hub", "transcripts[-<k>].html", "browser.go", "runs, variants, which runs stored transcripts", "transcripts.html"),
	kindOf[downloadsData]("downloads", "downloads[-<k>].html", "downloads.go", "the data files, CSV columns, schemas, run files", "downloads.html"),
	kindOf[rubricData]("rubric", "rubric.html (and data/rubric.json)", "rubric.go", "the scoring code's settings, worked examples", "rubric.html"),
	kindOf[provenanceData]("provenance", "provenance[-<k>].html (and provenance.json)", "provenance.go", "every input and output file", "provenance.html"),
	kindOf[changesData]("changes", "changes[-<k>].html", "changes.go", "the previous release's data/leaderboard.json, compared by internal/changes", "changes.html"),
	kindOf[benchmarkData]("benchmark", "benchmark.html", "benchmark.go", "content/benchmarks/<id>.json", "benchmark.html"),
	kindOf[article]("article", "methodology.html, pages/<slug>.html", "page.go", "METHODOLOGY.md, content/pages/*.md", "methodology.html"),
	kindOf[notFound]("notfound", "404.html", "page.go", "site.yaml's base_path", "404.html"),
	kindOf[glossaryData]("glossary", "glossary.html", "glossary.go", "the site's terms (package vocab), the numbers their definitions quote", "glossary.html"),
	kindOf[searchData]("search", "search.html (and data/search-index[-<k>].js)", "search.go", "dataset texts, runs, interventions", "search.html"),
}
