package boards

// Any two runs side by side: pair.html#a=<id>&b=<id>. The page is a frame
// that pair.js fills from two kinds of script (a page opened from file://
// cannot fetch a data file, but it can load a script by a relative path):
// data/pair-runs.js, PAIR_RUNS, what the pickers list (every run, by
// board) and the paths the page needs, and data/pairs/<id>.js,
// one a run, loaded when the run is picked, which adds PAIR_DATA[<id>]:
// what its pages show of it (each view's score, interval, rank and rank
// set, each coefficient, its questions) and its half of its board's paired
// comparisons. The words it writes are the template's (templates/pair.html,
// one <template> a sentence), the verdicts among them the pairwise pages'.
//
// The paired estimate of two ranked runs is the build's: board.Pair, the
// number the pairwise pages show, with the board's simultaneous interval
// and its verdict (pairwiseVerdict), published as the pairwise page shows
// it, in hundredths (an estimate, its interval's two ends, a verdict
// code), never computed again in the page. A bootstrap over the runs'
// 2,000 replicates a view would have to publish the replicates (8,000
// numbers a run) and a second formula; the published results of a board
// of n ranked runs are n(n − 1)/2 comparisons × 4 views of four small
// integers, each comparison in one of its two runs' files (pairHolder),
// so that a run's file holds about half of its board's: some 17 KB at
// 476 ranked runs, the explicit board of a 1,000-run site.

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// PairData is pair.html: the scripts it loads, the pairwise pages'
// verdicts by code (pairwiseVerdict), which the script writes, and for a
// reader without JavaScript the pairwise pages, where every two ranked
// runs of a board are compared.
type PairData struct {
	Runs, Script string
	Verdicts     []PairVerdict
	Pairwise     []layout.QuestionLink
}

// PairVerdict is a verdict of the pairwise pages as pair.html writes it:
// its code in data/pairs/<id>.js, mark, class and words.
type PairVerdict struct {
	Code               int
	Mark, Class, Words string
}

// PairPage is pair.html.
func PairPage() *layout.Page {
	d := PairData{Runs: paths.PairRunsPath, Script: paths.PairJSPath}
	for _, p := range []board.Pair{{}, {Diff: score.Diff{Estimate: -1}, Beyond: true}, {Diff: score.Diff{Estimate: 1}, Beyond: true}} {
		code, mark, class, words := pairwiseVerdict(p)
		d.Verdicts = append(d.Verdicts, PairVerdict{code, mark, class, words})
	}
	for _, variant := range board.Variants {
		d.Pairwise = append(d.Pairwise, layout.QuestionLink{Label: string(variant) + " prompts", Href: paths.PairwisePath(variant, score.Composite)})
	}
	return &layout.Page{Path: paths.PairPath, Title: "Two runs side by side", Section: layout.SecBoard, Body: d}
}

// pairRuns is data/pair-runs.js.
type pairRuns struct {
	// Paths from the site root, "{id}", "{q}" and "{variant}" standing
	// for a run's id, a question's number and a prompt variant.
	Files, Run, Scenario, Compare string
	Views                         []string // view titles, in score.Views order
	Coefs                         []string // coefficient labels, in design.Coefs order
	Boards                        []pairBoard
	// Questions holds each variant's scenario labels by question.
	Questions map[run.Variant]map[int]string
}

// pairBoard is a board as the pickers list it: its runs, the ranked ones
// first in composite rank order (their place is their index in the
// board's comparisons), then the others by id, each [id, model name]; the
// paths of its pairwise pages by view; and how many comparisons its
// simultaneous intervals cover.
type pairBoard struct {
	Variant  run.Variant
	Method   run.Scoring
	Title    string
	Pairwise []string
	Pairs    string
	Ranked   [][2]string
	Others   [][2]string
}

