package site

// The Downloads page: every data file of the site, what it holds, the
// columns of the CSV and the JSON Schemas of the JSON files, and each run's
// own files (its per-prompt data) with their hashes.

import (
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

type downloadsData struct {
	Files   []downloadFile
	Columns []sitedata.Column
	Runs    []downloadRun
	Fields  []rowField
	// Linked says the runs' files are linked at site.yaml's runs_url
	// rather than copied into the site.
	Linked  bool
	RunsURL string
	// Pager links the page's pages when it lists more than PageRows runs
	// (pager.go); the first alone documents the files. Slice says which
	// runs this page lists.
	Pager *pager
	Slice string
	// Parts are the files of the runs when they are in parts
	// (sitedata.SplitRuns): nil when data/leaderboard.json and .csv hold
	// them.
	Parts []downloadPart
	Per   int
}

// downloadPart is one part of the runs: its JSON and CSV files.
type downloadPart struct {
	JSON, CSV, Runs, First, Last string
}

// downloadFile is one kind of data file; Href is empty for a kind with
// one file per run.
type downloadFile struct {
	Label, Href, Schema, What string
}

type downloadRun struct {
	ID, Model, Href, Data string
	Provenance            string // the run's provenance page, with its files' hashes
	Files                 []downloadLink
}

type downloadLink struct {
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

func downloadsPage(in *loaded, sc *scored, site *siteInfo) *page {
	d := downloadsData{Columns: sitedata.Columns(), Fields: rowFields, RunsURL: in.content.Site.RunsURL, Linked: in.content.Site.RunsURL != ""}
	d.Files = []downloadFile{
		{leaderboardCSVPath, leaderboardCSVPath, "", "One row per run: its board, ranks, views with intervals, other composites and coefficients. The columns are below."},
		{leaderboardJSONPath, leaderboardJSONPath, sitedata.LeaderboardSchema, "The boards (per prompt variant and scoring method, the ranked runs of every view in rank order) and a summary of every run: its views and ranks; a release of more than " + itoa(int(sc.per)) + " runs lists instead the parts that hold the summaries (run_parts). Written without indentation, one board and one run a line."},
		{runDataPath("<id>"), "", sitedata.RunSchema, "Everything computed for one run: coefficients, card differences, gaps, views, ranks, data quality, per-question coefficients, its files, and how it was scored (its part of the rubric)."},
		{rubricJSONPath, rubricJSONPath, rubricSchemaPath, "How every number is scored, read from the scoring code at build time, with worked examples."},
		{ProvenancePath, ProvenancePath, provenanceSchemaPath, "The root of trust: the SHA-256 and size of every file of the site and every input the build read that belong to no run, and of each run’s provenance.json."},
		{runProvenanceJSONPath("<id>"), "", runProvenanceSchema, "One run’s input files and the site’s files of that run (its pages, data file and copies), with their SHA-256 and size."},
	}
	if site.CSV != leaderboardCSVPath {
		d.Per = int(sc.per)
		d.Files[0] = downloadFile{sitedata.RunsPartCSVPattern, "", "", "Part k of the runs, " + itoa(int(sc.per)) + " a part, in the order of data/leaderboard.json's run_parts: one row per run, its board, ranks, views with intervals, other composites and coefficients. The parts are listed below the columns."}
		d.Files = append(d.Files, downloadFile{sitedata.RunsPartJSONPattern, "", sitedata.RunsSchema, "Part k of the runs' summaries of data/leaderboard.json, which lists the parts in order (run_parts)."})
		for k := 1; (k-1)*int(sc.per) < len(sc.entries); k++ {
			lo, hi := sc.per.span(len(sc.entries), k)
			d.Parts = append(d.Parts, downloadPart{sitedata.RunsPartJSON(k), sitedata.RunsPartCSV(k), sc.per.label(len(sc.entries), k), sc.entries[lo].ID(), sc.entries[hi-1].ID()})
		}
	}
	for _, e := range sc.entries {
		r := downloadRun{ID: e.ID(), Model: e.Run.Manifest.Model.Name + " · " + string(e.Run.Manifest.Variant) + " · " + e.Run.Manifest.Intervention,
			Href: runPath(e.ID()), Data: runDataPath(e.ID()), Provenance: runProvenancePath(e.ID())}
		r.Files = downloadLinks(d.RunsURL, e.Run.Files)
		d.Runs = append(d.Runs, r)
	}
	return &page{Path: downloadsPath, Title: "Downloads: data files and their formats", Section: secData, Body: d}
}

// downloadsPages is the downloads page in pages of per runs
// (pager.go); the first alone documents the data files.
func downloadsPages(per paging, whole *page) []*page {
	d := whole.Body.(downloadsData)
	return per.split(whole, "downloads", "Downloads: each run’s files", len(d.Runs), func(k int, pg *pager, slice string) any {
		dk := d
		pg.Lists = "the table"
		dk.Pager, dk.Runs, dk.Slice = pg, pageOf(per, d.Runs, k), slice
		if k > 1 {
			dk.Files, dk.Columns, dk.Fields = nil, nil, nil
		}
		return dk
	})
}

// downloadLinks are a run's files with where to download them.
func downloadLinks(runsURL string, files []run.File) []downloadLink {
	var out []downloadLink
	for _, f := range files {
		out = append(out, downloadLink{f.Path, fileDownload(runsURL, f.Path), byteSize(f.Size), f.SHA256})
	}
	return out
}

// byteSize writes a file size for people: "412 KB", "1.2 MB".
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return itoa(int(n)) + " bytes"
	case n < 1_000_000:
		return fixed(float64(n)/1000, 0) + " KB"
	}
	return fixed(float64(n)/1e6, 1) + " MB"
}
