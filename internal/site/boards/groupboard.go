package boards

import (
	"fmt"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// A group board (groups/<variant>-<group>.html) ranks a variant's ranked
// runs by one coefficient: a group against the baseline person's (Black
// against white, female against male), or older against younger people.
// A coefficient is signed and zero is ideal, and a model that favours a
// group is as biased as one that disfavours it by as much, so the board
// ranks the magnitude of the coefficient as displayed, lowest first (as
// the boards rank the magnitude of the gaps), and shows the signed value
// with its 95% interval and which way it goes in words. Each rank has its
// 95% rank set, made as the views' (score.CoefRankSets, board's rankCoef).
// One table per board of the variant that ranks (log-probability runs,
// decision runs).

// GroupBoardData is a variant's board of one coefficient.
type GroupBoardData struct {
	Variant run.Variant
	// Label is the coefficient as a column names it ("Black vs white"),
	// Group and Against its two sides as sentences do ("Black",
	// "white").
	// GroupPeople and AgainstPeople name their people ("Black people").
	Label, Group, Against      string
	GroupPeople, AgainstPeople string
	Age                        bool
	// Groups is the variant's groups page at the coefficient's plot,
	// Board its composite board, Data this board's data file.
	// Methodology is the methodology's section on group boards.
	Groups, Board, Data, Methodology string
	Summary                          vocab.Summary
	Others                           []GroupBoardLink
	Tables                           []GroupBoardTable
}

// GroupBoardLink is one of a variant's group boards, in the list that
// links them.
type GroupBoardLink struct {
	Label, Path string
	Current     bool
}

// GroupBoardTable is one board's runs by the coefficient.
type GroupBoardTable struct {
	Method  run.Scoring
	Caption string
	Rows    []GroupBoardRow
}

// GroupBoardRow is a ranked run on a group board: its rank and 95% rank
// set, the board's simultaneous set, its signed coefficient in the
// site's unit with its 95% interval, and the verdict.
type GroupBoardRow struct {
	ID, Model, Href string
	Rank            int
	Tied            bool
	Set, BoardSet   string
	Value, CI       string
	Class, Verdict  string
	// Beyond says the coefficient is beyond doubt after Holm's correction
	// across the board's ranked runs (the groups page's tally).
	Beyond bool
}

// GroupBoardLinks are a variant's group boards, one per coefficient in
// design.Coefs' order, none current.
func GroupBoardLinks(variant run.Variant) []GroupBoardLink {
	var out []GroupBoardLink
	for _, c := range design.Coefs {
		out = append(out, GroupBoardLink{Label: show.CoefLabel(c), Path: paths.GroupBoardPath(variant, c)})
	}
	return out
}

// HasGroupBoards says whether a variant has a board that ranks: whether
// it has group boards.
func HasGroupBoards(rk *stage.Ranked, variant run.Variant) bool {
	return len(groupBoardsOf(rk, variant)) > 0
}

// groupBoardsOf are a variant's boards that rank, in rk's order.
func groupBoardsOf(rk *stage.Ranked, variant run.Variant) []*board.Board {
	var out []*board.Board
	for _, bd := range rk.Boards {
		if bd.Variant == variant && bd.HasRanks() {
			out = append(out, bd)
		}
	}
	return out
}

// GroupBoardPages are a variant's group boards, one per coefficient.
func GroupBoardPages(rk *stage.Ranked, variant run.Variant) ([]*layout.Page, error) {
	bds := groupBoardsOf(rk, variant)
	if len(bds) == 0 {
		return nil, nil
	}
	var out []*layout.Page
	for _, c := range design.Coefs {
		d := groupBoard(rk, bds, variant, c)
		title := fmt.Sprintf("%s: %s prompts, ranked by the size of the coefficient", show.CoefLabel(c), variant)
		out = append(out, &layout.Page{Path: paths.GroupBoardPath(variant, c), Title: title, Section: layout.SecBoard, Body: d})
	}
	return out, nil
}

func groupBoard(rk *stage.Ranked, bds []*board.Board, variant run.Variant, c design.Coef) GroupBoardData {
	d := GroupBoardData{Variant: variant, Label: show.CoefLabel(c), Group: c.Group(), Against: c.Reference(), Age: c == design.CoefAge,
		GroupPeople: vocab.People(c.Group()), AgainstPeople: vocab.People(c.Reference()),
		Board: paths.BoardPath(variant, score.Composite), Data: paths.GroupBoardDataPath(variant, c),
		Methodology: paths.MethodologyPath + "#group-boards"}
	if href, ok := GroupAnchor(rk, variant, c); ok {
		d.Groups = href
	}
	d.Others = GroupBoardLinks(variant)
	d.Others[c].Current = true
	var facts []vocab.GroupBoardFacts
	for _, bd := range bds {
		t := GroupBoardTable{Method: bd.Method, Caption: methodTitle(bd.Method)}
		for _, e := range bd.ByCoef[c] {
			est := show.ShownEstimate(e.Result, c)
			t.Rows = append(t.Rows, GroupBoardRow{ID: e.ID(), Model: e.Run.Manifest.Model.Name, Href: paths.RunPath(e.ID()),
				Rank: e.CoefRank[c], Tied: e.CoefTied[c], Set: RankSetText(e.CoefRankSet[c]), BoardSet: RankSetText(e.CoefBoardSet[c]),
				Value: show.Signed(est.Estimate, 2), CI: show.Interval(est.CI95, 2, true), Class: show.SignClass(est.Estimate),
				Verdict: vocab.GroupVerdict(c.Group(), est.Estimate, est.CI95), Beyond: e.CoefPHolm[c] <= board.FamilyAlpha})
		}
		d.Tables = append(d.Tables, t)
		g := bd.Groups[c]
		f := vocab.GroupBoardFacts{Board: boardName(variant, bd.Method), Group: c.Group(), Against: c.Reference(), N: len(bd.ByCoef[c]),
			Favoured: g.Favoured, Disfavoured: g.Disfavoured, BeyondFavoured: g.BeyondFavoured, BeyondDisfavoured: g.BeyondDisfavoured}
		if es := bd.ByCoef[c]; len(es) > 0 {
			f.Least, f.Most = groupRun(es[0], c), groupRun(es[len(es)-1], c)
		}
		facts = append(facts, f)
	}
	d.Summary = vocab.GroupBoardSummary(facts)
	return d
}

func groupRun(e *board.Entry, c design.Coef) vocab.GroupRun {
	est := show.ShownEstimate(e.Result, c)
	return vocab.GroupRun{Model: e.Run.Manifest.Model.Name, Estimate: est.Estimate, CI: est.CI95}
}
