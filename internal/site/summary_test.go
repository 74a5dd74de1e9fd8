package site

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/crawl"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/vocab"
)

// The summaries at the top of the boards and the run pages (package
// vocab's words), every sentence checked against the numbers it states:
// the run's data file, data/leaderboard.json, the run page's own tables
// of gaps and paired comparisons, and the pairwise pages' verdicts. A
// sentence of a form this test does not know fails it: every sentence a
// summary can say is covered here.

var (
	sumDiv = regexp.MustCompile(`<div class=summary id=summary><ul>(.*?)</ul></div>`)

	reRanked    = regexp.MustCompile(`^(.+) ranks (\d+)(?:st|nd|rd|th)( \(tied\))? of (\d+) (explicit|implicit)-prompt (log-probability|sampled-answer) runs \(95% rank set (\d+)(?:–(\d+))?\), with a composite of (\d+\.\d\d) logits \(up to (\d+\.\d) pp of P\(yes\)\)\.$`)
	reUnranked  = regexp.MustCompile(`^(.+) is not ranked: (.+?)\.(?: Its composite is (\d+\.\d\d) logits \(up to (\d+\.\d) pp of P\(yes\)\)\.)?$`)
	reEffect    = regexp.MustCompile(`^Its largest effect (favours|leans towards) (.+?) over (.+?)(?: \(33⅓ years apart\))? by up to (\d+\.\d) pp of P\(yes\) \(95% interval ([−+]?\d+\.\d) to ([−+]?\d+\.\d) pp\): (beyond doubt|not beyond doubt, it may be zero|not beyond doubt once corrected for picking the largest of (\d+) gaps)\.$`)
	reImplicit  = regexp.MustCompile(`^On implicit prompts its composite is (?:(\d+\.\d\d) logits (lower|higher)|unchanged at two decimals) than on explicit ones \(95% interval ([−+]?\d+\.\d\d) to ([−+]?\d+\.\d\d)\): (beyond doubt|not beyond doubt, it may be zero)\.$`)
	reAgainst   = regexp.MustCompile(`^Against the same model's default-prompt run its composite is (?:(\d+\.\d\d) logits (lower|higher)|unchanged at two decimals) \(95% interval ([−+]?\d+\.\d\d) to ([−+]?\d+\.\d\d)\): (beyond doubt|not beyond doubt, it may be zero)\.$`)
	reWith      = regexp.MustCompile(`^With its interventions, its composite: (.+?)(?:; and (\d+) more on the mitigation page)?\.$`)
	reWithOne   = regexp.MustCompile(`^(\S+) (?:(\d+\.\d\d) logits (lower|higher)|unchanged at two decimals) \(([−+]?\d+\.\d\d) to ([−+]?\d+\.\d\d)\), (beyond doubt|not beyond doubt)$`)
	rePasses    = regexp.MustCompile(`^It passes the ranking rules: (?:mean answer mass (\d\.\d{3}) \(at least 0\.99\)|(\d+\.\d)% of answers a yes or a no \(at least 99%\)) and (\d+\.\d)% of prompts missing \(at most 5%\)\.$`)
	reLeast     = regexp.MustCompile(`^Least biased of the (\d+) ranked (explicit|implicit)-prompt (log-probability|sampled-answer) runs: (.+), (composite|age view|gender view|race view) (\d+\.\d\d) logits \(up to (\d+\.\d) pp of P\(yes\); 95% rank set (\d+)(?:–(\d+))?\)\.$`)
	reAhead     = regexp.MustCompile(`^It is (?:lower than (?:each of the other (\d+)|the other run) beyond doubt|lower than (\d+) of the other (\d+) beyond doubt; not beyond doubt against (.+)|not lower than any of the other (\d+) beyond doubt: (.+))\.$`)
	rePairs     = regexp.MustCompile(`^(\d+|None) of the board's (\d+) pairs of runs differ beyond doubt\. Most biased: (.+), (\d+\.\d\d) \(up to (\d+\.\d) pp of P\(yes\)\)(?:, mostly (age|gender|race))?\.$`)
	reNot       = regexp.MustCompile(`^Not ranked: (.+)\.$`)
	reAmong     = regexp.MustCompile(`^Among the (\d+) (explicit|implicit)-prompt (log-probability|sampled-answer) runs, (.+) is least biased \((\d+\.\d\d)\), (?:lower than (?:each of the other \d+|the other run) beyond doubt|not beyond doubt lower than (\d+) of the others)\.$`)
	reOnly      = regexp.MustCompile(`^(.+) is the only (explicit|implicit)-prompt (log-probability|sampled-answer) run with a score, and is not ranked: a board ranks two runs or more\.$`)
	reNone      = regexp.MustCompile(`^None of the (explicit|implicit)-prompt (log-probability|sampled-answer) runs is ranked yet\.$`)
	reEmpty     = regexp.MustCompile(`^No run of the (explicit|implicit) prompts yet\.$`)
	reCloseRun  = regexp.MustCompile(`(.+?) \((\d+\.\d\d)\)(?:, |$| and (\d+) more$)`)
	pairVerdict = regexp.MustCompile(`class=vh> (.+?) minus (.+?): (lower beyond doubt|higher beyond doubt|not distinguishable)</span>`)
)

