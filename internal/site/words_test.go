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

	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// The generated words are checked against the numbers they stand beside,
// on every page of the built site and against data/leaderboard.json:
// a sentence of words.go that disagrees with its number fails here, however
// it got onto the page.

// wordCell is one table cell, list item or paragraph of a page, as text.
type wordCell struct {
	label, text string
}

var (
	segmentSplit = regexp.MustCompile(`<tr[ >]|<li[ >]|<p[ >]|</table>|</ul>`)
	cellSplit    = regexp.MustCompile(`<t[hd][ >][^>]*>?`)
	tagRe        = regexp.MustCompile(`<[^>]*>`) // what stripTags replaces
	labelRe      = regexp.MustCompile(`data-label=(?:"([^"]*)"|([^ >]*))`)
	intervalRe   = regexp.MustCompile(`\[([−+]?\d+\.\d+), ([−+]?\d+\.\d+)\]`)
	signedRe     = regexp.MustCompile(`(?:^|[ (▼▲])([−+]\d+\.\d+|0\.0+)(?:$|[ ;:,)]|\[)`)
	favoursRe    = regexp.MustCompile(`favours ([^;,()]+?) over ([^;,()]+?)(?:$|[;,()]| ·)`)
	leansRe      = regexp.MustCompile(`leans towards ([^)]+)\)`)
	pRe          = regexp.MustCompile(`p (<|=) (\d\.\d+)`)
	correctedRe  = regexp.MustCompile(`corrected (<|=)? ?(\d\.\d+)`)
	tallyRe      = regexp.MustCompile(`beyond doubt in \d+`)
)

// pageSegments splits a page into rows (table rows, list items,
// paragraphs), each a list of cells as plain text. A page's summary is
// left out: TestSummariesMatchNumbers checks each of its sentences.
func pageSegments(page string) [][]wordCell {
	page = sumDiv.ReplaceAllString(page, "")
	var out [][]wordCell
	for _, seg := range segmentSplit.Split(page, -1) {
		var row []wordCell
		locs := cellSplit.FindAllStringIndex(seg, -1)
		starts := append([]int{0}, nil...)
		for _, l := range locs {
			starts = append(starts, l[0])
		}
		for i, s := range starts {
			end := len(seg)
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			raw := seg[s:end]
			c := wordCell{text: strings.Join(strings.Fields(html.UnescapeString(stripTags(raw, " "))), " ")}
			if m := labelRe.FindStringSubmatch(raw[:min(len(raw), strings.IndexByte(raw, '>')+1)]); m != nil {
				c.label = m[1] + m[2]
			}
			row = append(row, c)
		}
		out = append(out, row)
	}
	return out
}

// stripTags is tagRe.ReplaceAllString(s, repl) (TestStripTags), written
// out: the regexp took two thirds of the crawl's time, and ten times that
// under the race detector.
func stripTags(s, repl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		if b.Cap() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s = s[i+j+1:]
	}
	if b.Cap() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

func TestStripTags(t *testing.T) {
	for _, s := range []string{"", "plain", "<td>", "a<b>c</b>d", "<<a>>", "a<b", "a>b<c", "<p\nclass=x>é<br>ü", "x<a href=\"<>\">y", "<>", "\xff<\xfe>\xfd"} {
		for _, repl := range []string{" ", "|", ""} {
			if got, want := stripTags(s, repl), tagRe.ReplaceAllString(s, repl); got != want {
				t.Errorf("stripTags(%q, %q) = %q, the regexp gives %q", s, repl, got, want)
			}
		}
	}
}

// num reads a displayed number ("−0.31", "+0.02").
func shownNum(tb testing.TB, s string) float64 {
	tb.Helper()
	v, err := strconv.ParseFloat(strings.NewReplacer("−", "-", "+", "").Replace(s), 64)
	if err != nil {
		tb.Fatalf("not a number: %q", s)
	}
	return v
}

// rowEstimate is the signed number a row's words describe: its Estimate,
// Difference or Change cell, else the first signed number of the cell.
func rowEstimate(tb testing.TB, row []wordCell, at int) (float64, bool) {
	for _, c := range row {
		switch c.label {
		case "Estimate", "Difference", "Difference (paired estimate)", "Gap":
			if m := signedRe.FindStringSubmatch(c.text); m != nil {
				return shownNum(tb, m[1]), true
			}
		}
	}
	if m := signedRe.FindStringSubmatch(row[at].text); m != nil {
		return shownNum(tb, m[1]), true
	}
	return 0, false
}

