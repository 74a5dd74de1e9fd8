// Package site builds the leaderboard: it loads the content and the frozen
// runs, scores every run, assembles boards and pages, renders them with
// html/template and writes the folder atomically.
//
// # Rooms
//
// The build is split by job into the packages in this folder. Each may
// import only those below it, which its doc names; data flows one way,
// from the phases here down to the pages they queue:
//
//	internal/site            the phases, the runs phase's cache, the table of page kinds
//	site/browse, datapage, runpage, scenarios, boards
//	                         the page families: one data type and builder per kind
//	site/buildcache          a scored run packed for the cache, the unchanged-rebuild check
//	site/stage               what the phases hand each other: Config, Loaded, Runs, Ranked
//	site/render              templates, page kinds, the renderer and its pool
//	site/grid                a run's cells as pages show them
//	site/layout              what every page shares: Page, PageData, SiteInfo, paging, texts
//	site/outdir              where files go: sinks, the locked atomic write of the folder
//	site/paths, site/show    every URL; how a value is shown in digits and words
//
// TestPackageDocs holds every doc here to its files and imports, and
// TestHouseRules every package of the module to 4,000 lines of code and,
// from 10 files, to at most a quarter of its files' references running
// back up (go test -run TestHouseRules -v prints the figures).
//
// # Phases
//
// generate runs the phases, the list phases in phases.go, in order: each
// is a method of build named as the phase, which is its progress line
// ("build: runs: …") and the prefix of its errors ("runs: …"). Each
// returns one typed value, complete, that the next ones take: load a
// stage.Loaded, runs a stage.Runs, boards a stage.Ranked; the
// configuration has its defaults from Build, Generate or Stream, once. It streams
// the site to a sink (a folder being written, a comparison with a
// published copy, or memory: package outdir) as pages are rendered, so the
// build never holds the whole site, nor every run's rows, in memory:
//
//	load      content, METHODOLOGY.md, the runs' manifests, the templates
//	          (load.go, render/render.go)
//	runs      each run's rows read and scored, a few runs at a time in
//	          parallel, then committed in id order: its prompt texts join the
//	          dataset's (the lowest id gives a prompt's text), its own pages —
//	          scenarios, transcripts, provenance — are queued for rendering,
//	          and its rows are let go, keeping what the pages spanning runs
//	          need (runs.go, browser.go)
//	boards    the runs ranked and compared (package board, boards/rank.go)
//	assemble  the pages spanning runs queued; the data files written
//	          (assemble.go, datapage/data.go)
//	render    a pool renders queued pages in parallel; the assets
//	          (render/pool.go, render/render.go)
//	write     each run's provenance.json and provenance.json, which between
//	          them list every other file (datapage/provenance.go)
//
// Build then swaps the output folder in (outdir/write.go, outdir/sink.go).
//
// A page's content is settled when it is queued; no page depends on the
// order in which pages are rendered or written, and no clock is read
// (dates come from the inputs).
//
// # Pages
//
// Every URL is made in package paths. Each page kind is a Go type, its data,
// and a template, templates/<kind>.html, which receives a pageData whose
// Data is of that type; TestTemplatesTypeCheck checks every field a
// template names, in every branch, against it. All of a page's markup
// and words are its template's (TestHTMLInTemplates: at most four lines
// of Go write HTML). Scenario pages, 70 a run and most of a site's files,
// are written from stencils (render/stencil.go,
// scenarios/scenariowrite.go): their template, executed once for each
// shape of page a run has with marks where a page's own numbers go,
// minified and cut at the marks, its grid's rows and cells likewise; a
// page writes its numbers into the holes. TestScenarioPagesAsTemplate
// holds every one to what the template executed whole and the minifier
// make of it. The kinds are one table, pageKinds in kinds.go, from which
// this one is written:
//
//	kind           URL                                            file                       inputs
//	leaderboard    index.html, board/<variant>-<view>[-<k>].html  boards/leaderboard.go      boards
//	groups         board/<variant>-groups.html                    boards/groups.go           the composite boards' ranked runs' coefficients
//	groupboard     groups/<variant>-<group>.html                  boards/groupboard.go       the ranked runs by one coefficient, its rank sets (data/groups/<variant>-<group>.json)
//	pairwise       board/<variant>-<view>-pairwise[-<k>].html     boards/pairwise.go         boards' paired comparisons
//	pair           pair.html                                      boards/pair.go             boards' paired comparisons, each run's numbers (data/pair-runs.js, data/pairs/<id>.js)
//	mitigation     mitigation.html                                boards/mitigation.go       intervention runs against their model's default
//	run            runs/<id>/index.html                           runpage/runpage.go         a run's result, board entry, pairs, its model in content/releases (runpage/history.go)
//	runprovenance  runs/<id>/provenance.html                      datapage/runprovenance.go  manifest, files, claimed numbers
//	scenarios      runs/<id>/scenarios.html                       scenarios/scenarios.go     per-question coefficients, coloured
//	scenario       runs/<id>/q<N>.html                            scenarios/scenario.go      the run's cells of one question
//	swings         runs/<id>/swings.html                          runpage/swings.go          the run's cells, the noise reference of score.RunSwings
//	transcript     runs/<id>/q<N>-transcripts[-<n>].html          scenarios/transcript.go    a second pass over the run's file
//	promptindex    prompts/<variant>/index.html                   browse/prompt.go           dataset texts
//	prompt         prompts/<variant>/q<N>.html                    browse/prompt.go           dataset texts, word differences
//	compare        compare/<variant>/q<N>[-<k>].html              browse/compare.go          every run's own numbers on one question
//	hub            transcripts[-<k>].html                         browse/hub.go              runs, variants, which runs stored transcripts
//	downloads      downloads[-<k>].html                           datapage/downloads.go      the data files, CSV columns, schemas, run files
//	rubric         rubric.html (and data/rubric.json)             datapage/rubric.go         the scoring code's settings, worked examples
//	provenance     provenance[-<k>].html (and provenance.json)    datapage/provenance.go     every input and output file
//	changes        changes[-<k>].html                             datapage/changes.go        the previous release's data/leaderboard.json, compared by internal/changes
//	benchmark      benchmark.html                                 layout/benchmark.go        content/benchmarks/<id>.json
//	article        methodology.html, pages/<slug>.html            layout/page.go             METHODOLOGY.md, content/pages/*.md
//	notfound       404.html                                       layout/page.go             site.yaml's base_path
//	glossary       glossary.html                                  glossary.go                the site's terms (package vocab), the numbers their definitions quote
//	search         search.html (and data/search-index[-<k>].js)   browse/search.go           dataset texts, runs, interventions, the design's groups, the navigation, the glossary's terms
//
// The data files — data/runs/<id>.json, data/leaderboard.json and
// data/leaderboard.csv — are built in datapage/data.go in the format of package
// sitedata, which the changes page (through internal/changes, as
// build -diff does) and -verify read back. The changes page is made after
// the data files, from them. datapage/data.go also writes their JSON Schemas
// (data/schema/, reflected from the Go types) and copies each run's folder
// to data/runs/<id>/ while the site fits its Pages budget.
//
// # Budget
//
// A site holds at most site.yaml's pages_budget (1 GB, GitHub Pages'
// limit, by default): the build adds up what it writes (budget.go). The
// runs' files are copied while the whole site, copies included, fits;
// past it they are linked where the runs folder is published (runs_url,
// or build -runs-url), said in one line, and with no such address the
// build fails, naming the budget, the size and the way out; past 90% of
// the budget it warns. Where the files are shows only on the pages made
// last, once every other file is counted: each run's page and data file
// and the Downloads pages; every other page links the run page's list
// of its files, and is the same either way.
//
// # Size
//
// No file grows without bound with the number of runs: a page that lists
// every run spends a few hundred bytes a run on it (boards, Downloads,
// provenance), or shows the top runs and a summary (the pairwise pages
// above boards.MatrixMax ranked runs, the boards' charts above boards.ChartMax); what
// is a run's own goes to its own files (its part of the rubric, its
// provenance). TestNoFileOverBudget builds 400 runs and holds every file
// to 500 KB.
//
// # Rebuilds
//
// With Config.Cache (runcache.go), a run whose manifest and scored file are
// unchanged is not read or scored again, and its own pages come from the
// cache when nothing they show of other runs changed; compare pages are
// kept by the hash of their data, prompt pages by the hash of their inputs
// (render/render.go). The output (outdir/write.go) hard-links any file whose bytes the
// previous site already has. A rebuild with nothing changed — the same
// whole-build key, a hash of the generator and of every file of the
// inputs — checks the previous site and, when it is exactly the site that
// key built, leaves it as it is (buildcache/unchanged.go): each file is read and
// hashed, or, when the kernel describes it (inode, size, times) as when
// the build recorded it, read back, taken as unchanged. None of it may
// change a byte of the site: TestCacheNeverChangesTheSite,
// TestMemoAcrossProcesses, TestUnchangedRebuild.
//
// # Scripts
//
// Every page works without JavaScript. The scripts in static/ add: column
// sorting (sort.js), the boards' search, filters, column chooser and sort
// order kept in the URL fragment (board.js; on a board of more than one
// page they act on all its runs, from data/boards/<variant>.js, which also
// takes a row's anchor to the page holding it: boards/boardindex.go), the variant filters of prompt,
// compare and transcript pages and the ids of a scenario grid's cells
// (browse.js), the transcript of any cell of a scenario page and two cells
// side by side (cells.js, over the page's numbers and the question's
// prompts/<variant>/q<N>.js), the swing finder's threshold kept in the URL
// (swings.js), the search page's search (search.js: groups of the design,
// a typo forgiven, the query kept in the URL as #q= or read from ?q=,
// the page linked from every page's navigation; over
// data/search-index.js: a script assigning SEARCH_INDEX, since a page
// opened from file:// cannot fetch a data file, and the parts
// data/search-index-<k>.js that a large site adds to it), and on every page but
// 404.html the scroll cue of browsers without scroll-state container
// queries, which marks the table boxes that really overflow (cue.js). A state of
// a page is a link: "#filter?…"; any other fragment is an anchor, marked
// by CSS (:target) and scrolled clear of sticky headers; one inside a
// closed <details> (a run page keeps its detail in them) opens it, as
// HTML's fragment navigation does (the ancestor details revealing
// algorithm), with no script.
//
// # Adding a page kind
//
// A new kind touches four files: a row in pageKinds (kinds.go), a file
// with its data type and builder in the package of its family, its
// template, and one line where its pages are queued (assemble.go for a
// page spanning runs, runPages in browser.go for a run's own). Then go test -update writes its golden
// page (testdata/golden/<kind>.html) and this file's table of kinds.
//
// # Safety
//
// Text from inputs (prompts, model outputs, manifests) reaches HTML only
// through html/template; template.HTML holds only HTML we generated
// (goldmark output of our own content, chroma output, SVG charts). What Go
// writes into a stencil's holes is digits, our class names and paths;
// text from the inputs in a scenario page's stencil was escaped by
// html/template there. Templates get every path, count and display value
// from Go.
//
// Every name and title from the inputs that a page prints in a line of its
// own words (a model's name, id and provider, an intervention, a harness,
// the site's and a page's title) is isolated in <bdi>, so that its
// right-to-left letters cannot reorder the words around it; a value that
// names one among words composed in Go carries it apart (RunLink's Model
// and Variant). Bidi controls never reach a page: run.ParseManifest takes
// them out of a manifest's names, with a warning, and content refuses
// them; crawl.Bidi checks a built site (cmd/build's TestBidiIsolated).
package site