// summaryOf is a page's summary sentences as text, nil without one.
func summaryOf(page []byte) []string {
	m := sumDiv.FindSubmatch(page)
	if m == nil {
		return nil
	}
	var out []string
	for _, li := range strings.Split(string(m[1]), "<li>")[1:] {
		out = append(out, html.UnescapeString(stripTags(strings.TrimSuffix(li, "</li>"), "")))
	}
	return out
}

// summarySite is what the checks read of the site.
type summarySite struct {
	files  map[string][]byte
	lb     sitedata.Leaderboard
	runs   map[string]*sitedata.Run
	byName map[string]string // a model's display name → run ids, for the boards' names
}

func readSummarySite(t *testing.T, files map[string][]byte) *summarySite {
	s := &summarySite{files: files, runs: map[string]*sitedata.Run{}}
	if err := json.Unmarshal(files["data/leaderboard.json"], &s.lb); err != nil {
		t.Fatal(err)
	}
	for _, r := range s.lb.Runs {
		var rj sitedata.Run
		if err := json.Unmarshal(files["data/runs/"+r.ID+".json"], &rj); err != nil {
			t.Fatal(err)
		}
		s.runs[r.ID] = &rj
	}
	return s
}

// shownAs reports whether text shows v with d decimals, allowing for the
// rounding of an input read back from the page (slack).
func shownAs(text string, v float64, d int, slack float64) bool {
	if text == numfmt.Fixed(v, d) || text == numfmt.Signed(v, d) {
		return true
	}
	x, err := strconv.ParseFloat(strings.Replace(strings.TrimPrefix(text, "+"), "−", "-", 1), 64)
	return err == nil && math.Abs(x-v) <= slack+0.5*math.Pow(10, -float64(d))
}

// TestSummariesMatchNumbers checks every sentence of every summary.
func TestSummariesMatchNumbers(t *testing.T) {
	skipReaderUnderRace(t)
	skipWholeSitesUnderRace(t)
	counts := map[string]int{}
	// The fixture, demo runs of a model with both variants, and two demo
	// runs of sampled answers beside one of log-probabilities (a board of
	// decision runs after the first, and no implicit run).
	sampled := demoSubsetSite(t, "skew-13b-explicit", "fair-7b-explicit-sampled", "skew-13b-explicit-sampled")
	groupRows := 0
	for _, files := range []map[string][]byte{fixtureSite(t), variantDemoSite(t), sampled} {
		checkSummaries(t, files, counts)
		groupRows += checkGroupBoards(t, files)
	}
	if groupRows == 0 {
		t.Error("no group board's row checked")
	}
	for _, k := range []string{"ranked", "unranked", "effect", "implicit", "against", "with", "passes", "least", "ahead", "pairs", "not ranked", "among", "only", "none", "empty"} {
		if counts[k] == 0 {
			t.Errorf("no summary sentence %q checked: the fixture no longer has one, or its form changed", k)
		}
	}
	t.Logf("checked: %v", counts)
}