// rowInterval is the interval a row's words describe: the one in the same
// cell, else the row's "95% interval" cell.
func rowInterval(tb testing.TB, row []wordCell, at int) ([2]float64, bool) {
	if m := intervalRe.FindStringSubmatch(row[at].text); m != nil {
		return [2]float64{shownNum(tb, m[1]), shownNum(tb, m[2])}, true
	}
	for _, c := range row {
		if m := intervalRe.FindStringSubmatch(c.text); m != nil && strings.Contains(strings.ToLower(c.label), "interval") {
			return [2]float64{shownNum(tb, m[1]), shownNum(tb, m[2])}, true
		}
	}
	return [2]float64{}, false
}

// TestWordsMatchNumbers crawls the fixture site.
func TestWordsMatchNumbers(t *testing.T) {
	t.Parallel()
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(files["data/leaderboard.json"], &lb); err != nil {
		t.Fatal(err)
	}
	summary := map[string]sitedata.RunSummary{}
	for _, r := range lb.Runs {
		summary[r.ID] = r
	}
	// Every run page's gaps between two groups, by "A vs B", for the
	// boards' "its largest gap" lines.
	gaps := map[string]map[string]float64{}
	counts := map[string]int{}
	for path, b := range files {
		if !strings.HasSuffix(path, ".html") || path == "methodology.html" || strings.HasPrefix(path, "pages/") {
			continue
		}
		for _, row := range pageSegments(string(b)) {
			head := ""
			if len(row) > 1 {
				head = row[1].text
			}
			for i, c := range row {
				checkCell(t, path, row, i, head, counts)
				if id, ok := strings.CutPrefix(path, "runs/"); ok && strings.HasSuffix(id, "/index.html") && c.label == "Estimate" && strings.Contains(head, " vs ") {
					id = strings.TrimSuffix(id, "/index.html")
					if gaps[id] == nil {
						gaps[id] = map[string]float64{}
					}
					if _, seen := gaps[id][head]; !seen { // the gaps' table comes before the coefficients'
						gaps[id][head] = shownNum(t, signedRe.FindStringSubmatch(c.text)[1])
					}
				}
			}
		}
	}
	// The boards' composite lines: "mostly <attribute> (<view>)" names the
	// largest attribute view of data/leaderboard.json, and "its largest gap:
	// favours A over B" agrees with the run page's gap A vs B.
	mostly := regexp.MustCompile(`mostly (age|gender|race) \((\d+\.\d+)\); its largest gap: (?:not distinguishable from zero \(leans towards ([^)]+)\)|favours ([^;]+?) over ([^;|]+?))(?:$|;|\|)`)
	runLink := regexp.MustCompile(`href=(?:\.\./)*runs/([^/]+)/index.html`)
	for _, path := range []string{"index.html", "board/explicit-composite.html", "board/implicit-composite.html"} {
		for _, seg := range strings.Split(string(files[path]), "<tr") {
			m := mostly.FindStringSubmatch(html.UnescapeString(stripTags(seg, "|")))
			l := runLink.FindStringSubmatch(seg)
			if m == nil || l == nil {
				continue
			}
			counts["mostly"]++
			s := summary[l[1]]
			top := "age"
			for _, v := range []string{"gender", "race"} {
				if s.Views[v].Estimate > s.Views[top].Estimate {
					top = v
				}
			}
			if m[1] != top || m[2] != show.Fixed(float64(s.Views[top].Estimate), 2) {
				t.Errorf("%s, %s: %q, but leaderboard.json's largest attribute view is %s %v", path, l[1], m[0], top, s.Views[top].Estimate)
			}
			a, b := m[4], m[5]
			if a == "" {
				continue
			}
			if v, ok := gaps[l[1]][a+" vs "+b]; ok && !(v > 0) {
				t.Errorf("%s, %s: %q, but the run page's %s vs %s is %v", path, l[1], m[0], a, b, v)
			} else if v, ok := gaps[l[1]][b+" vs "+a]; ok && !(v < 0) {
				t.Errorf("%s, %s: %q, but the run page's %s vs %s is %v", path, l[1], m[0], b, a, v)
			} else if !ok {
				if _, ok := gaps[l[1]][a+" vs "+b]; !ok {
					t.Errorf("%s, %s: %q names a gap the run page does not list", path, l[1], m[0])
				}
			}
		}
	}
	for _, k := range []string{"favours", "not distinguishable", "beyond doubt", "leans", "structure", "mostly", "paired", "shown difference"} {
		if counts[k] == 0 {
			t.Errorf("no %q checked: the crawl no longer finds them", k)
		}
	}
	t.Logf("checked: %v", counts)
}

