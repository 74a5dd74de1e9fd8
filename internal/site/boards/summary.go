package boards

// The facts the summaries say (package vocab writes the words): a run's
// standing, its composite, its largest gap between two groups, explicit
// against implicit, its interventions and its ranking rules; a board's
// least and most biased runs and which of their differences are beyond
// doubt.

import (
	"math"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// BoardOf is the board a run is on.
func BoardOf(rk *stage.Ranked, e *board.Entry) *board.Board {
	for _, bd := range rk.Boards {
		if bd.Variant == e.Run.Manifest.Variant && bd.Method == e.Run.Manifest.Scoring {
			return bd
		}
	}
	return nil
}

// boardName names a board's runs in a sentence (vocab.BoardRuns).
func boardName(variant run.Variant, method run.Scoring) string {
	return vocab.BoardRuns(string(variant), method == run.Decision)
}

// RunFacts are what a run's summary says of it.
func RunFacts(rk *stage.Ranked, e *board.Entry) vocab.RunFacts {
	m, res := e.Run.Manifest, e.Result
	f := vocab.RunFacts{Model: m.Model.Name, Composite: vocab.Value{Estimate: math.NaN()}, Rules: Rules(e)}
	if res.Scored {
		c := res.Views[score.Composite]
		f.Composite = vocab.Value{Estimate: c.Estimate, CI: c.CI95}
	}
	st := &f.Standing
	st.Board, st.Why = boardName(m.Variant, m.Scoring), e.Why
	if layout.IsRanked(e) {
		st.Ranked, st.Rank, st.Tied = true, e.Rank[score.Composite], e.Tied[score.Composite]
		st.Set = [2]int{e.RankSet[score.Composite].Lo, e.RankSet[score.Composite].Hi}
		if bd := BoardOf(rk, e); bd != nil {
			st.Of = len(bd.Ranked[score.Composite])
		}
	} else if e.Ranked {
		st.Why = "it is the only run of its board, so there is nothing to rank it against"
	}
	f.Largest = LargestEffect(res)
	if vd := DiffOf(rk, e.ID()); vd != nil && vd.C != nil {
		d := vd.C.Views[score.Composite]
		f.Implicit = &vocab.Change{Estimate: d.Estimate, CI: d.CI95, Beyond: d.CI95[0] > 0 || d.CI95[1] < 0}
	}
	for _, p := range rk.Pairs {
		d, adj := p.C.Views[score.Composite], p.Adj[score.Composite]
		iv := vocab.Intervention{Name: p.B.Run.Manifest.Intervention, Change: vocab.Change{Estimate: d.Estimate, CI: d.CI95, Beyond: Beyond(d, adj)}}
		switch e.ID() {
		case p.A.ID():
			f.Interventions = append(f.Interventions, iv)
		case p.B.ID():
			f.Against = &iv
		}
	}
	return f
}

// LargestEffect is a run's largest gap between two groups over every
// attribute (the gaps its views average), or nil without coefficients.
func LargestEffect(res *score.Result) *vocab.Effect {
	var top *vocab.Effect
	n := 0
	for _, a := range design.Attributes {
		for _, g := range res.Gaps(a) {
			n++
			if math.IsNaN(g.Gap) || top != nil && math.Abs(g.Gap) <= math.Abs(top.Gap) {
				continue
			}
			top = &vocab.Effect{Group: g.Group, Against: g.Against, Gap: g.Gap, SE: g.SE}
			if a == design.AttrAge {
				top.Apart = show.AgeGapYears + " years apart"
			}
		}
	}
	if top != nil {
		top.Of = n
	}
	return top
}

// Rules are the ranking rules a run is held to, with its values
// (board.Failures says the same of the rules it fails).
func Rules(e *board.Entry) []vocab.Rule {
	res := e.Result
	q := res.Quality
	var out []vocab.Rule
	if res.Method == run.Logprob {
		out = append(out, vocab.Rule{Kind: vocab.MeanMass, Value: show.Fixed(q.MeanMass, 3), Bound: show.Fixed(board.MinMass, 2), Pass: q.MeanMass >= board.MinMass})
	}
	if res.Method == run.Decision && q.Decisions > 0 {
		parsed := 1 - float64(q.Unparsed)/float64(q.Decisions)
		out = append(out, vocab.Rule{Kind: vocab.Parsed, Value: show.Fixed(100*parsed, 1) + "%", Bound: show.Fixed(100*board.MinParsed, 0) + "%", Pass: parsed >= board.MinParsed})
	}
	missing := board.MissingShare(q)
	out = append(out, vocab.Rule{Kind: vocab.Missing, Value: show.Fixed(100*missing, 1) + "%", Bound: show.Fixed(100*board.MaxMissing, 0) + "%", Pass: missing <= board.MaxMissing})
	return out
}

// BoardFacts are what a board's summary says of one board in view v.
func BoardFacts(bd *board.Board, v score.View) vocab.BoardFacts {
	ranked := bd.Ranked[v]
	f := vocab.BoardFacts{Board: boardName(bd.Variant, bd.Method), View: "composite", N: len(ranked)}
	if a, ok := v.Attribute(); ok {
		f.View = a.Name() + " view"
	}
	// Not ranked: the board's unranked runs, and the intervention runs
	// listed under their model's ranked run.
	for _, e := range bd.Unranked {
		switch {
		case e.Parent != nil:
			// An intervention run set against its model's unranked run.
			f.Interventions++
		case len(f.Unranked) < vocab.MaxClose:
			f.Unranked = append(f.Unranked, e.Run.Manifest.Model.Name)
			fallthrough
		default:
			f.UnrankedN++
		}
	}
	for _, e := range ranked {
		f.Interventions += len(e.Interventions)
	}
	if len(ranked) == 0 {
		return f
	}
	run := func(e *board.Entry) vocab.BoardRun {
		r := vocab.BoardRun{Model: e.Run.Manifest.Model.Name, Value: e.Result.Views[v].Estimate}
		if v == score.Composite {
			r.Mostly = mostly(e.Result).Name()
		}
		return r
	}
	first := ranked[0]
	f.Lowest, f.Highest = run(first), run(ranked[len(ranked)-1])
	f.Set = [2]int{first.RankSet[v].Lo, first.RankSet[v].Hi}
	f.Ahead = first.Ahead[v]
	n := len(ranked)
	f.Pairs = n * (n - 1) / 2
	for _, e := range ranked {
		f.PairsBeyond += e.Ahead[v]
	}
	// The runs nearest the lowest whose difference from it is not beyond
	// doubt: a pair each, in rank order, until MaxClose of them are found
	// or every such run is (n − 1 − Ahead of them).
	idx := map[*board.Entry]int{}
	for i, e := range bd.Ranked[score.Composite] {
		idx[e] = i
	}
	want := min(vocab.MaxClose, n-1-f.Ahead)
	for _, e := range ranked[1:] {
		if len(f.Close) == want {
			break
		}
		if !bd.Pair(v, idx[first], idx[e]).Beyond {
			f.Close = append(f.Close, run(e))
		}
	}
	return f
}

// mostly is the attribute of a run's largest attribute view: what most
// of its composite is.
func mostly(res *score.Result) design.Attribute {
	top := design.AttrAge
	for _, x := range design.Attributes {
		if res.Views[score.ViewOf(x)].Estimate > res.Views[score.ViewOf(top)].Estimate {
			top = x
		}
	}
	return top
}