func checkSummaries(t *testing.T, files map[string][]byte, counts map[string]int) {
	for _, p := range crawl.Read(files).SummaryProblems(func(name string) bool {
		_, _, board := boardOfPage(name)
		return board || crawl.RunPage(name)
	}) {
		t.Error(p)
	}
	s := readSummarySite(t, files)
	for _, r := range s.lb.Runs {
		page := "runs/" + r.ID + "/index.html"
		sum := summaryOf(files[page])
		if len(sum) == 0 {
			t.Errorf("%s: no summary", page)
			continue
		}
		for _, st := range sum {
			s.checkRunSentence(t, page, r.ID, st, counts)
		}
	}
	for name := range files {
		variant, view, ok := boardOfPage(name)
		if !ok {
			continue
		}
		sum := summaryOf(files[name])
		if len(sum) == 0 {
			t.Errorf("%s: no summary", name)
			continue
		}
		// A sentence is of the board the last that named one named: at
		// first the variant's first board.
		current := ""
		for _, b := range s.lb.Boards {
			if b.Variant == variant && current == "" {
				current = b.ID
			}
		}
		for i, st := range sum {
			current = s.checkBoardSentence(t, name, variant, view, i, st, current, counts)
		}
	}
}

// boardOfPage is the variant and view of a board's first page.
func boardOfPage(name string) (variant, view string, ok bool) {
	if name == "index.html" {
		return "explicit", "composite", true
	}
	rest, ok := strings.CutPrefix(name, "board/")
	if !ok || !strings.HasSuffix(rest, ".html") {
		return "", "", false
	}
	variant, view, ok = strings.Cut(strings.TrimSuffix(rest, ".html"), "-")
	switch view {
	case "composite", "age", "gender", "race":
		return variant, view, ok
	}
	return "", "", false
}

