// Package site builds the leaderboard: it loads the content and the frozen
// runs, scores every run, assembles boards and pages, renders them with
// html/template and writes the folder atomically.
//
// # Phases
//
// Generate runs the phases as functions, each taking what the earlier ones
// returned, so the order of the build is in their signatures:
//
//	load(cfg) → *loaded              content, METHODOLOGY.md, runs (site.go)
//	scoreRuns(cfg, in) → *scored     results, boards, pairs, cells per question (site.go)
//	assemble(cfg, in, sc) → *assembly every page with its data, data files, inputs (assemble.go)
//	render(cfg, in, a) → []File      templates, assets, provenance.json, sorted (render.go)
//	Write(out, files)                temporary folder swapped in (write.go)
//
// All ordering is settled by assemble; render executes pages in parallel
// into fixed slots, so scheduling cannot change a byte of the output. No
// clock is read: dates come from the inputs.
//
// # Pages
//
// Every URL is made in paths.go. Each page kind is a data type (its body)
// whose kind method names its template, templates/<kind>.html; the types,
// their builders and the page they make are in one file per kind:
//
//	kind           URL                                     file            inputs
//	leaderboard    index.html, board/<variant>-<view>.html leaderboard.go  boards
//	pairwise       board/<variant>-<view>-pairwise.html    pairwise.go     boards' paired comparisons
//	mitigation     mitigation.html                         mitigation.go   intervention runs against their model's default
//	run            runs/<id>/index.html                    runpage.go      a run's result, board entry, pairs
//	runprovenance  runs/<id>/provenance.html               runprovenance.go manifest, files, claimed numbers
//	scenarios      runs/<id>/scenarios.html                scenarios.go    per-question coefficients, heatmap
//	scenario       runs/<id>/q<N>.html                     scenario.go     the run's cells of one question
//	transcript     runs/<id>/q<N>-transcripts[-<n>].html   transcript.go   a second pass over the run's file
//	promptindex    prompts/<variant>/index.html            prompt.go       dataset texts
//	prompt         prompts/<variant>/q<N>.html             prompt.go       dataset texts, word differences
//	compare        compare/<variant>/q<N>.html             compare.go      every run's cells of one question
//	hub            transcripts.html                        browser.go      runs, variants
//	rubric         rubric.html (and data/rubric.json)      rubric.go       the scoring code's settings, runs
//	provenance     provenance.html (and provenance.json)   provenance.go   every input and output file
//	changes        changes.html                            changes.go      the previous release's data/leaderboard.json, compared by internal/changes
//	benchmark      benchmark.html                          benchmark.go    content/benchmarks/<id>.json
//	article        methodology.html, pages/<slug>.html     page.go         METHODOLOGY.md, content/pages/*.md
//	notfound       404.html                                page.go         site.yaml's base_path
//
// The data files — data/runs/<id>.json, data/leaderboard.json and
// data/leaderboard.csv — are built in data.go in the format of package
// sitedata, which the changes page (through internal/changes, as
// build -diff does) and -verify read back. The changes page is made after
// the data files, from them.
//
// # Adding a page kind
//
// A new kind touches four files: a const in page.go (and the kinds list),
// a file with its data type and builder, its template, and one line in
// assemble.go; TestEveryKindRenders then asks for a golden page of it.
//
// # Safety
//
// Text from inputs (prompts, model outputs, manifests) reaches HTML only
// through html/template; template.HTML holds only HTML we generated
// (goldmark output of our own content, chroma output, SVG charts).
// Templates get every path, count and display value from Go.
package site
