// Package changes compares two builds of the leaderboard through their
// public data (internal/sitedata): the runs added, removed and changed, for
// each board the rank moves and score changes (marking those larger than
// their interval, and saying when a rank moved only because runs were added
// or removed), and the checks of every new or changed run.
//
// One Report is computed once and rendered three ways: the site's Changes
// page (a release against the previous one's data/leaderboard.json), and
// the terminal text and Markdown of `build -diff` (a build against another
// site or commit, as posted on a pull request).
//
// Every number is compared as the boards display it (two decimals,
// board.Display): a change is the difference of the displayed values, so
// "0.02 → 0.03, +0.01" always adds up on screen, and a score that moved
// less than a displayed digit is no change.
package changes

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/verify"
)

// Report is the comparison of an old build with a new one.
type Report struct {
	Old, New sitedata.Release
	// OldName and NewName name the builds in the outputs: "label (date)"
	// of their releases unless the caller says otherwise.
	OldName, NewName string
	// Redefined says the views were defined differently in the old build
	// (its views_version), so its scores and ranks are not comparable
	// with the new ones and no moves are listed.
	Redefined          bool
	OldViews, NewViews int
	// Files are the file-level differences of two whole sites
	// (internal/verify); nil when the old build is a leaderboard alone.
	Files *verify.Report

	Added, Removed, Changed []Run
	// Boards lists, per board, the runs whose rank or displayed score
	// differs; boards without any are left out.
	Boards []Board
	// Checks are the checks of every added or changed run whose data file
	// the new build has.
	Checks []Checks
}

// Run is a run added, removed or changed.
type Run struct {
	ID, Model, Variant, Intervention, Scoring, Board string
	Synthetic                                        bool
	// Standing says where the run is ranked, or why it is not.
	Standing string
	// Files are a changed run's input files that differ.
	Files []string
}

// Board holds one board's moves.
type Board struct {
	ID, Title string
	Moves     []Move
}

// Move is a run whose rank or displayed score in one view of a board
// differs between the builds. Strings are as displayed; "–" is nothing.
type Move struct {
	View, ID, Model  string
	OldRank, NewRank int    // 0: not ranked (or not there)
	Then, Now        string // ranks, "=" marking a tie
	Move             string // "up 2", "down 1", "added", "removed", "now ranked", "no longer ranked", or ""
	// Cause says why a rank moved when the builds ranked different runs:
	// "only runs added or removed (…)", "score changes", or both.
	Cause            string
	Old, New, Change string
	// Interval is the old 95% interval; Beyond says the new score lies
	// outside it (judged on displayed values, like everything here).
	Interval string
	Beyond   bool
}

// Status is a check's outcome.
type Status int

const (
	Pass Status = iota
	Fail
	Note // information a reviewer should see, neither pass nor fail
)

// Checks are one run's checks.
type Checks struct {
	ID, Model string
	Items     []Check
}

// Check is one check of a run, with lines of detail.
type Check struct {
	Name   string
	Status Status
	Detail string
	Lines  []string
	// Literal says the lines are file names and hashes, shown as code
	// (and, being long words, allowed to wrap anywhere).
	Literal bool
}

// none is how a missing value is shown.
const none = "–"

// Compare compares an old build with the current one.
func Compare(old, cur *Site) *Report {
	r := &Report{Old: old.Release, New: cur.Release, OldViews: old.ViewsVersion, NewViews: cur.ViewsVersion,
		OldName: releaseName(old.Release), NewName: releaseName(cur.Release)}
	r.Redefined = r.OldViews != r.NewViews
	was, now := index(old), index(cur)
	for _, s := range cur.Runs {
		switch _, ok := was[s.ID]; {
		case !ok:
			r.Added = append(r.Added, runOf(s, nil))
		case old.Details != nil && cur.Details != nil:
			if files := changedFiles(old.Details[s.ID], cur.Details[s.ID]); len(files) > 0 {
				r.Changed = append(r.Changed, runOf(s, files))
			}
		}
	}
	for _, s := range old.Runs {
		if _, ok := now[s.ID]; !ok {
			x := runOf(s, nil)
			x.Standing = "was " + x.Standing
			r.Removed = append(r.Removed, x)
		}
	}
	if !r.Redefined {
		r.Boards = boards(old, cur)
	}
	for _, list := range [][]Run{r.Added, r.Changed} {
		for _, a := range list {
			if d := cur.Details[a.ID]; d != nil {
				r.Checks = append(r.Checks, check(d))
			}
		}
	}
	sort.Slice(r.Checks, func(i, j int) bool { return r.Checks[i].ID < r.Checks[j].ID })
	return r
}