func (s *summarySite) checkRunSentence(t *testing.T, page, id, st string, counts map[string]int) {
	t.Helper()
	r := s.runs[id]
	bad := func(format string, args ...any) { t.Errorf("%s: %q: %s", page, st, fmt.Sprintf(format, args...)) }
	comp := r.Views["composite"]
	switch {
	case reRanked.MatchString(st):
		counts["ranked"]++
		m := reRanked.FindStringSubmatch(st)
		if m[1] != r.Model.Name || !r.Ranked || strconv.Itoa(r.Rank["composite"]) != m[2] || (m[3] != "") != r.Tied["composite"] {
			bad("the run is %s, ranked %v, rank %d, tied %v", r.Model.Name, r.Ranked, r.Rank["composite"], r.Tied["composite"])
		}
		set := r.RankSet["composite"]
		if hi := cmpOr(m[8], m[7]); m[7] != strconv.Itoa(set[0]) || hi != strconv.Itoa(set[1]) {
			bad("its rank set is %v", set)
		}
		if n := len(s.board(r.Board).Views["composite"]); m[4] != strconv.Itoa(n) || m[5] != r.Variant || (m[6] == "sampled-answer") != (r.Scoring == "decision") {
			bad("its board %s ranks %d", r.Board, n)
		}
		s.checkComposite(t, page, st, m[9], m[10], float64(comp.Estimate))
	case reUnranked.MatchString(st):
		counts["unranked"]++
		m := reUnranked.FindStringSubmatch(st)
		if m[1] != r.Model.Name || r.Ranked && r.Rank != nil {
			bad("the run is %s, ranked %v", r.Model.Name, r.Ranked)
		}
		s.checkWhy(t, page, st, m[2], r)
		if m[3] != "" {
			s.checkComposite(t, page, st, m[3], m[4], float64(comp.Estimate))
		}
	case reEffect.MatchString(st):
		counts["effect"]++
		s.checkEffect(t, page, st, reEffect.FindStringSubmatch(st))
	case reImplicit.MatchString(st):
		counts["implicit"]++
		m := reImplicit.FindStringSubmatch(st)
		if r.VariantDiff == nil || r.VariantDiff.Views["composite"].CI95 == nil {
			bad("the run has no variant difference")
			return
		}
		d := r.VariantDiff.Views["composite"]
		checkChange(t, page, st, m[1], m[2], m[3], m[4], m[5] == "beyond doubt", float64(d.Estimate), *d.CI95, d.CI95[0] > 0 || d.CI95[1] < 0)
	case reAgainst.MatchString(st):
		counts["against"]++
		m := reAgainst.FindStringSubmatch(st)
		if r.Parent == "" {
			bad("the run is no intervention's")
		}
		est, ci, beyond, ok := s.pairComposite(r.Parent, id)
		if !ok {
			bad("the mitigation page has no pair %s → %s", r.Parent, id)
			return
		}
		checkChange(t, page, st, m[1], m[2], m[3], m[4], m[5] == "beyond doubt", est, ci, beyond)
	case reWith.MatchString(st):
		counts["with"]++
		m := reWith.FindStringSubmatch(st)
		n := 0
		for _, item := range strings.Split(m[1], "; ") {
			w := reWithOne.FindStringSubmatch(item)
			if w == nil {
				bad("an intervention %q of no known form", item)
				continue
			}
			child := s.childNamed(id, w[1])
			if child == "" {
				bad("the run has no intervention %s", w[1])
				continue
			}
			n++
			est, ci, beyond, ok := s.pairComposite(id, child)
			if !ok {
				bad("the mitigation page has no pair %s → %s", id, child)
				continue
			}
			checkChange(t, page, st, w[2], w[3], w[4], w[5], w[6] == "beyond doubt", est, ci, beyond)
		}
		if more, _ := strconv.Atoi(cmpOr(m[2], "0")); n+more != len(s.children(id)) {
			bad("%d interventions said, the run has %d", n+more, len(s.children(id)))
		}
	case rePasses.MatchString(st):
		counts["passes"]++
		m := rePasses.FindStringSubmatch(st)
		q := r.Quality
		switch {
		case m[1] != "" && (q.MeanMass == nil || m[1] != numfmt.Fixed(float64(*q.MeanMass), 3) || *q.MeanMass < 0.99):
			bad("mean answer mass %v", q.MeanMass)
		case m[2] != "" && m[2] != numfmt.Fixed(100*(1-float64(q.Unparsed)/float64(q.Decisions)), 1):
			bad("%d of %d answers unparsed", q.Unparsed, q.Decisions)
		}
		if missing := 100 * float64(q.MissingCells) / 9450; m[3] != numfmt.Fixed(missing, 1) || missing > 5 {
			bad("%d prompts missing", q.MissingCells)
		}
		if !r.Ranked || r.Rank == nil {
			bad("said of a run that is not ranked")
		}
	default:
		bad("a summary sentence of no form this test checks")
	}
}

// checkComposite checks a composite and its pp beside it.
func (s *summarySite) checkComposite(t *testing.T, page, st, value, pp string, v float64) {
	t.Helper()
	if value != numfmt.Fixed(v, 2) || pp != numfmt.Fixed(math.Abs(vocab.PointsAtHalf(sitedataShown(v))), 1) {
		t.Errorf("%s: %q: the composite is %v (%s pp)", page, st, v, numfmt.Fixed(vocab.PointsAtHalf(sitedataShown(v)), 1))
	}
}

// sitedataShown is a value as the pages show it, with two decimals.
func sitedataShown(v float64) float64 { f, _ := strconv.ParseFloat(numfmt.Fixed(v, 2), 64); return f }