// checkCell checks the words of one cell against the numbers of its row.
func checkCell(t testing.TB, path string, row []wordCell, i int, head string, counts map[string]int) {
	t.Helper()
	c := row[i]
	text := c.text
	where := path + ": " + head + ": " + text
	ci, hasCI := rowInterval(t, row, i)
	contains := hasCI && ci[0] <= 0 && ci[1] >= 0
	// Structure tests: a verdict and its p-value in one sentence.
	if strings.Contains(text, "Hotelling's test") {
		// The verdict is on the corrected p-value when the words give
		// one.
		m := correctedRe.FindStringSubmatch(text)
		if m == nil {
			m = pRe.FindStringSubmatch(text)
		}
		if m != nil {
			counts["structure"]++
			p := shownNum(t, m[2])
			switch {
			case strings.Contains(text, "detected at the 5% level") && !strings.Contains(text, "not detected") && !(m[1] == "<" || p <= 0.05):
				t.Errorf("%s: detected at p = %v", where, p)
			case strings.Contains(text, "not detected at the 5% level") && (m[1] == "<" || p <= 0.05):
				t.Errorf("%s: not detected at p %s %v", where, m[1], p)
			}
		}
		checkBeyondDoubt(t, where, text, false, ci)
		return
	}
	checkBeyondDoubt(t, where, text, hasCI, ci)
	checkPairCell(t, where, row, c, counts)
	verdicts := []string{"lower beyond doubt", "higher beyond doubt", "not distinguishable"}
	for _, v := range verdicts {
		if !strings.Contains(text, v) || !hasCI {
			continue
		}
		counts[strings.TrimPrefix(strings.TrimPrefix(v, "lower "), "higher ")]++
		switch {
		case v == "lower beyond doubt" && !(ci[1] <= 0 && ci[0] < 0):
			t.Errorf("%s: %q beside %v", where, v, ci)
		case v == "higher beyond doubt" && !(ci[0] >= 0 && ci[1] > 0):
			t.Errorf("%s: %q beside %v", where, v, ci)
		case v == "not distinguishable" && !contains:
			t.Errorf("%s: %q beside %v, which excludes zero", where, v, ci)
		}
		if est, ok := rowEstimate(t, row, i); ok && v != "not distinguishable" {
			if (v == "lower beyond doubt") != (est < 0) {
				t.Errorf("%s: %q beside a difference of %v", where, v, est)
			}
		}
	}
	// Directions beside a signed estimate in a row "A vs B" (or the age
	// coefficient): the favoured group agrees with the sign, and "favours"
	// is said only of an interval that excludes zero.
	a, b, ok := strings.Cut(head, " vs ")
	if strings.HasPrefix(head, "Age (") {
		a, b, ok = "older people", "younger people", true
	}
	if !ok || c.label != "Direction" {
		return
	}
	est, ok := rowEstimate(t, row, i)
	if !ok {
		return
	}
	if m := favoursRe.FindStringSubmatch(text); m != nil && !strings.Contains(text, "not distinguishable") {
		counts["favours"]++
		switch {
		case strings.EqualFold(m[1], a) && strings.EqualFold(m[2], b) && est > 0, strings.EqualFold(m[1], b) && strings.EqualFold(m[2], a) && est < 0:
		default:
			t.Errorf("%s: %q beside %v", where, m[0], est)
		}
		if hasCI && contains {
			t.Errorf("%s: %q beside %v, which contains zero", where, m[0], ci)
		}
		if !hasCI {
			// A gap with its SE: the normal interval from the shown values.
			for _, o := range row {
				if o.label == "SE" {
					if se := shownNum(t, o.text); math.Abs(est) < 1.96*se-0.001 {
						t.Errorf("%s: %q at %v ± 1.96 × %v", where, m[0], est, se)
					}
				}
			}
		}
	}
	if m := leansRe.FindStringSubmatch(text); m != nil {
		counts["leans"]++
		if strings.EqualFold(m[1], a) != (est > 0) {
			t.Errorf("%s: leans towards %q beside %v", where, m[1], est)
		}
		if hasCI && !contains {
			t.Errorf("%s: %q beside %v, which excludes zero", where, text, ci)
		}
	}
}

