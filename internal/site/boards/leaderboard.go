package boards

// The leaderboard: one page per prompt variant and view, each with a table
// per scoring method (log-probability and decision runs are never ranked
// together), the runs not ranked and why, and on the composite pages the
// robustness panel.

import (
	"fmt"
	"html/template"
	"math"
	"strings"

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

type tab struct {
	Label, Path string
	Current     bool
}

type BoardData struct {
	// Summary is the page's answer first (package vocab's BoardSummary),
	// of the board's tables in view View.
	Summary  vocab.Summary
	Variant  run.Variant
	View     score.View
	Formula  string
	Views    []tab
	Variants []tab
	Tables   []boardTable
	Unranked []unranked
	Pairwise string // the view's pairwise page
	// ScoreCols is the number of columns between the board's view and the
	// flags: the other views.
	ScoreCols int
	// VariantDiffs are the view's explicit–implicit differences of every
	// model with both (variants.go).
	VariantDiffs []VariantDiffRow
	VariantPairs int // the pairs in all: more than the rows when capped
	// Groups is the variant's page of signed per-group plots across the
	// board's models (groups.go), "" when it has none: a page of its own,
	// seven plots of up to twenty runs being larger than the board.
	Groups string
	// Pager links the board's pages when it has more than PageRows runs
	// (pager.go); First is its first page, which alone holds the charts,
	// the explicit–implicit table and the runs not ranked.
	Pager *layout.Pager
	First string
	// Index is the variant's board index (boardindex.go), which a board
	// of more than one page loads; "" for a board of one page.
	Index string
	// Since is the previous release's label, against which the rows of
	// a table with Moves show their rank change (rankmove.go);
	// MovesNote says why none is shown when that release is on another
	// scale.
	Since, MovesNote string
}

type boardTable struct {
	Method   run.Scoring
	Caption  string
	HasRanks bool
	Rows     []boardRow
	// Head is the table's first row, whose columns its header names: a
	// page with none of the table's rows (Elsewhere) keeps the header,
	// hidden, for board.js to list the table's runs of other pages under.
	Head *boardRow
	// Chart is the table as an interval plot; NarrowChart its phone layout
	// (CSS shows one of them). Charted says which runs it shows: all of
	// them, or the chartMax ranked highest.
	Chart, NarrowChart template.HTML
	Charted            string
	// Time is the composite's ranked runs against their models' release
	// dates (composite view, first page), NarrowTime its phone layout;
	// Timed counts the runs charted, Undated says which are not.
	Time, NarrowTime template.HTML
	Timed            int
	Undated          string
	// Robust is the robustness panel (composite view only).
	Robust *robustPanel
	// Slice says which places of the table this page shows, when the
	// board has more than one page; Elsewhere, that the table has no row
	// on this page (all of its Runs are on earlier pages).
	Slice     string
	Elsewhere bool
	Runs      string
	// Moves says the table has the column of rank changes since the
	// previous release (rankmove.go).
	Moves bool
}

type boardRow struct {
	Rank         int
	Tied         bool
	Set          string // the rank's 95% confidence set (marginal)
	ID, Href     string
	Scenarios    string // the run's scenario index in the transcript browser
	Model        string
	ModelID      string
	Intervention string
	// Main is the score in the board's view, shown next to the model;
	// Others are the other views, in score.Views order, without the line
	// that restores the sign (their own boards show it): a row's bytes
	// count on a board of hundreds.
	Main   scoreCell
	Others []scoreCell
	Flags  []QualityFlag
	// Filter holds what the board's filters read (board.js): the provider,
	// "open" or "closed" weights, and whether the run is synthetic or has
	// another data-quality flag.
	Provider, Weights  string
	Synthetic, Flagged bool
	// Params is the model's parameter count in digits, "undisclosed" or
	// "", for the size filter (board.js); Facts are the model's facts as
	// the row shows them (show.FactsOf).
	Params string
	Facts  show.ModelFacts
	// Move is the run's rank change since the previous release
	// (rankmove.go); nil when its table shows none.
	Move     *vocab.Move
	Children []childRow // the model's intervention runs
	// Other is the same model's run of the other prompt variant, if any.
	Other *stage.VariantLink
}

// childRow is an intervention run under its model's row: its score in the
// board's view and the paired difference from the model's default prompt.
type childRow struct {
	ID, Href, Intervention string
	Value, CI              string
	Diff, DiffCI, Verdict  string
	Class                  string
	Mitigation             string // its section of the mitigation page
}

type scoreCell struct {
	View    score.View
	Key     string // the column's key in the board's URL state: the view's name
	Value   string
	CI      string
	Odds    string // the odds factor, the plain scale of the other views' scores
	Sort    string
	Detail  string
	Current bool
}

type unranked struct {
	ID, Href, Model, Reason string
}

// robustPanel ranks a board's runs under every documented definition of
// the composite.
type robustPanel struct {
	Definitions []robustDef
	Rows        []robustRow
}

type robustDef struct {
	Title, Describe string
}

type robustRow struct {
	Model, Href string
	Ranks       []int
	Range       string
	Stable      bool
}

// chartMax is the most runs a board's chart shows: a picture of hundreds
// of intervals is a long list, and costs a kilobyte a run.
const ChartMax = 40

func boardPage(rk *stage.Ranked, variant run.Variant, v score.View) (*layout.Page, error) {
	d := BoardData{Variant: variant, View: v, Formula: v.Describe(), Pairwise: paths.PairwisePath(variant, v), ScoreCols: len(score.Views) - 1}
	for _, vv := range score.Views {
		d.Views = append(d.Views, tab{vv.Title(), paths.BoardPath(variant, vv), vv == v})
	}
	for _, vr := range board.Variants {
		d.Variants = append(d.Variants, tab{string(vr), paths.BoardPath(vr, v), vr == variant})
	}
	var facts []vocab.BoardFacts
	for _, bd := range rk.Boards {
		if bd.Variant == variant {
			facts = append(facts, BoardFacts(bd, v))
		}
	}
	d.Summary = vocab.BoardSummary(string(variant), facts)
	if rk.Previous != nil {
		d.Since, d.MovesNote = rk.Previous.Release, MovesNote(rk.Previous)
	}
	for _, bd := range rk.Boards {
		if bd.Variant != variant {
			continue
		}
		t := boardTable{Method: bd.Method, HasRanks: bd.HasRanks(), Moves: bd.HasRanks() && rk.Previous != nil && rk.Previous.Comparable}
		if bd.Method == run.Decision {
			t.Caption = "Decision runs (sampled answers, no log-probabilities): ranked only against each other"
		} else {
			t.Caption = "Log-probability runs"
		}
		for _, e := range bd.Ranked[v] {
			r := BoardRowFor(e, v, bd.HasRanks(), rk.Adjusted)
			if o, ok := rk.Variants[e.ID()]; ok {
				r.Other = &o
			}
			r.Move = moveOf(rk.Previous, e, v)
			t.Rows = append(t.Rows, r)
		}
		if len(t.Rows) > 0 {
			t.Head = &t.Rows[0]
			charted := bd.Ranked[v]
			t.Charted = "every run"
			if len(charted) > ChartMax {
				charted = charted[:ChartMax]
				t.Charted = "the " + show.Itoa(ChartMax) + " runs ranked highest (of " + show.Itoa(len(bd.Ranked[v])) + ")"
			}
			for _, narrow := range []bool{false, true} {
				c, err := boardChart(charted, len(bd.Ranked[v]), v, bd.Method, variant, narrow)
				if err != nil {
					return nil, fmt.Errorf("%s: chart: %w", paths.BoardPath(variant, v), err)
				}
				if narrow {
					t.NarrowChart = c
				} else {
					t.Chart = c
				}
			}
			if v == score.Composite && bd.HasRanks() {
				t.Robust = robustness(bd)
				for _, narrow := range []bool{false, true} {
					c, n, undated, err := timeChart(bd.Ranked[v], bd.Method, variant, narrow)
					if err != nil {
						return nil, fmt.Errorf("%s: chart over time: %w", paths.BoardPath(variant, v), err)
					}
					if narrow {
						t.NarrowTime = c
					} else {
						t.Time, t.Timed, t.Undated = c, n, undated
					}
				}
			}
			d.Tables = append(d.Tables, t)
		}
		for _, e := range bd.Unranked {
			d.Unranked = append(d.Unranked, unranked{e.ID(), paths.RunPath(e.ID()), e.Run.Manifest.Model.Name, e.Why})
		}
	}
	d.VariantDiffs, d.VariantPairs = BoardVariantDiffs(rk, v)
	if HasGroupFigure(rk, variant) {
		d.Groups = paths.GroupsPath(variant)
	}
	d.First = paths.BoardPath(variant, v)
	title := fmt.Sprintf("Leaderboard: %s prompts, %s view", variant, strings.ToLower(v.Title()))
	return &layout.Page{Path: paths.BoardPath(variant, v), Title: title, Section: layout.SecBoard, Body: d}, nil
}

func robustness(bd *board.Board) *robustPanel {
	p := &robustPanel{}
	for _, d := range score.Definitions {
		p.Definitions = append(p.Definitions, robustDef{d.Title(), d.Describe()})
	}
	for _, e := range bd.Ranked[score.Composite] {
		r := robustRow{Model: e.Run.Manifest.Model.Name, Href: paths.RunPath(e.ID())}
		for _, d := range score.Definitions {
			r.Ranks = append(r.Ranks, e.DefRank[d])
		}
		lo, hi := e.RankRange()
		r.Range, r.Stable = show.Itoa(lo), lo == hi
		if !r.Stable {
			r.Range = show.Itoa(lo) + "–" + show.Itoa(hi)
		}
		p.Rows = append(p.Rows, r)
	}
	return p
}

func BoardRowFor(e *board.Entry, v score.View, ranks bool, adjusted map[stage.PairKey][score.NumViews]float64) boardRow {
	m := e.Run.Manifest
	r := boardRow{
		Rank: e.Rank[v], Tied: e.Tied[v], Set: RankSetText(e.RankSet[v]),
		ID: e.ID(), Href: paths.RunPath(e.ID()), Scenarios: paths.ScenariosPath(e.ID()),
		Model: m.Model.Name, ModelID: m.Model.ID, Intervention: m.Intervention,
		Flags: Flags(e), Provider: m.Model.Provider, Weights: "closed", Synthetic: m.Synthetic,
		Params: string(m.Model.Parameters), Facts: show.FactsOf(m.Model),
	}
	if m.Model.OpenWeights {
		r.Weights = "open"
	}
	r.Flagged = len(r.Flags) > show.Btoi(m.Synthetic)
	for _, vv := range score.Views {
		est := e.Result.Views[vv].Estimate
		c := scoreCell{
			View: vv, Key: vv.Name(), Value: board.Display(est), CI: show.Interval(e.Result.Views[vv].CI95, 2, false), Sort: show.SortKey(est),
			Odds: show.OddsFactor(est), Detail: viewDetail(e.Result, vv), Current: vv == v,
		}
		if c.Current {
			r.Main = c
		} else {
			c.Detail = ""
			r.Others = append(r.Others, c)
		}
	}
	for _, iv := range e.Interventions {
		ie, d := iv.Entry, iv.C.Views[v]
		c := childRow{ID: ie.ID(), Href: paths.RunPath(ie.ID()), Intervention: ie.Run.Manifest.Intervention,
			Value: board.Display(ie.Result.Views[v].Estimate), CI: show.Interval(ie.Result.Views[v].CI95, 2, false),
			Diff: show.Signed(d.Estimate, 2), DiffCI: show.Interval(d.CI95, 2, true), Mitigation: paths.MitigationAnchor(e.ID(), ie.ID())}
		c.Verdict, c.Class = Verdict(d, adjusted[stage.PairKey{A: e.ID(), B: ie.ID()}][v])
		r.Children = append(r.Children, c)
	}
	return r
}

// viewDetail puts the sign back next to a magnitude, in words that say
// what each number is: for an attribute view, that the score is a mean
// over pairs of groups and the largest single gap with its direction; for
// the composite, the attribute that contributes most, and which way its
// largest gap leans. Both with the score's plain scale (words.go).
func viewDetail(res *score.Result, v score.View) string {
	scale := show.PlainScale(res.Views[v].Estimate)
	a, ok := v.Attribute()
	if !ok {
		top := mostly(res)
		s := scale + "; mostly " + top.Name() + " (" + board.Display(res.Views[score.ViewOf(top)].Estimate) + ")"
		if g, ok := largestGap(res, top); ok {
			s += "; its largest gap: " + gapLean(g)
		}
		return s
	}
	g, ok := largestGap(res, a)
	if !ok {
		return scale
	}
	if a == design.AttrAge {
		return scale + "; " + show.Signed(g.Gap, 2) + " between two people " + show.AgeGapYears + " years apart (the design's ages on average): " + gapLean(g)
	}
	return scale + "; the score is the mean over " + show.Itoa(len(res.Gaps(a))) + " pairs of groups; the largest single gap, " + g.Group + " − " + g.Against + ", is " + show.Signed(g.Gap, 2) + ": " + gapLean(g)
}

// largestGap is the gap of an attribute with the largest magnitude.
func largestGap(res *score.Result, a design.Attribute) (score.GapValue, bool) {
	gaps := res.Gaps(a)
	if len(gaps) == 0 {
		return score.GapValue{}, false
	}
	top := gaps[0]
	for _, g := range gaps[1:] {
		if math.Abs(g.Gap) > math.Abs(top.Gap) {
			top = g
		}
	}
	return top, true
}

// gapLean is a gap's direction in the site's words.
func gapLean(g score.GapValue) string {
	return show.LeanWords(g.Gap, g.SE, g.Group, g.Against)
}

// qualityFlag is a data-quality warning; Href (from the site root), when set,
// is where the evidence is.
type QualityFlag struct{ Text, Href string }

// flags lists data-quality warnings for a run: every validity rule it
// fails, with its number against the rule, the share of prompts missing
// against its rule, and every claimed number the data contradict, each
// linking to its evidence.
func Flags(e *board.Entry) []QualityFlag {
	var f []QualityFlag
	res, m := e.Result, e.Run.Manifest
	quality := paths.RunPath(e.ID()) + "#quality"
	if m.Synthetic {
		f = append(f, QualityFlag{Text: "synthetic"})
	}
	if share := board.MissingShare(res.Quality); share > 0 {
		f = append(f, QualityFlag{fmt.Sprintf("%.1f%% of prompts missing (rule: at most %.0f%%)", 100*share, 100*board.MaxMissing), quality})
	} else if !res.Complete {
		f = append(f, QualityFlag{fmt.Sprintf("incomplete: %d cells missing", res.Quality.MissingCells), quality})
	}
	if m.Incomplete != "" {
		f = append(f, QualityFlag{"partial run: " + m.Incomplete, quality})
	}
	if res.Method == run.Logprob && res.Quality.MeanMass < board.MinMass {
		f = append(f, QualityFlag{"answer mass " + show.Fixed(res.Quality.MeanMass, 4) + " < " + show.Fixed(board.MinMass, 2) + " (rule)", quality})
	}
	for _, c := range score.Claims(m, res) {
		if c.Verdict == score.Disagrees {
			f = append(f, QualityFlag{"claimed " + c.Metric + " disagrees with the data", paths.RunProvenancePath(e.ID()) + "#claims"})
		}
	}
	if res.Fit.Method != score.FitNone && !res.Fit.Converged {
		f = append(f, QualityFlag{"fit did not converge", paths.RunPath(e.ID()) + "#coefficients"})
	}
	if res.Fit.Singular {
		f = append(f, QualityFlag{"singular fit", paths.RunPath(e.ID()) + "#coefficients"})
	}
	if n := len(res.Dropped); n > 0 {
		f = append(f, QualityFlag{fmt.Sprintf("%d questions answered one way only, left out", n), paths.RunPath(e.ID()) + "#scoring"})
	}
	return f
}
