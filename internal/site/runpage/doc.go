// Package runpage builds a run's own page (RunData: its views, ranks,
// coefficients, card, gaps, pairs, data quality, other tools' numbers and
// its model's history across releases) and its swing finder (SwingsData).
//
// # Files
//
//	runpage.go: RunData, RunPage
//	othertools.go: the other tools' definitions beside the site's
//	history.go: History, HistoryKey, ReadHistory
//	swings.go: SwingsData, SwingsPage
//
// Of the site's packages it may import: boards, datapage, grid, layout, paths, show, stage.
package runpage
