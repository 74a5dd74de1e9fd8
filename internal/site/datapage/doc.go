// Package datapage builds the data files under data/ (DataFiles: the
// leaderboard's JSON and CSV, the group boards' JSON, their schemas; RunDataFiles: each run's
// JSON; PutRunCopies: the runs' copies) and the pages about them and about where every number comes
// from: the rubric, Downloads, provenance (the site's and each run's,
// with provenance.json), and the changes since the previous release.
//
// # Files
//
//	data.go: DataFiles, RunDataFiles, OwnParts, PutRunCopies, IncompleteQuestions
//	groupdata.go: the group boards' data files (DataFiles)
//	rubric.go: RubricData, RubricJSON, RubricPage
//	rubricexample.go: the worked examples shown on the rubric page
//	downloads.go: DownloadsData, DownloadsPage, DownloadsPages, DownloadLink, DownloadLinks
//	provenance.go: Inputs, ProvenanceData, ProvenancePages, ProvenanceJSON
//	runprovenance.go: RunProvenanceData, RunProvenancePage
//	changes.go: ChangesData, ChangesPages
//
// Of the site's packages it may import: boards, grid, layout, outdir, paths, render, show, stage.
package datapage