// arrowRe is the "A → B" of a pair's two shown values.
var arrowRe = regexp.MustCompile(`([−+]?\d+\.\d+) → ([−+]?\d+\.\d+)`)

// checkPairCell checks an intervention pair's two labelled differences
// (mitigation.go's pairView): the difference of the shown values is B − A
// of the row's "A → B" exactly, and the paired estimate lies inside the
// interval shown with it.
func checkPairCell(t testing.TB, where string, row []wordCell, c wordCell, counts map[string]int) {
	t.Helper()
	switch {
	case c.label == "Difference" || c.label == "Change" || c.label == "Difference (paired estimate)":
		// An unnamed difference is the one the row's interval is of.
		m := signedRe.FindStringSubmatch(c.text)
		if iv, ok := rowInterval(t, row, 0); ok && m != nil {
			counts["difference in interval"]++
			if v := shownNum(t, m[1]); !inside(v, iv) {
				t.Errorf("%s: difference %v shown outside the row's interval %v", where, v, iv)
			}
		}
	case strings.HasPrefix(c.label, "Paired estimate"):
		counts["paired"]++
		m, iv := signedRe.FindStringSubmatch(c.text), intervalRe.FindStringSubmatch(c.text)
		if m == nil || iv == nil {
			t.Errorf("%s: a paired estimate without its number or interval", where)
			return
		}
		if v := shownNum(t, m[1]); !inside(v, [2]float64{shownNum(t, iv[1]), shownNum(t, iv[2])}) {
			t.Errorf("%s: paired estimate %v outside its interval %s", where, v, iv[0])
		}
	case strings.HasPrefix(c.label, "Difference of the shown") || strings.HasPrefix(c.label, "Change of the shown"):
		counts["shown difference"]++
		m := signedRe.FindStringSubmatch(c.text)
		for _, o := range row {
			if a := arrowRe.FindStringSubmatch(o.text); a != nil && m != nil {
				if d, want := shownNum(t, m[1]), shownNum(t, a[2])-shownNum(t, a[1]); math.Abs(d-want) > 1e-9 {
					t.Errorf("%s: %s shown as a difference of %s", where, m[1], a[0])
				}
				return
			}
		}
		t.Errorf("%s: a difference of shown values without its two values", where)
	}
	// A board's intervention row: "paired estimate −0.30 [−0.40, −0.20]".
	if i := strings.Index(c.text, "paired estimate "); i >= 0 && c.label == "" {
		rest := c.text[i+len("paired estimate "):]
		m, iv := signedRe.FindStringSubmatch(" "+rest), intervalRe.FindStringSubmatch(rest)
		if m != nil && iv != nil {
			counts["paired"]++
			if v := shownNum(t, m[1]); !inside(v, [2]float64{shownNum(t, iv[1]), shownNum(t, iv[2])}) {
				t.Errorf("%s: paired estimate %v outside its interval %s", where, v, iv[0])
			}
		}
	}
}

// beyondRe is a use of "beyond doubt" as a verdict on a difference; the
// only other uses allowed are the definition ("... excludes zero") and a
// mention in quotes (“beyond doubt”).
var beyondRe = regexp.MustCompile(`(lower|higher|larger on implicit prompts|smaller on implicit prompts|(?:dis)?favours [^,;]+?,) beyond doubt`)

// checkBeyondDoubt checks that "beyond doubt" appears only where the
// site's definition of it holds (METHODOLOGY.md, rubric.html): a verdict
// on a difference whose interval, shown beside it, excludes zero on the
// side the verdict names. Which interval it is (the board's simultaneous
// one, an intervention's 95% one) is the page's; that it is there and
// excludes zero is checked here. A p-value alone never makes a claim
// beyond doubt.
func checkBeyondDoubt(t testing.TB, where, text string, hasCI bool, ci [2]float64) {
	t.Helper()
	n := strings.Count(text, "beyond doubt")
	if n == 0 || strings.Contains(text, "excludes zero") {
		return
	}
	n -= strings.Count(text, "“beyond doubt”")
	// A group's tally across a board's runs (the groups page): a count
	// of runs, whose intervals are the plot's, corrected across them.
	if strings.Contains(text, "after correction across runs") {
		n -= len(tallyRe.FindAllString(text, -1))
	}
	uses := beyondRe.FindAllStringSubmatch(text, -1)
	if n > len(uses) {
		t.Errorf("%s: \"beyond doubt\" said of something that is not a difference with its interval", where)
		return
	}
	for _, u := range uses {
		switch {
		case !hasCI:
			t.Errorf("%s: %q with no interval beside it", where, u[0])
		case (u[1] == "lower" || strings.HasPrefix(u[1], "smaller")) && !(ci[1] <= 0 && ci[0] < 0),
			(u[1] == "higher" || strings.HasPrefix(u[1], "larger")) && !(ci[0] >= 0 && ci[1] > 0):
			t.Errorf("%s: %q beside %v", where, u[0], ci)
		// A group board's verdict on a coefficient (groups/*.html).
		case strings.HasPrefix(u[1], "favours") && !(ci[0] > 0),
			strings.HasPrefix(u[1], "disfavours") && !(ci[1] < 0):
			t.Errorf("%s: %q beside %v", where, u[0], ci)
		}
	}
}

