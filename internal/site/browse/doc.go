// Package browse builds the pages for finding and comparing across runs:
// the hub of prompts and runs (HubData), the prompt pages with their word
// differences (PromptData), the compare pages of every run on one
// question (CompareData) and the search page with its index (SearchData).
//
// # Files
//
//	hub.go: BrowserPages, HubData
//	prompt.go: PromptIndexData, PromptData, PromptPageInputs, DiffSegments
//	compare.go: CompareData, ComparePages
//	search.go: SearchData, SearchIndex, SearchIndexJS, SearchPage
//
// Of the site's packages it may import: boards, grid, layout, outdir, paths, render, show, stage.
package browse
