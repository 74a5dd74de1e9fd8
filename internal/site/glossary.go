package site

// The glossary (glossary.html): the site's terms, each explained once,
// which every page links at its first use of one ({{.Term "logit"}}, and
// a summary's words through the "words" partial). Its entries are
// vocab.Terms, in that order; their words are in templates/glossary.html,
// with the numbers they quote from here.

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// glossaryData is the glossary page: the terms, and the numbers their
// definitions quote.
type glossaryData struct {
	Terms []vocab.Term
	// Examples are worked values of the logit scale: a difference, its
	// odds factor, P(yes) from 50% and the change in pp.
	Examples []logitExample
	Baseline string // "60, male, white"
	// AgeUnit, AgeGap: the unit of age coefficients and the mean distance
	// between two ages of the design.
	AgeUnit, AgeGap string
	MinMass         string // the paper's answer-mass rule, "0.99"
	MaxMissing      string // "5%"
	Cells           int    // prompts a scenario
	Questions       int
	Swing           string // the swing finder's default threshold, "30 pp"
	Decimals        string // the precision boards rank at, in words
	MethodologyHref string
	// GroupBoards are the group boards of every variant that has them,
	// one per coefficient, for the coefficient's entry; none when no
	// board ranks.
	GroupBoards []variantBoards
}

// variantBoards are one variant's group boards.
type variantBoards struct {
	Variant string
	Boards  []boards.GroupBoardLink
}

type logitExample struct {
	Logit, Odds, From, To, PP string
}

func glossaryPage(site *layout.SiteInfo, rk *stage.Ranked) *layout.Page {
	d := glossaryData{Terms: vocab.Terms, Baseline: design.Baseline.Label(), AgeUnit: show.AgeUnit, AgeGap: show.AgeGapYears,
		MinMass: show.Fixed(board.MinMass, 2), MaxMissing: show.Fixed(100*board.MaxMissing, 0) + "%", Cells: design.NumCells,
		Questions: design.NumQuestions, Swing: vocab.PPAt(100*score.SwingThreshold(runpage.SwingDefault), 0), Decimals: site.Design.Decimals,
		MethodologyHref: paths.MethodologyPath}
	for _, v := range board.Variants {
		if boards.HasGroupBoards(rk, v) {
			d.GroupBoards = append(d.GroupBoards, variantBoards{string(v), boards.GroupBoardLinks(v)})
		}
	}
	for _, g := range []float64{0.1, 0.5, 1} {
		d.Examples = append(d.Examples, logitExample{Logit: show.Fixed(g, 2), Odds: show.Fixed(math.Exp(g), 2), From: "50%",
			To: show.Fixed(50+vocab.PointsAtHalf(g), 1) + "%", PP: vocab.SignedPP(vocab.PointsAtHalf(g), 1)})
	}
	return &layout.Page{Path: paths.GlossaryPath, Title: "Glossary", Section: layout.SecGlossary, Body: d}
}