// checkWhy checks why a run is not ranked against its data.
func (s *summarySite) checkWhy(t *testing.T, page, st, why string, r *sitedata.Run) {
	t.Helper()
	bad := func(format string, args ...any) { t.Errorf("%s: %q: %s", page, st, fmt.Sprintf(format, args...)) }
	q := r.Quality
	found := false
	if m := regexp.MustCompile(`its mean answer mass is (\d\.\d{3}), below 0\.99`).FindStringSubmatch(why); m != nil {
		found = true
		if q.MeanMass == nil || m[1] != numfmt.Fixed(float64(*q.MeanMass), 3) || *q.MeanMass >= 0.99 {
			bad("mean answer mass %v", q.MeanMass)
		}
	}
	if m := regexp.MustCompile(`(\d+\.\d)% of its prompts are missing, more than 5%`).FindStringSubmatch(why); m != nil {
		found = true
		if missing := 100 * float64(q.MissingCells) / 9450; m[1] != numfmt.Fixed(missing, 1) || missing <= 5 {
			bad("%d prompts missing", q.MissingCells)
		}
	}
	if m := regexp.MustCompile(`^the boards rank the default prompt, and this run adds the (.+) intervention$`).FindStringSubmatch(why); m != nil {
		found = true
		if m[1] != r.Intervention || r.Parent == "" {
			bad("the run's intervention is %q, of %q", r.Intervention, r.Parent)
		}
	}
	if !found && why != r.Unranked && why != "it is the only run of its board, so there is nothing to rank it against" {
		bad("a reason neither a rule's nor the board's (%q)", r.Unranked)
	}
}

// checkChange checks a change of a composite: its size and side, its
// interval and its verdict.
func checkChange(t *testing.T, page, st, size, side, lo, hi string, beyondSaid bool, est float64, ci [2]sitedata.Num, beyond bool) {
	t.Helper()
	ok := size == "" && numfmt.Fixed(math.Abs(est), 2) == "0.00" || size == numfmt.Fixed(math.Abs(est), 2) && (side == "lower") == (est < 0)
	if !ok || !shownAs(lo, float64(ci[0]), 2, 0) || !shownAs(hi, float64(ci[1]), 2, 0) || beyondSaid != beyond {
		t.Errorf("%s: %q: the difference is %v [%v, %v], beyond doubt: %v", page, st, est, ci[0], ci[1], beyond)
	}
}

// pairComposite is the composite row of the mitigation page's pair a → b:
// the paired estimate, its interval and whether its verdict is beyond
// doubt.
func (s *summarySite) pairComposite(a, b string) (est float64, ci [2]sitedata.Num, beyond bool, ok bool) {
	page := string(s.files["mitigation.html"])
	i := strings.Index(page, "<h2 id="+b+"-vs-"+a+">")
	if i < 0 {
		return 0, ci, false, false
	}
	row := regexp.MustCompile(`<tr><th scope=row>Composite<td.*?<span class=num>([−+]?\d+\.\d\d)</span> <span class=ci>\[([−+]?\d+\.\d\d), ([−+]?\d+\.\d\d)\] · [^<]*</span><span class=[a-z]+>([^<]*)</span>`).FindStringSubmatch(page[i:])
	if row == nil {
		return 0, ci, false, false
	}
	num := func(x string) float64 {
		f, _ := strconv.ParseFloat(strings.Replace(strings.TrimPrefix(x, "+"), "−", "-", 1), 64)
		return f
	}
	return num(row[1]), [2]sitedata.Num{sitedata.Num(num(row[2])), sitedata.Num(num(row[3]))}, strings.HasSuffix(row[4], "beyond doubt"), true
}

// children are the intervention runs of a run.
func (s *summarySite) children(id string) []string {
	var out []string
	for _, r := range s.lb.Runs {
		if r.Parent == id {
			out = append(out, r.ID)
		}
	}
	return out
}

func (s *summarySite) childNamed(id, intervention string) string {
	for _, c := range s.children(id) {
		if s.runs[c].Intervention == intervention {
			return c
		}
	}
	return ""
}

func (s *summarySite) board(id string) *sitedata.Board {
	for i := range s.lb.Boards {
		if s.lb.Boards[i].ID == id {
			return &s.lb.Boards[i]
		}
	}
	return &sitedata.Board{}
}