func releaseName(r sitedata.Release) string {
	if r.Date == "" {
		return r.Label
	}
	return r.Label + " (" + r.Date + ")"
}

func index(s *Site) map[string]*sitedata.RunSummary {
	m := make(map[string]*sitedata.RunSummary, len(s.Runs))
	for i := range s.Runs {
		m[s.Runs[i].ID] = &s.Runs[i]
	}
	return m
}

func runOf(s sitedata.RunSummary, files []string) Run {
	return Run{ID: s.ID, Model: s.Model, Variant: s.Variant, Intervention: s.Intervention, Scoring: s.Scoring,
		Board: boardOf(&s), Synthetic: s.Synthetic, Standing: standing(s.Ranking, boardOf(&s)), Files: files}
}

// boardOf is the board a run is on; files written before boards were
// named say it by variant and scoring.
func boardOf(s *sitedata.RunSummary) string {
	if s.Board != "" {
		return s.Board
	}
	return s.Variant + "-" + s.Scoring
}

// standing says where a run is ranked, or why not.
func standing(rk sitedata.Ranking, boardID string) string {
	if rk.Rank == nil {
		why := rk.Unranked
		if why == "" {
			why = "not ranked"
		}
		if rk.Parent != "" {
			why += " (shown under " + rk.Parent + ")"
		}
		return "not ranked on " + boardID + ": " + why
	}
	v := score.Composite.Name()
	s := "ranked on " + boardID + ": composite rank " + rankText(rk.Rank[v], rk.Tied[v])
	if rs, ok := rk.RankSet[v]; ok && rs[0] > 0 {
		set := strconv.Itoa(rs[0])
		if rs[1] != rs[0] {
			set += "–" + strconv.Itoa(rs[1])
		}
		s += ", 95% rank set " + set
	}
	return s
}

func rankText(rank int, tied bool) string {
	if rank == 0 {
		return none
	}
	if tied {
		return strconv.Itoa(rank) + "="
	}
	return strconv.Itoa(rank)
}

// changedFiles lists the input files of a run that differ between builds.
func changedFiles(a, b *sitedata.Run) []string {
	if a == nil || b == nil {
		return nil
	}
	was := map[string]string{}
	for _, f := range a.Files {
		was[f.Path] = f.SHA256
	}
	var out []string
	for _, f := range b.Files {
		if h, ok := was[f.Path]; !ok || h != f.SHA256 {
			out = append(out, f.Path)
		}
		delete(was, f.Path)
	}
	for p := range was {
		out = append(out, p+" (removed)")
	}
	sort.Strings(out)
	return out
}