// pairRun is data/pairs/<id>.js.
type pairRun struct {
	ID, Model, ModelID, Provider string
	Variant                      run.Variant
	Method                       run.Scoring
	Intervention                 string
	Synthetic                    bool
	// Board is the run's board in pairRuns.Boards; Place its index in the
	// board's ranked runs, −1 when it is not ranked, and then Why says why.
	Board, Place int
	Why          string
	// Views holds, per view: the score as shown in hundredths, the score
	// and interval as shown, the rank, whether it is tied, the rank set,
	// and the page of the board holding its row.
	Views [][7]any
	// Coefs holds, per coefficient: the signed value as shown (two
	// decimals) in hundredths, or nil when it is not estimable; the value
	// and its interval as shown.
	Coefs [][3]any
	// Questions are the decision questions it answered.
	Questions []int
	// Pairs holds, per view, the comparisons this file holds of the run
	// with the other ranked runs of its board (pairHolder), in the order
	// of the other run's place: four integers each, the estimate (this
	// run minus the other) and its interval's ends in hundredths as the
	// pairwise page shows them, and the verdict's code.
	Pairs [][]int `json:",omitempty"`
}

// pairHolder says which of two places of a board's ranked runs holds
// their comparison: the lower place when the two sum to an odd number,
// else the higher, so that each run's file holds about half of its
// board's comparisons (pair.js finds them by the same rule).
func pairHolder(i, j int) int {
	if (i+j)%2 == 1 {
		return min(i, j)
	}
	return max(i, j)
}

// hundredths is a value as Fixed(v, 2) shows it, in hundredths.
func hundredths(v float64) int {
	n, _ := strconv.Atoi(strings.Replace(numfmt.Fixed(v, 2), ".", "", 1))
	return n
}

// PairFile is a file of the pair page's data: its path and bytes.
type PairFile struct {
	Path string
	Data []byte
}

// PairRunsFile is data/pair-runs.js.
func PairRunsFile(texts *layout.DatasetTexts, rs *stage.Runs, rk *stage.Ranked) (PairFile, error) {
	// A question's number in a path, which the patterns' "{q}" stands for.
	const q = 987654321
	qs := strconv.Itoa(q)
	d := pairRuns{Files: paths.PairDataPath("{id}"), Run: paths.RunPath("{id}"),
		Scenario: strings.Replace(paths.ScenarioPath("{id}", q), qs, "{q}", 1), Compare: strings.Replace(paths.ComparePath("{variant}", q), qs, "{q}", 1),
		Questions: map[run.Variant]map[int]string{}}
	for _, v := range score.Views {
		d.Views = append(d.Views, v.Title())
	}
	for _, c := range design.Coefs {
		d.Coefs = append(d.Coefs, show.CoefLabel(c))
	}
	for _, bd := range rk.Boards {
		b := pairBoard{Variant: bd.Variant, Method: bd.Method, Title: string(bd.Variant) + " prompts · " + strings.ToLower(methodTitle(bd.Method))}
		n := len(bd.Ranked[score.Composite])
		if bd.HasRanks() {
			b.Pairs = vocab.Plural(n*(n-1)/2, "comparison")
			for _, v := range score.Views {
				b.Pairwise = append(b.Pairwise, paths.PairwisePath(bd.Variant, v))
			}
		}
		for _, e := range bd.Ranked[score.Composite] {
			b.Ranked = append(b.Ranked, [2]string{e.ID(), e.Run.Manifest.Model.Name})
		}
		for _, e := range boardOthers(rs, bd) {
			b.Others = append(b.Others, [2]string{e.ID(), e.Run.Manifest.Model.Name + " · " + e.Run.Manifest.Intervention})
		}
		d.Boards = append(d.Boards, b)
		if d.Questions[bd.Variant] == nil {
			d.Questions[bd.Variant] = map[int]string{}
			for _, q := range texts.Questions(bd.Variant) {
				d.Questions[bd.Variant][q] = texts.Label(bd.Variant, q)
			}
		}
	}
	data, err := json.Marshal(d)
	if err != nil {
		return PairFile{}, err
	}
	// json.Marshal escapes <, > and &, and U+2028 and U+2029: no text can
	// end the script or a string.
	out := append([]byte("window.PAIR_RUNS="), data...)
	return PairFile{Path: paths.PairRunsPath, Data: append(out, ";\n"...)}, nil
}

