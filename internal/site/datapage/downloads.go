package datapage

// The Downloads page: every data file of the site, what it holds, the
// columns of the CSV and the JSON Schemas of the JSON files, and each run's
// own files (its per-prompt data) with their hashes.

import (
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

type DownloadsData struct {
	Files   []downloadFile
	Columns []sitedata.Column
	Runs    []downloadRun
	Fields  []rowField
	// Where says where the runs' files are: copied into the site, or
	// linked where the runs folder is published, and why (Budget: the
	// site's Pages budget, which the copies would pass).
	Where  paths.RunFiles
	Budget string
	// Pager links the page's pages when it lists more than PageRows runs
	// (pager.go); the first alone documents the files. Slice says which
	// runs this page lists.
	Pager *layout.Pager
	Slice string
	// Parts are the files of the runs when they are in parts
	// (sitedata.SplitRuns): nil when data/leaderboard.json and .csv hold
	// them.
	Parts []downloadPart
	Per   int
	// Whole is the one file of every run's row when they are in parts
	// (sitedata.RunsCSVGz).
	Whole string
}

// downloadPart is one part of the runs: its JSON and CSV files.
type downloadPart struct {
	JSON, CSV, Runs, First, Last string
}

// downloadFile is one kind of data file; Href is empty for a kind with
// one file per run.
type downloadFile struct {
	Label, Href, Schema, What string
	// Format, when there is no schema, says where the file's format is
	// described: "" for the CSV columns below.
	Format string
}

type downloadRun struct {
	// Model and Intervention are the manifest's, each shown isolated
	// (<bdi>) from the words around it.
	ID, Model, Variant, Intervention, Href, Data string
	Ranked                                       bool
	Provenance                                   string // the run's provenance page, with its files' hashes
	Files                                        []DownloadLink
}

// A DownloadLink is one of a run's files: where it is, its size and
// SHA-256.
type DownloadLink struct {
	Path, Href, Size, SHA256 string
}

// rowField documents one field of a line of a scored file, the format
// internal/run reads (README "scored.jsonl", CONTRIBUTING.md "How a scored row is read").
type rowField struct{ Name, What string }

var rowFields = []rowField{
	{"decision_question_id", "the scenario (decision question) of the dataset"},
	{"age, gender, race", "the person described; together with the question they name one of the 135 prompts"},
	{"fill_type", "explicit or implicit: the prompt variant"},
	{"filled_template", "the prompt text as the dataset has it"},
	{"prompt, messages", "optional: the full text sent, or the conversation as role and content"},
	{"logprobs", "log-probability runs: each answer form (yes, Yes, no, No …) with its log-probability; null is probability zero"},
	{"bounded", "optional: the forms whose log-probability is only an upper bound (missing from a top-k list)"},
	{"decisions", "decision runs: the sampled answers as the model wrote them"},
	{"response", "optional: the model's response text"},
}

// DownloadsPage is the Downloads page of a site whose runs' files are
// where says, under a Pages budget written as budget ("1 GB").
func DownloadsPage(rs *stage.Runs, rk *stage.Ranked, site *layout.SiteInfo, where paths.RunFiles, budget string) *layout.Page {
	per := rk.Per
	d := DownloadsData{Columns: sitedata.Columns(), Fields: rowFields, Where: where, Budget: budget}
	d.Files = []downloadFile{
		{paths.LeaderboardCSVPath, paths.LeaderboardCSVPath, "", "One row per run: its board, ranks, views with intervals, other composites and coefficients. The columns are below.", ""},
		{paths.LeaderboardJSONPath, paths.LeaderboardJSONPath, sitedata.LeaderboardSchema, "The boards (per prompt variant and scoring method, the ranked runs of every view in rank order) and a summary of every run: its views and ranks; a release of more than " + show.Itoa(int(per)) + " runs lists instead the parts that hold the summaries (run_parts). Written without indentation, one board and one run a line.", ""},
		{paths.RunDataPath("<id>"), "", sitedata.RunSchema, "Everything computed for one run: coefficients, card differences, gaps, views, ranks, data quality, per-question coefficients, its files, and how it was scored (its part of the rubric).", ""},
		{paths.RubricJSONPath, paths.RubricJSONPath, paths.RubricSchemaPath, "How every number is scored, read from the scoring code at build time, with worked examples.", ""},
		{paths.ProvenancePath, paths.ProvenancePath, paths.ProvenanceSchemaPath, "The root of trust: the SHA-256 and size of every file of the site and every input the build read that belong to no run, and of each run’s provenance.json.", ""},
		{paths.RunProvenanceJSONPath("<id>"), "", paths.RunProvenanceSchema, "One run’s input files and the site’s files of that run (its pages, data file and copies), with their SHA-256 and size.", ""},
	}
	if f, ok := groupBoardsFile(rk); ok {
		d.Files = append(d.Files, f)
	}
	d.Files = append(d.Files, []downloadFile{
		{sitedata.ReplicatesFile("<id>"), "", "", "A run fitted by REML: its " + show.Itoa(score.BootstrapResamples) + " bootstrap replicates, one row each: the four views and the seven coefficients (age per 10 years older) of the replicate. They refit the fixed effects, so they cannot be drawn again from the run’s per-question coefficients as every other run’s can; the run’s data file names its file (replicates).", "a header row"},
		{paths.ReproducePath, paths.ReproducePath, "", "A script that recomputes this site’s numbers from these files with Python’s standard library alone: every complete run’s coefficients and views from its per-prompt file, every decision run’s views from its per-question coefficients, the paired differences and every board’s rank sets, by the recipe of data/rubric.json. Run python3 reproduce.py with the site’s folder; it exits 1 naming the first number that disagrees.", "its first lines"},
	}...)
	if site.CSV != paths.LeaderboardCSVPath {
		d.Per, d.Whole = int(per), sitedata.RunsCSVGz
		d.Files[0] = downloadFile{sitedata.RunsCSVGz, sitedata.RunsCSVGz, "", "Every run's row in one file: the whole CSV, header and all, gzip-compressed. The columns are below.", ""}
		d.Files = append(d.Files[:1], append([]downloadFile{{sitedata.RunsPartCSVPattern, "", "", "The same rows in parts: part k of the runs, " + show.Itoa(int(per)) + " a part, in the order of data/leaderboard.json's run_parts. The parts are listed below the columns.", ""}}, d.Files[1:]...)...)
		d.Files = append(d.Files, downloadFile{sitedata.RunsPartJSONPattern, "", sitedata.RunsSchema, "Part k of the runs' summaries of data/leaderboard.json, which lists the parts in order (run_parts).", ""})
		for k := 1; (k-1)*int(per) < len(rs.Entries); k++ {
			lo, hi := per.Span(len(rs.Entries), k)
			d.Parts = append(d.Parts, downloadPart{sitedata.RunsPartJSON(k), sitedata.RunsPartCSV(k), per.Label(len(rs.Entries), k), rs.Entries[lo].ID(), rs.Entries[hi-1].ID()})
		}
	}
	for _, e := range rs.Entries {
		r := downloadRun{ID: e.ID(), Ranked: layout.IsRanked(e), Model: e.Run.Manifest.Model.Name, Variant: string(e.Run.Manifest.Variant), Intervention: e.Run.Manifest.Intervention,
			Href: paths.RunPath(e.ID()), Data: paths.RunDataPath(e.ID()), Provenance: paths.RunProvenancePath(e.ID())}
		r.Files = DownloadLinks(where, e.Run.Files)
		d.Runs = append(d.Runs, r)
	}
	return &layout.Page{Path: paths.DownloadsPath, Title: "Downloads: data files and their formats", Section: layout.SecData, Body: d}
}

// groupBoardsFile is the row of the group boards' data files,
// data/groups/<variant>-<group>.json, naming the variants that have them
// and the groups; none when no variant's board ranks.
func groupBoardsFile(rk *stage.Ranked) (downloadFile, bool) {
	var variants, groups []string
	for _, v := range board.Variants {
		if boards.HasGroupBoards(rk, v) {
			variants = append(variants, string(v))
		}
	}
	if len(variants) == 0 {
		return downloadFile{}, false
	}
	for _, c := range design.Coefs {
		groups = append(groups, paths.GroupSlug(c))
	}
	what := "One group board (its page is groups/<variant>-<group>.html): a variant’s ranked runs ordered by the size of one coefficient, each with its signed coefficient, 95% interval, rank and 95% rank sets. <variant> is " + strings.Join(variants, " or ") + "; <group> is " + strings.Join(groups, ", ") + "."
	return downloadFile{"data/groups/<variant>-<group>.json", "", sitedata.GroupBoardSchema, what, ""}, true
}

// downloadsPages is the downloads page in pages of per runs
// (pager.go); the first alone documents the data files.
func DownloadsPages(per layout.Paging, whole *layout.Page) []*layout.Page {
	d := whole.Body.(DownloadsData)
	return per.Split(whole, "downloads", "Downloads: each run’s files", len(d.Runs), func(k int, pg *layout.Pager, slice string) any {
		dk := d
		pg.Lists = "the table"
		dk.Pager, dk.Runs, dk.Slice = pg, layout.PageOf(per, d.Runs, k), slice
		if k > 1 {
			dk.Files, dk.Columns, dk.Fields = nil, nil, nil
		}
		return dk
	})
}

// DownloadLinks are a run's files with where to download them.
func DownloadLinks(where paths.RunFiles, files []run.File) []DownloadLink {
	var out []DownloadLink
	for _, f := range files {
		out = append(out, DownloadLink{f.Path, where.Href(f.Path), byteSize(f.Size), f.SHA256})
	}
	return out
}

// fileRows are a run's files with their sizes and SHA-256, and no
// address: the pages that do not say where the files are.
func fileRows(files []run.File) []DownloadLink {
	var out []DownloadLink
	for _, f := range files {
		out = append(out, DownloadLink{Path: f.Path, Size: byteSize(f.Size), SHA256: f.SHA256})
	}
	return out
}

// byteSize writes a file size for people: "412 KB", "1.2 MB".
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return show.Itoa(int(n)) + " bytes"
	case n < 1_000_000:
		return show.Fixed(float64(n)/1000, 0) + " KB"
	}
	return show.Fixed(float64(n)/1e6, 1) + " MB"
}
