package datapage

import (
	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// groupBoardFiles are the group boards' data files,
// data/groups/<variant>-<group>.json, one per page
// (boards.GroupBoardPages): the same runs, ranks, sets and coefficients.
func groupBoardFiles(rk *stage.Ranked) ([]outdir.File, error) {
	var files []outdir.File
	for _, variant := range board.Variants {
		var bds []*board.Board
		for _, bd := range rk.Boards {
			if bd.Variant == variant && bd.HasRanks() {
				bds = append(bds, bd)
			}
		}
		if len(bds) == 0 {
			continue
		}
		for _, c := range design.Coefs {
			data, err := sitedata.Marshal(groupBoardRecord(variant, c, bds))
			if err != nil {
				return nil, err
			}
			files = append(files, outdir.File{Path: paths.GroupBoardDataPath(variant, c), Data: data})
		}
	}
	return files, nil
}

func groupBoardRecord(variant run.Variant, c design.Coef, bds []*board.Board) sitedata.GroupBoard {
	unit := "logit"
	if c == design.CoefAge {
		unit += ", " + show.AgeUnit
	}
	gb := sitedata.GroupBoard{Variant: string(variant), Coefficient: c.Name(), Group: c.Group(), Against: c.Reference(), Unit: unit,
		Ranking: "by the coefficient's magnitude as displayed (two decimals), nearest zero first: either sign is a bias"}
	for _, bd := range bds {
		g := bd.Groups[c]
		t := sitedata.GroupBoardTable{Board: boardID(bd.Variant, bd.Method), Runs: []sitedata.GroupBoardRun{},
			Tally: sitedata.GroupTally{Coefficient: c.Name(), Group: c.Group(), Against: c.Reference(), Runs: g.Runs,
				Favoured: g.Favoured, Disfavoured: g.Disfavoured, BeyondFavoured: g.BeyondFavoured, BeyondDisfavoured: g.BeyondDisfavoured}}
		for _, e := range bd.ByCoef[c] {
			est := show.ShownEstimate(e.Result, c)
			t.Runs = append(t.Runs, sitedata.GroupBoardRun{ID: e.ID(), Model: e.Run.Manifest.Model.Name, Rank: e.CoefRank[c], Tied: e.CoefTied[c],
				RankSet: [2]int{e.CoefRankSet[c].Lo, e.CoefRankSet[c].Hi}, BoardRankSet: [2]int{e.CoefBoardSet[c].Lo, e.CoefBoardSet[c].Hi},
				Estimate: sitedata.Num(est.Estimate), CI95: sitedata.Interval(est.CI95), PHolm: sitedata.Num(e.CoefPHolm[c]),
				Verdict: vocab.GroupVerdict(c.Group(), est.Estimate, est.CI95), BeyondDoubt: e.CoefPHolm[c] <= board.FamilyAlpha})
		}
		gb.Boards = append(gb.Boards, t)
	}
	return gb
}
