package boards

import (
	"fmt"
	"html/template"
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/chart"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// Which groups each model favours: a page per variant beside its boards
// (board/<variant>-groups.html), per group (each of the seven
// coefficients) every ranked model's signed coefficient with its 95%
// interval, in the paper's figure style — one small plot per group, all on
// one scale — and the same numbers as a table, one figure per composite
// board table. The plots are chart.DotPlot's narrow layout, 300 px wide:
// one fits a 320 px phone at full size with no script and no sideways
// scroll, and a wide screen sets them side by side. Its own page: at twenty runs the seven plots are some 70 KB,
// more than a board of hundreds of runs can add and stay under the file
// budget.

// groupChartMax is the most runs the group plots show: seven plots of
// hundreds of rows would be a page of their own.
const GroupChartMax = 20

// groupsData is a variant's page of group plots.
type GroupsData struct {
	Variant run.Variant
	Board   string // the variant's composite board
	Figures []*groupFigure
}

// hasGroupFigure says whether a variant has a board table with a ranked
// run whose coefficients can be shown: whether groupsPage has a figure.
func HasGroupFigure(rk *stage.Ranked, variant run.Variant) bool {
	_, ok := GroupAnchor(rk, variant, design.CoefAge)
	return ok
}

func firstN(entries []*board.Entry, n int) []*board.Entry {
	if len(entries) > n {
		return entries[:n]
	}
	return entries
}

// groupsPage is a variant's group plots, one figure per board table.
func GroupsPage(rk *stage.Ranked, variant run.Variant) (*layout.Page, error) {
	d := GroupsData{Variant: variant, Board: paths.BoardPath(variant, score.Composite)}
	for _, bd := range rk.Boards {
		if bd.Variant != variant || len(bd.Ranked[score.Composite]) == 0 {
			continue
		}
		g, err := groupFigureFor(bd, bd.Ranked[score.Composite], variant)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", paths.GroupsPath(variant), err)
		}
		if g != nil {
			d.Figures = append(d.Figures, g)
		}
	}
	title := fmt.Sprintf("Which groups each model favours: %s prompts", variant)
	return &layout.Page{Path: paths.GroupsPath(variant), Title: title, Section: layout.SecBoard, Body: d}, nil
}

// GroupAnchor is the link to a group's plot on a variant's groups page:
// its first figure's, the board table's that HasGroupFigure finds first;
// false when the variant has no groups page.
func GroupAnchor(rk *stage.Ranked, variant run.Variant, c design.Coef) (string, bool) {
	for _, bd := range rk.Boards {
		if bd.Variant != variant {
			continue
		}
		for _, e := range firstN(bd.Ranked[score.Composite], GroupChartMax) {
			if e.Result.CoefsValid {
				return paths.GroupsPath(variant) + "#" + groupChartID(bd.Method, c), true
			}
		}
	}
	return "", false
}

// groupChartID is the anchor of a group's plot in a board table's figure
// ("logprob-black").
func groupChartID(m run.Scoring, c design.Coef) string { return string(m) + "-" + c.Name() }

// groupFigure is one board table's plots and their numbers.
type groupFigure struct {
	Method  run.Scoring
	Runs    string // "Decision runs" or "Log-probability runs"
	Charted string
	Charts  []groupChart
	Heads   []string // the coefficients, as the table's columns
	Rows    []groupRow
}

// groupChart is one group's plot, under its heading, and its tally over
// the board's ranked runs (board.GroupTally): the group is favoured over
// the reference in Favoured of Runs, beyond doubt after Holm's correction
// across the runs in Beyond; the reference in Disfavoured, beyond doubt in
// BeyondDisfavoured. ID is its anchor (GroupAnchor), Board the table of
// its group board that ranks the same runs (GroupBoardPages).
type groupChart struct {
	ID, Label, Board               string
	SVG                            template.HTML
	Group, Against, AgainstCap     string
	Runs, Favoured, Beyond         int
	Disfavoured, BeyondDisfavoured int
}

type groupRow struct {
	Model, Href string
	Cells       []groupCell
}

type groupCell struct {
	Value, CI, Class string
}

// groupFigureFor draws a board's ranked runs (in composite rank order).
func groupFigureFor(bd *board.Board, entries []*board.Entry, variant run.Variant) (*groupFigure, error) {
	f := &groupFigure{Method: bd.Method, Runs: "Log-probability runs", Charted: "every ranked run, in composite rank order"}
	if bd.Method == run.Decision {
		f.Runs = "Decision runs"
	}
	if len(entries) > GroupChartMax {
		entries = firstN(entries, GroupChartMax)
		f.Charted = "the " + show.Itoa(GroupChartMax) + " ranked highest on the composite (of " + show.Itoa(len(bd.Ranked[score.Composite])) + ")"
	}
	var shown []*board.Entry
	for _, e := range entries {
		if e.Result.CoefsValid {
			shown = append(shown, e)
		}
	}
	if len(shown) == 0 {
		return nil, nil
	}
	// One scale for the seven plots: every interval end of every run.
	lo, hi := 0.0, 0.0
	for _, e := range shown {
		for _, c := range design.Coefs {
			est := show.ShownEstimate(e.Result, c)
			for _, v := range []float64{est.Estimate, est.CI95[0], est.CI95[1]} {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	for _, c := range design.Coefs {
		f.Heads = append(f.Heads, show.CoefLabel(c))
		dp := chart.DotPlot{ID: "groups-" + string(bd.Method) + "-" + c.Name(), Include: []float64{lo, hi}, Values: true, Narrow: true,
			Title: show.CoefLabel(c) + " (" + string(variant) + " prompts, " + vocab.ScoringRuns(bd.Method == run.Decision) + "): each model’s signed coefficient with its 95% interval"}
		if c == design.CoefAge {
			// The age coefficient compares older people with younger, not
			// a group with the baseline person.
			dp.Pos, dp.Neg = "older", "younger"
		}
		for _, e := range shown {
			est := show.ShownEstimate(e.Result, c)
			dp.Rows = append(dp.Rows, chart.DotRow{Label: e.Run.Manifest.Model.Name, Estimate: chart.Interval{Value: est.Estimate, Lo: est.CI95[0], Hi: est.CI95[1]}, Second: math.NaN()})
		}
		svg, err := dp.SVG()
		if err != nil {
			return nil, fmt.Errorf("group chart %s: %w", c.Name(), err)
		}
		g := bd.Groups[c]
		board := ""
		if bd.HasRanks() {
			board = paths.GroupBoardPath(variant, c) + "#" + string(bd.Method)
		}
		f.Charts = append(f.Charts, groupChart{Board: board, ID: groupChartID(bd.Method, c), Label: show.CoefLabel(c), SVG: svg, Group: vocab.Capital(c.Group()), Against: c.Reference(), AgainstCap: vocab.Capital(c.Reference()),
			Runs: g.Runs, Favoured: g.Favoured, Beyond: g.BeyondFavoured, Disfavoured: g.Disfavoured, BeyondDisfavoured: g.BeyondDisfavoured})
	}
	for _, e := range shown {
		r := groupRow{Model: e.Run.Manifest.Model.Name, Href: paths.RunPath(e.ID())}
		for _, c := range design.Coefs {
			est := show.ShownEstimate(e.Result, c)
			r.Cells = append(r.Cells, groupCell{show.Signed(est.Estimate, 2), show.Interval(est.CI95, 2, true), show.SignClass(est.Estimate)})
		}
		f.Rows = append(f.Rows, r)
	}
	return f, nil
}