// boardIDs lists boards in display order: variants × methods, then any
// other board by id.
func boardIDs(sites ...*Site) []string {
	seen := map[string]bool{}
	for _, s := range sites {
		for i := range s.Runs {
			seen[boardOf(&s.Runs[i])] = true
		}
	}
	var out []string
	for _, v := range board.Variants {
		for _, m := range board.Methods {
			if id := string(v) + "-" + string(m); seen[id] {
				out = append(out, id)
				delete(seen, id)
			}
		}
	}
	var rest []string
	for id := range seen {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// BoardTitle names a board for a reader.
func BoardTitle(id string) string {
	for _, v := range board.Variants {
		for _, m := range board.Methods {
			if id == string(v)+"-"+string(m) {
				kind := "log-probability runs"
				if m == run.Decision {
					kind = "decision runs"
				}
				return string(v) + " prompts · " + kind
			}
		}
	}
	return id
}

// entry is a run's standing in one view of a board in one build.
// Added says the run is new in this build (the report lists it among the
// runs added).
func (m Move) Added() bool { return m.Move == "added" }

// Shifted says only the run's rank moved, because runs were added or
// removed above it: its displayed score is the same.
func (m Move) Shifted() bool { return m.Old == m.New && strings.HasPrefix(m.Cause, onlyMembership) }

// onlyMembership begins the cause of a move due only to runs added or
// removed.
const onlyMembership = "only runs added or removed"

type entry struct {
	s     *sitedata.RunSummary
	rank  int
	tied  bool
	shown float64 // the view's value as displayed; NaN when not scored
	est   sitedata.Estimate
	has   bool // the run is scored in this view
}

func entriesOf(s *Site, boardID, view string) map[string]entry {
	out := map[string]entry{}
	for i := range s.Runs {
		r := &s.Runs[i]
		if boardOf(r) != boardID {
			continue
		}
		e := entry{s: r, rank: r.Rank[view], tied: r.Tied[view]}
		if est, ok := r.Views[view]; ok && r.Scored {
			e.est, e.has, e.shown = est, true, board.Shown(float64(est.Estimate))
		}
		out[r.ID] = e
	}
	return out
}

func boards(old, cur *Site) []Board {
	var out []Board
	for _, id := range boardIDs(cur, old) {
		b := Board{ID: id, Title: BoardTitle(id)}
		for _, v := range score.Views {
			b.Moves = append(b.Moves, moves(entriesOf(old, id, v.Name()), entriesOf(cur, id, v.Name()), v.Name())...)
		}
		if len(b.Moves) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// moves lists the runs of one view of a board whose rank or displayed
// score differs: ranked runs in their new rank order, then the others by
// id.
func moves(was, now map[string]entry, view string) []Move {
	ids := map[string]bool{}
	for id := range was {
		ids[id] = true
	}
	for id := range now {
		ids[id] = true
	}
	var out []Move
	for id := range ids {
		o, inOld := was[id]
		n, inNew := now[id]
		if !o.has && !n.has && o.rank == 0 && n.rank == 0 {
			continue
		}
		m := Move{View: view, ID: id, OldRank: o.rank, NewRank: n.rank,
			Then: rankText(o.rank, o.tied), Now: rankText(n.rank, n.tied),
			Old: none, New: none, Change: none, Interval: none}
		src := n.s
		if !inNew {
			src = o.s
		}
		m.Model = src.Model
		if o.has {
			m.Old = board.Display(float64(o.est.Estimate))
			if ci := o.est.CI95; ci != nil {
				m.Interval = "[" + board.Display(float64(ci[0])) + ", " + board.Display(float64(ci[1])) + "]"
			}
		}
		if n.has {
			m.New = board.Display(float64(n.est.Estimate))
		}
		if o.has && n.has {
			m.Change = numfmt.Signed(n.shown-o.shown, board.DisplayDecimals)
			if ci := o.est.CI95; ci != nil {
				m.Beyond = n.shown < board.Shown(float64(ci[0])) || n.shown > board.Shown(float64(ci[1]))
			}
		}
		switch {
		case !inOld:
			m.Move = "added"
		case !inNew:
			m.Move = "removed"
		case o.rank == 0 && n.rank > 0:
			m.Move = "now ranked"
		case o.rank > 0 && n.rank == 0:
			m.Move = "no longer ranked"
		case n.rank < o.rank:
			m.Move = fmt.Sprintf("up %d", o.rank-n.rank)
		case n.rank > o.rank:
			m.Move = fmt.Sprintf("down %d", n.rank-o.rank)
		}
		if m.Move == "" && m.Old == m.New {
			continue // neither rank nor displayed score moved
		}
		if o.rank > 0 && n.rank > 0 && o.rank != n.rank {
			m.Cause = cause(was, now, id)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.NewRank > 0) != (b.NewRank > 0) {
			return a.NewRank > 0
		}
		if a.NewRank != b.NewRank {
			return a.NewRank < b.NewRank
		}
		return a.ID < b.ID
	})
	return out
}

// cause splits a rank move of a run ranked in both builds. A rank is 1 +
// the number of ranked runs of the board whose displayed score is lower
// (ranks are decided on the displayed value). Runs ranked in both builds
// give the part of the move due to score changes; runs ranked in one build
// only (added, removed, or entering or leaving the ranking) give the rest.
// When the stored ranks do not follow from the displayed scores (another
// ranking rule), nothing is claimed.
func cause(was, now map[string]entry, id string) string {
	o, n := was[id], now[id]
	before, removed := ahead(was, now, o)
	after, added := ahead(now, was, n)
	if o.rank != 1+before+removed || n.rank != 1+after+added {
		return ""
	}
	var membership []string
	if added > 0 {
		membership = append(membership, fmt.Sprintf("%d added above it", added))
	}
	if removed > 0 {
		membership = append(membership, fmt.Sprintf("%d removed above it", removed))
	}
	switch shift := after - before; {
	case shift == 0 && len(membership) > 0:
		return onlyMembership + " (" + strings.Join(membership, ", ") + ")"
	case shift != 0 && len(membership) == 0:
		return "score changes"
	case shift != 0:
		dir := "down"
		if shift < 0 {
			dir, shift = "up", -shift
		}
		return fmt.Sprintf("score changes (%s %d) and runs added or removed (%s)", dir, shift, strings.Join(membership, ", "))
	}
	return "" // an added and a removed run ahead cancel out: no move
}

// ahead counts the runs ranked in one build whose displayed score is below
// e's: those also ranked in the other build, and those ranked in this one
// only.
func ahead(this, other map[string]entry, e entry) (common, only int) {
	for x, te := range this {
		if te.rank == 0 || !te.has || te.shown >= e.shown {
			continue
		}
		if oe, ok := other[x]; ok && oe.rank > 0 && oe.has {
			common++
		} else {
			only++
		}
	}
	return common, only
}
