// Package boards builds the pages of the ranked boards: the leaderboard
// of each variant and view (BoardData), the groups page, the group
// boards (a variant's runs ranked by one coefficient), the pairwise
// comparisons and any two runs side by side (pair.html), the mitigation
// page of intervention runs against their model's default prompt, and the
// runs of one model in both prompt variants; and each ranked run's place
// in its board's listing pages.
//
// # Files
//
//	leaderboard.go: BoardData, BoardRowFor, QualityFlag, Flags
//	rank.go: Rank
//	boardpages.go: BoardPages
//	groups.go: GroupsData, GroupsPage, HasGroupFigure, GroupAnchor
//	groupboard.go: GroupBoardData, GroupBoardPages, GroupBoardLinks, HasGroupBoards
//	pairwise.go: PairwiseData, PairwisePages, RankSetText
//	pair.go: PairData, PairPage, PairFile, PairRunsFile, PairRunFiles
//	mitigation.go: InterventionPairs, AdjustedByPair, MitigationData, MitigationPage, PairRow, PairsOf, Verdict, Beyond
//	variants.go: VariantPairs, VariantDiffs, DiffOf, VariantDiffRows, BoardVariantDiffs
//	places.go: RowPlaces, BoardRowPath, BoardPageOf
//	boardindex.go: BoardIndex, BoardIndexFile
//	charts.go: CoefChart
//	summary.go: BoardOf, RunFacts, LargestEffect, Rules
//	rankmove.go: PreviousRanksOf, MovesNote
//
// Of the site's packages it may import: layout, paths, render, show, stage.
package boards