// boardOthers is a board's runs that it does not rank, by id: its
// unranked runs and the intervention runs under its ranked ones.
func boardOthers(rs *stage.Runs, bd *board.Board) []*board.Entry {
	var out []*board.Entry
	for _, e := range rs.Entries {
		if m := e.Run.Manifest; m.Variant == bd.Variant && m.Scoring == bd.Method && !e.Ranked {
			out = append(out, e)
		}
	}
	return out
}

// PairRunFiles is every run's data/pairs/<id>.js, one job each: jobs
// gives them to run.
func PairRunFiles(rs *stage.Runs, rk *stage.Ranked, jobs func(func() (PairFile, error))) {
	for bi, bd := range rk.Boards {
		place := map[*board.Entry]int{}
		for i, e := range bd.Ranked[score.Composite] {
			place[e] = i
		}
		for _, e := range append(append([]*board.Entry(nil), bd.Ranked[score.Composite]...), boardOthers(rs, bd)...) {
			p, ranked := place[e]
			if !ranked {
				p = -1
			}
			jobs(func() (PairFile, error) { return pairRunFile(rs, rk, bd, bi, e, p) })
		}
	}
}

func pairRunFile(rs *stage.Runs, rk *stage.Ranked, bd *board.Board, bi int, e *board.Entry, place int) (PairFile, error) {
	m, res := e.Run.Manifest, e.Result
	r := pairRun{ID: e.ID(), Model: m.Model.Name, ModelID: m.Model.ID, Provider: m.Model.Provider, Variant: m.Variant, Method: m.Scoring,
		Intervention: m.Intervention, Synthetic: m.Synthetic, Board: bi, Place: place, Why: e.Why}
	if place < 0 && r.Why == "" {
		// An intervention run under its model's row.
		r.Why = board.Invalid(e)
	}
	if kept := rs.Kept[e.ID()]; kept != nil {
		r.Questions = slices.Sorted(maps.Keys(kept.Deltas))
	}
	for _, v := range score.Views {
		est := res.Views[v].Estimate
		var h any
		if res.Scored && !math.IsNaN(est) {
			h = hundredths(est)
		}
		r.Views = append(r.Views, [7]any{h, board.Display(est), show.Interval(res.Views[v].CI95, 2, false), e.Rank[v], e.Tied[v], RankSetText(e.RankSet[v]), BoardRowPath(rk, e, v)})
	}
	for _, c := range design.Coefs {
		est := show.ShownEstimate(res, c)
		var h any
		if res.Scored && !math.IsNaN(est.Estimate) {
			h = hundredths(est.Estimate)
		}
		r.Coefs = append(r.Coefs, [3]any{h, show.Signed(est.Estimate, 2), show.Interval(est.CI95, 2, true)})
	}
	if place >= 0 && bd.HasRanks() {
		n := len(bd.Ranked[score.Composite])
		for _, v := range score.Views {
			var row []int
			for k := 0; k < n; k++ {
				if k == place || pairHolder(place, k) != place {
					continue
				}
				p := bd.Pair(v, place, k)
				code, _, _, _ := pairwiseVerdict(p)
				row = append(row, hundredths(p.Estimate), hundredths(p.CI95[0]), hundredths(p.CI95[1]), code)
			}
			r.Pairs = append(r.Pairs, row)
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		return PairFile{}, err
	}
	// One assignment of one JSON value, as every data script of the site:
	// pair.js takes it when the script has run.
	out := append([]byte("window.PAIR_RUN="), data...)
	return PairFile{Path: paths.PairDataPath(e.ID()), Data: append(out, ";\n"...)}, nil
}