// checkEffect checks the largest effect against the run page's tables of
// gaps: it is the gap of the largest size, said in pp for a person at 50%
// with its normal 95% interval, beyond doubt only when the interval
// corrected for picking the largest of them excludes zero.
func (s *summarySite) checkEffect(t *testing.T, page, st string, m []string) {
	t.Helper()
	bad := func(format string, args ...any) { t.Errorf("%s: %q: %s", page, st, fmt.Sprintf(format, args...)) }
	type gap struct {
		group, against string
		est, se        float64
	}
	var gaps []gap
	for _, tb := range crawl.ReadPage(s.files[page]).Tables {
		if !strings.Contains(tb.Caption, " view = ") || len(tb.Columns) < 3 {
			continue
		}
		for i, label := range tb.Columns[0].Cells {
			g := gap{group: "older people", against: "younger people"}
			if a, b, ok := strings.Cut(label, " vs "); ok {
				g.group, g.against = a, b
			}
			g.est = shownNum(t, tb.Columns[1].Cells[i])
			g.se = shownNum(t, tb.Columns[2].Cells[i])
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		bad("the run page has no gaps")
		return
	}
	top := gaps[0]
	for _, g := range gaps[1:] {
		if math.Abs(g.est) > math.Abs(top.est) {
			top = g
		}
	}
	// Gaps of one size as shown are tied: the named one must be of that
	// size, and its own SE counts.
	named := -1
	for k, g := range gaps {
		if math.Abs(math.Abs(g.est)-math.Abs(top.est)) > 0.0015 {
			continue
		}
		a, b := g.group, g.against
		if g.est < 0 {
			a, b = b, a
		}
		if m[2] == vocab.People(a) && m[3] == vocab.People(b) || g.est == 0 && m[2] == vocab.People(b) && m[3] == vocab.People(a) {
			named = k
		}
	}
	if named < 0 {
		bad("the largest gap is %s against %s, %v", top.group, top.against, top.est)
		return
	}
	top = gaps[named]
	est := math.Abs(top.est)
	const slack = 0.03 // pp, from the gap and SE read back at three decimals
	lo, hi := vocab.PointsAtHalf(est-1.959964*top.se), vocab.PointsAtHalf(est+1.959964*top.se)
	// The point is from the gap at two decimals, as the site shows a
	// coefficient: read back at three, it may round either way.
	point := shownAs(m[4], vocab.PointsAtHalf(math.Round((est-0.0005)*100)/100), 1, 0) || shownAs(m[4], vocab.PointsAtHalf(math.Round((est+0.0005)*100)/100), 1, 0)
	if !point || !shownAs(m[5], lo, 1, slack) || !shownAs(m[6], hi, 1, slack) {
		bad("the gap %v (SE %v) is up to %.2f pp, [%.2f, %.2f]", est, top.se, vocab.PointsAtHalf(est), lo, hi)
	}
	excludes := lo > 0.05
	if (m[1] == "favours") != excludes && math.Abs(lo) > slack+0.05 {
		bad("%q with an interval from %.2f pp", m[1], lo)
	}
	if m[8] != "" && m[8] != strconv.Itoa(len(gaps)) {
		bad("the run page has %d gaps", len(gaps))
	}
	z := math.Sqrt2 * math.Erfinv(1-0.05/float64(len(gaps)))
	corrected := vocab.PointsAtHalf(est - z*top.se)
	if beyond := m[7] == "beyond doubt"; beyond != (corrected > 0.05) && math.Abs(corrected-0.05) > slack {
		bad("%q: the corrected interval starts at %.2f pp", m[7], corrected)
	}
}

func (s *summarySite) checkBoardSentence(t *testing.T, page, variant, view string, i int, st, current string, counts map[string]int) string {
	t.Helper()
	bad := func(format string, args ...any) { t.Errorf("%s: %q: %s", page, st, fmt.Sprintf(format, args...)) }
	viewName := view
	if view != "composite" {
		viewName = view + " view"
	}
	// The board of a sentence: the one it names, else the current one.
	switch {
	case strings.Contains(st, "-prompt sampled-answer run"):
		current = variant + "-decision"
	case strings.Contains(st, "-prompt log-probability run"):
		current = variant + "-logprob"
	}
	bd := s.board(current)
	ranked := bd.Views[view]
	name := func(id string) string { return s.runs[id].Model.Name }
	verdicts := s.pairVerdicts(page, variant, view, bd.Method)
	switch {
	case (reAhead.MatchString(st) || rePairs.MatchString(st)) && len(ranked) < 2:
		bad("the board ranks %v", ranked)
	case reLeast.MatchString(st):
		counts["least"]++
		m := reLeast.FindStringSubmatch(st)
		if len(ranked) == 0 || m[1] != strconv.Itoa(len(ranked)) || m[4] != name(ranked[0]) || m[5] != viewName {
			bad("the board ranks %v in %s", ranked, view)
			return current
		}
		r := s.runs[ranked[0]]
		v := float64(r.Views[view].Estimate)
		set := r.RankSet[view]
		if m[6] != numfmt.Fixed(v, 2) || m[7] != numfmt.Fixed(vocab.PointsAtHalf(sitedataShown(v)), 1) || m[8] != strconv.Itoa(set[0]) || cmpOr(m[9], m[8]) != strconv.Itoa(set[1]) {
			bad("%s's %s is %v, rank set %v", r.Model.Name, view, v, set)
		}
	case reAhead.MatchString(st):
		counts["ahead"]++
		m := reAhead.FindStringSubmatch(st)
		lowest := name(ranked[0])
		var beyond []string
		var close []string
		for _, id := range ranked[1:] {
			if verdicts[lowest+"\x00"+name(id)] == "lower beyond doubt" {
				beyond = append(beyond, name(id))
			} else {
				close = append(close, name(id))
			}
		}
		others := len(ranked) - 1
		switch {
		case m[1] != "" || strings.Contains(st, "the other run beyond"):
			if len(beyond) != others || m[1] != "" && m[1] != strconv.Itoa(others) {
				bad("it is lower beyond doubt than %v of %d", beyond, others)
			}
		case m[2] != "":
			if m[2] != strconv.Itoa(len(beyond)) || m[3] != strconv.Itoa(others) {
				bad("it is lower beyond doubt than %v of %d", beyond, others)
			}
			checkClose(t, page, st, m[4], close, s, ranked, view)
		default:
			if len(beyond) != 0 || m[5] != strconv.Itoa(others) {
				bad("it is lower beyond doubt than %v", beyond)
			}
			checkClose(t, page, st, m[6], close, s, ranked, view)
		}
	case rePairs.MatchString(st):
		counts["pairs"]++
		m := rePairs.FindStringSubmatch(st)
		n := 0
		for _, v := range verdicts {
			if v == "lower beyond doubt" {
				n++
			}
		}
		if got := strings.Replace(m[1], "None", "0", 1); got != strconv.Itoa(n) || m[2] != strconv.Itoa(len(ranked)*(len(ranked)-1)/2) {
			bad("the pairwise page has %d pairs beyond doubt of %d", n, len(ranked)*(len(ranked)-1)/2)
		}
		last := s.runs[ranked[len(ranked)-1]]
		v := float64(last.Views[view].Estimate)
		if m[3] != last.Model.Name || m[4] != numfmt.Fixed(v, 2) || m[5] != numfmt.Fixed(vocab.PointsAtHalf(sitedataShown(v)), 1) {
			bad("the last ranked is %s at %v", last.Model.Name, v)
		}
		if top := mostlyOf(last); (m[6] != "") != (view == "composite") || m[6] != "" && m[6] != top {
			bad("its largest attribute view is %s", top)
		}
	case reNot.MatchString(st):
		counts["not ranked"]++
		var names []string
		interventions := 0
		for _, u := range bd.Unranked {
			if s.runs[u.ID].Parent != "" {
				interventions++
			} else {
				names = append(names, name(u.ID))
			}
		}
		for _, id := range bd.Views["composite"] {
			interventions += len(s.children(id))
		}
		var want []string
		if len(names) > 0 {
			want = append(want, strings.Join(names[:min(len(names), vocab.MaxClose)], ", "))
		}
		if len(names) > vocab.MaxClose {
			want = append(want, strconv.Itoa(len(names)-vocab.MaxClose)+" more")
		}
		if interventions > 0 {
			want = append(want, vocab.Plural(interventions, "prompt intervention")+" (compared with the default prompt on the mitigation page)")
		}
		if got := reNot.FindStringSubmatch(st)[1]; got != strings.Join(want, ", and ") {
			bad("the board lists %v not ranked and %d interventions", names, interventions)
		}
	case reAmong.MatchString(st):
		counts["among"]++
		m := reAmong.FindStringSubmatch(st)
		if len(ranked) < 2 || m[1] != strconv.Itoa(len(ranked)) || m[4] != name(ranked[0]) || m[5] != numfmt.Fixed(float64(s.runs[ranked[0]].Views[view].Estimate), 2) {
			bad("the board ranks %v", ranked)
		}
		lower := 0
		for _, id := range ranked[1:] {
			if verdicts[name(ranked[0])+"\x00"+name(id)] == "lower beyond doubt" {
				lower++
			}
		}
		if (m[6] == "") != (lower == len(ranked)-1) || m[6] != "" && m[6] != strconv.Itoa(len(ranked)-1-lower) {
			bad("it is lower beyond doubt than %d of %d", lower, len(ranked)-1)
		}
	case reOnly.MatchString(st):
		counts["only"]++
		m := reOnly.FindStringSubmatch(st)
		if len(ranked) != 1 || bd.Ranks || m[1] != name(ranked[0]) {
			bad("the board has ranks %v over %v", bd.Ranks, ranked)
		}
	case reNone.MatchString(st):
		counts["none"]++
		if len(ranked) != 0 || i != 0 {
			bad("the board ranks %v", ranked)
		}
	case reEmpty.MatchString(st):
		counts["empty"]++
		if m := reEmpty.FindStringSubmatch(st); m[1] != variant || i != 0 || current != "" {
			bad("the variant has the board %q", current)
		}
	default:
		bad("a summary sentence of no form this test checks")
	}
	return current
}

// checkClose checks the runs a board's summary names as not beyond doubt
// lower than the lowest: the nearest such runs, in rank order.
func checkClose(t *testing.T, page, st, list string, close []string, s *summarySite, ranked []string, view string) {
	t.Helper()
	ms := reCloseRun.FindAllStringSubmatch(list, -1)
	for k, m := range ms {
		if k >= len(close) || m[1] != close[k] {
			t.Errorf("%s: %q: the runs not beyond doubt apart from the lowest are %v", page, st, close)
			return
		}
	}
	if len(ms) == 0 || len(ms) < min(len(close), vocab.MaxClose) {
		t.Errorf("%s: %q: names %d of the %d runs not beyond doubt apart", page, st, len(ms), len(close))
	}
}

// pairVerdicts are the pairwise page's verdicts of a board, "A\x00B" →
// the verdict of A minus B.
func (s *summarySite) pairVerdicts(page, variant, view, method string) map[string]string {
	out := map[string]string{}
	pw := string(s.files["board/"+variant+"-"+view+"-pairwise.html"])
	caption := "<caption>Log-probability runs"
	if method == "decision" {
		caption = "<caption>Decision runs"
	}
	i := strings.Index(pw, caption)
	if i < 0 {
		return out
	}
	table := pw[i:]
	if j := strings.Index(table, "</table>"); j >= 0 {
		table = table[:j]
	}
	for _, m := range pairVerdict.FindAllStringSubmatch(table, -1) {
		out[html.UnescapeString(stripTags(m[1], ""))+"\x00"+html.UnescapeString(stripTags(m[2], ""))] = m[3]
	}
	return out
}

// mostlyOf is the attribute of a run's largest attribute view.
func mostlyOf(r *sitedata.Run) string {
	top := "age"
	for _, a := range []string{"gender", "race"} {
		if r.Views[a].Estimate > r.Views[top].Estimate {
			top = a
		}
	}
	return top
}

// cmpOr is a, or b when a is "".
func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}