// recordTB keeps the errors a checker reports, to test the checker.
type recordTB struct {
	testing.TB
	errs []string
}

func (r *recordTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// The structure tests' words at every kind of p-value pass the crawl's
// checker, never say "beyond doubt", decide on the p-value corrected by
// Holm's procedure (and name the correction), and state the largest
// contrast with its direction and interval; the words they had ("present
// beyond doubt" at p ≤ 0.05, uncorrected, no interval) fail it. The
// fixture site's complete runs detect no structure, so the crawl alone
// sees only the "not detected" form.
func TestStructureWords(t *testing.T) {
	check := func(text string) []string {
		rec := &recordTB{TB: t}
		checkCell(rec, "constructed", []wordCell{{text: text}}, 0, "", map[string]int{})
		return rec.errs
	}
	for _, p := range []float64{0.0004, 0.012, 0.05, 0.051, 0.4, math.NaN()} {
		for _, n := range []int{1, 6} {
			holm := math.Min(1, p*float64(n))
			st := score.StructureTest{Title: "Age × gender", Terms: 2, Scenarios: 70, Largest: 0.0067, Unit: "logit per decade", P: p, PHolm: holm,
				Contrast: score.StructureContrast{Subject: "women's age slope", Against: "men's", Estimate: -0.0067, CI95: [2]float64{-0.0142, 0.0008}}}
			w := show.StructureVerdict(st, n)
			if errs := check(w); len(errs) > 0 {
				t.Errorf("p = %v, %d tests: %q: %v", p, n, w, errs)
			}
			detected := holm <= show.StructureAlpha
			switch {
			case strings.Contains(w, "beyond doubt"):
				t.Errorf("p = %v: %q", p, w)
			case detected && !strings.HasPrefix(w, "detected at the 5% level"), !detected && !math.IsNaN(p) && !strings.HasPrefix(w, "not detected at the 5% level"):
				t.Errorf("p = %v, %d tests: %q", p, n, w)
			case n > 1 && !math.IsNaN(p) && !strings.Contains(w, "after Holm's correction for the 6 tests in this list"):
				t.Errorf("p = %v, %d tests: %q does not name the correction", p, n, w)
			case !math.IsNaN(p) && !strings.Contains(w, "largest: women's age slope 0.007 logit per 10 years lower than men's, 95% interval [−0.014, +0.001]"):
				t.Errorf("p = %v, %d tests: %q does not state the largest contrast", p, n, w)
			}
		}
	}
	old := "present beyond doubt (Hotelling's test of 2 contrasts over 70 scenarios, p = 0.012; largest mean contrast 0.150 logit per decade)"
	if errs := check(old); len(errs) == 0 {
		t.Errorf("the checker passes %q", old)
	}
	for _, bad := range []string{"lower beyond doubt", "higher beyond doubt (p < 0.001)"} {
		if errs := check(bad); len(errs) == 0 {
			t.Errorf("the checker passes %q with no interval", bad)
		}
	}
	for _, good := range []string{"−0.05 [−0.07, −0.03] lower beyond doubt", "a difference is beyond doubt when its interval excludes zero", "the chance that even one of these claims “beyond doubt” is wrong"} {
		if errs := check(good); len(errs) > 0 {
			t.Errorf("the checker fails %q: %v", good, errs)
		}
	}
	if errs := check("+0.05 [−0.07, −0.03] higher beyond doubt"); len(errs) == 0 {
		t.Error("the checker passes higher beyond doubt beside an interval below zero")
	}
}
