package vocab

// The summaries at the top of the boards and of every run page: a few
// sentences generated from the numbers, each piece of text that names a
// glossary term linking it. The facts come in plain values (numbers in
// logits, names, verdicts already decided by the statistics), so that the
// words are all made here and tested here.

import (
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/numfmt"
)

// A Piece is a stretch of a sentence: its text, and the glossary term it
// links (a Term's ID), or "". Name marks a name from the inputs (a
// model's, an intervention's), which the page isolates (<bdi>) from the
// words around it.
type Piece struct {
	Text, Term string
	Name       bool
}

// A Sentence is pieces of text, read one after another.
type Sentence []Piece

// A Summary is sentences, read in order.
type Summary []Sentence

// String is the summary as plain text.
func (s Summary) String() string {
	var b strings.Builder
	for i, st := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, p := range st {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// sentence builds a Sentence: plain text with t, a term with term.
type sentence struct{ s Sentence }

func (b *sentence) t(text ...string) *sentence {
	for _, x := range text {
		if n := len(b.s); n > 0 && b.s[n-1].Term == "" && !b.s[n-1].Name {
			b.s[n-1].Text += x
		} else {
			b.s = append(b.s, Piece{Text: x})
		}
	}
	return b
}

// name adds a name from the inputs.
func (b *sentence) name(text string) *sentence {
	b.s = append(b.s, Piece{Text: text, Name: true})
	return b
}

func (b *sentence) term(id, text string) *sentence {
	b.s = append(b.s, Piece{Text: text, Term: id})
	return b
}

// board writes a board's name ("explicit-prompt log-probability runs"),
// its prompt variant a term.
func (b *sentence) board(name string) *sentence {
	for _, v := range []string{"explicit", "implicit"} {
		if i := strings.Index(name, v); i >= 0 && (i == 0 || name[i-1] == ' ') {
			return b.t(name[:i]).term("variant", v).t(name[i+len(v):])
		}
	}
	return b.t(name)
}

// upTo writes UpTo(g, shownDigits), its unit a term: "up to 4.7 pp of
// P(yes)".
func (b *sentence) upTo(g float64, shownDigits int) *sentence {
	if math.IsNaN(g) {
		return b
	}
	return b.t("up to ", numfmt.Fixed(math.Abs(PointsAtHalf(round(g, shownDigits))), 1), " ").term("pp", PP).t(" of P(yes)")
}

// Standing is where a run stands on its board.
type Standing struct {
	// Ranked: Rank (Tied: shared with another run) among Of ranked runs
	// of Board ("explicit-prompt log-probability runs"), with its 95% rank
	// set Set.
	Ranked bool
	Rank   int
	Tied   bool
	Of     int
	Set    [2]int
	Board  string
	// Otherwise why not: the rules it fails (Rules with Pass false), or,
	// when it fails none, Why.
	Why string
}

// Rule is one of the ranking rules a run is held to, with the run's
// value and the rule's bound, as shown ("0.970", "0.99").
type Rule struct {
	Kind         RuleKind
	Value, Bound string
	Pass         bool
}

// RuleKind names a ranking rule.
type RuleKind int

const (
	// MeanMass: the mean answer mass is at least the bound.
	MeanMass RuleKind = iota
	// Parsed: the share of sampled answers that are a yes or a no is at
	// least the bound.
	Parsed
	// Missing: the share of the dataset's prompts missing is at most the
	// bound.
	Missing
)

// passed writes a rule the run passes: "mean answer mass 0.993 (at least
// 0.99)".
func (r Rule) passed(b *sentence) {
	switch r.Kind {
	case MeanMass:
		b.term("answer-mass", "mean answer mass").t(" ", r.Value, " (at least ", r.Bound, ")")
	case Parsed:
		b.t(r.Value, " of answers a yes or a no (at least ", r.Bound, ")")
	case Missing:
		b.t(r.Value, " of prompts missing (at most ", r.Bound, ")")
	}
}

// failed writes a rule the run fails: "its mean answer mass is 0.970,
// below 0.99".
func (r Rule) failed(b *sentence) {
	switch r.Kind {
	case MeanMass:
		b.t("its ").term("answer-mass", "mean answer mass").t(" is ", r.Value, ", below ", r.Bound)
	case Parsed:
		b.t("only ", r.Value, " of its answers are a yes or a no, below ", r.Bound)
	case Missing:
		b.t(r.Value, " of its prompts are missing, more than ", r.Bound)
	}
}

// Value is a score in logits with its 95% interval.
type Value struct {
	Estimate float64
	CI       [2]float64
}

// Effect is a gap between two groups of people, in logits, with its
// standard error: positive favours Group over Against (names as the site
// writes groups: "Black", "female", "older people"). Apart, for the age
// gap, says how far apart the two people are ("33⅓ years apart"). Of is
// how many gaps it is the largest of: it is beyond doubt when its
// interval corrected for choosing it (Bonferroni over Of) excludes zero.
type Effect struct {
	Group, Against string
	Gap, SE        float64
	Apart          string
	Of             int
}

// Change is a difference of composites with its 95% interval, and whether
// it is beyond doubt (decided by the statistics that made it: an
// intervention's Holm-adjusted test, a paired interval).
type Change struct {
	Estimate float64
	CI       [2]float64
	Beyond   bool
}

// Intervention is a prompt intervention's change of a run's composite:
// the intervention's run minus the default prompt's.
type Intervention struct {
	Name string
	Change
}

// RunFacts are the numbers a run's summary says.
type RunFacts struct {
	Model     string
	Standing  Standing
	Composite Value
	// Largest is the largest gap between two groups, over every
	// attribute; nil for a run without coefficients.
	Largest *Effect
	// Implicit is implicit minus explicit composite of the model's two
	// default-prompt runs, when it has both.
	Implicit *Change
	// Interventions are this run's intervention runs against it; Against
	// is, for an intervention's run, its own change against the default
	// prompt's run (Name its intervention).
	Interventions []Intervention
	Against       *Intervention
	// Rules are the ranking rules, with the run's values.
	Rules []Rule
}

// MaxInterventions is the most interventions a run's summary names.
const MaxInterventions = 2

// z95 is the normal quantile of a 95% interval.
const z95 = 1.959963984540054

// RunSummary is a run's summary: where it stands, its composite, its
// largest effect, explicit against implicit, its interventions, and its
// ranking rules.
func RunSummary(f RunFacts) Summary {
	var out Summary
	st := f.Standing
	var b sentence
	switch {
	case st.Ranked:
		b.name(f.Model).t(" ranks ", rank(st.Rank, st.Tied), " of ", strconv.Itoa(st.Of), " ").board(st.Board).t(" (")
		b.term("rank-set", "95% rank set")
		b.t(" ", span(st.Set), "), with a ").term("composite", "composite").t(" of ", numfmt.Fixed(f.Composite.Estimate, 2), " ")
		b.term("logit", "logits").t(" (").upTo(f.Composite.Estimate, 2).t(").")
	case f.Against != nil:
		b.name(f.Model).t(" is ").term("ranked", "not ranked").t(": the boards rank the default prompt, and this run adds the ").name(f.Against.Name).t(" ").term("intervention", "intervention").t(".")
		if !math.IsNaN(f.Composite.Estimate) {
			b.t(" Its ").term("composite", "composite").t(" is ", numfmt.Fixed(f.Composite.Estimate, 2), " ").term("logit", "logits").t(" (").upTo(f.Composite.Estimate, 2).t(").")
		}
	default:
		b.name(f.Model).t(" is ").term("ranked", "not ranked").t(": ")
		whyNot(&b, st, f.Rules)
		b.t(".")
		if !math.IsNaN(f.Composite.Estimate) {
			b.t(" Its ").term("composite", "composite").t(" is ", numfmt.Fixed(f.Composite.Estimate, 2), " ").term("logit", "logits").t(" (").upTo(f.Composite.Estimate, 2).t(").")
		}
	}
	out = append(out, b.s)
	if e := f.Largest; e != nil {
		out = append(out, effect(e))
	}
	if c := f.Implicit; c != nil {
		var b sentence
		b.t("On ").term("variant", "implicit prompts").t(" its composite is ", changeWords(c.Estimate), " than on explicit ones (").term("interval", "95% interval").t(" ", signedSpan(c.CI), ")")
		out = append(out, verdict(&b, c.Beyond).s)
	}
	if a := f.Against; a != nil {
		var b sentence
		b.t("Against the same model's default-prompt run its composite is ", changeWords(a.Estimate), " (").term("interval", "95% interval").t(" ", signedSpan(a.CI), ")")
		out = append(out, verdict(&b, a.Beyond).s)
	}
	if len(f.Interventions) > 0 {
		// At most MaxInterventions, then how many more the mitigation
		// page has, so that the summary stays short.
		var b sentence
		b.t("With its ").term("intervention", "interventions").t(", its composite:")
		for i, iv := range f.Interventions {
			if i == MaxInterventions {
				b.t("; and ", strconv.Itoa(len(f.Interventions)-i), " more on the mitigation page")
				break
			}
			if i > 0 {
				b.t(";")
			}
			b.t(" ").name(iv.Name).t(" ", changeWords(iv.Estimate), " (", signedSpan(iv.CI), "), ")
			if !iv.Beyond {
				b.t("not ")
			}
			b.term("beyond-doubt", "beyond doubt")
		}
		out = append(out, b.t(".").s)
	}
	if st.Ranked && len(f.Rules) > 0 {
		var b sentence
		b.t("It passes the ranking rules: ")
		for i, r := range f.Rules {
			switch {
			case i > 0 && i == len(f.Rules)-1:
				b.t(" and ")
			case i > 0:
				b.t("; ")
			}
			r.passed(&b)
		}
		b.t(".")
		out = append(out, b.s)
	}
	return fit(out)
}

// effect says a gap in pp of P(yes) for a person at 50%, with its 95%
// interval, taken in the direction of the favoured side.
func effect(e *Effect) Sentence {
	favoured, other, g := e.Group, e.Against, e.Gap
	if g < 0 {
		favoured, other, g = other, favoured, -g
	}
	lo, hi := PointsAtHalf(g-z95*e.SE), PointsAtHalf(g+z95*e.SE)
	// The words follow the digits: an interval shown as +0.0 does not
	// exclude zero.
	excludes := lo > 0 && numfmt.Fixed(lo, 1) != "0.0"
	corrected := PointsAtHalf(g - zOf(e.Of)*e.SE)
	beyond := excludes && corrected > 0 && numfmt.Fixed(corrected, 1) != "0.0"
	var b sentence
	b.t("Its largest effect ")
	if excludes {
		b.t("favours ")
	} else {
		b.t("leans towards ")
	}
	b.t(People(favoured), " over ", People(other))
	if e.Apart != "" {
		b.t(" (", e.Apart, ")")
	}
	// The point from the gap as the site shows a coefficient, at two
	// decimals (the group boards, the coefficient chart, pair.html), so
	// that every page gives one effect the same pp; the interval from the
	// unrounded gap, which its verdict reads.
	b.t(" by up to ", numfmt.Fixed(PointsAtHalf(round(g, 2)), 1), " ").term("pp", PP).t(" of P(yes) (").term("interval", "95% interval").t(" ", numfmt.Signed(lo, 1), " to ", numfmt.Signed(hi, 1), " pp)")
	if excludes && !beyond {
		// The interval excludes zero, but not once corrected for having
		// picked the largest of Of gaps.
		return b.t(": not ").term("beyond-doubt", "beyond doubt").t(" once corrected for picking the largest of ", strconv.Itoa(e.Of), " gaps.").s
	}
	return verdict(&b, beyond).s
}

// zOf is the normal quantile of a two-sided 95% interval corrected
// (Bonferroni) for n intervals: 1.96 for one.
func zOf(n int) float64 {
	if n <= 1 {
		return z95
	}
	return math.Sqrt2 * math.Erfinv(1-0.05/float64(n))
}

// verdict ends a sentence with whether its difference is beyond doubt.
func verdict(b *sentence, beyond bool) *sentence {
	if beyond {
		return b.t(": ").term("beyond-doubt", "beyond doubt").t(".")
	}
	return b.t(": not ").term("beyond-doubt", "beyond doubt").t(", it may be zero.")
}

// changeWords writes a signed change of a composite: "0.22 logits
// lower", "0.05 logits higher", "unchanged".
func changeWords(d float64) string {
	switch s := numfmt.Fixed(math.Abs(d), 2); {
	case s == "0.00":
		return "unchanged at two decimals"
	case d < 0:
		return s + " logits lower"
	default:
		return s + " logits higher"
	}
}

// whyNot says why a run is not ranked: the rules it fails, with their
// numbers, or the board's reason.
func whyNot(b *sentence, st Standing, rules []Rule) {
	n := 0
	for _, r := range rules {
		if !r.Pass {
			if n > 0 {
				b.t(", and ")
			}
			r.failed(b)
			n++
		}
	}
	if n == 0 {
		b.t(st.Why)
	}
}

// rank writes a rank as an ordinal, "2nd", and "2nd (tied)" when
// another run shares it.
func rank(r int, tied bool) string {
	s := Ordinal(r)
	if tied {
		s += " (tied)"
	}
	return s
}

// Ordinal writes 1 as "1st", 2 as "2nd", 11 as "11th", 23 as "23rd".
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// span writes a rank set: "1–3", or "4" when it is one rank.
func span(s [2]int) string {
	if s[0] == s[1] {
		return strconv.Itoa(s[0])
	}
	return strconv.Itoa(s[0]) + "–" + strconv.Itoa(s[1])
}

// signedSpan writes an interval of logits: "−0.24 to −0.20".
func signedSpan(ci [2]float64) string {
	return numfmt.Signed(ci[0], 2) + " to " + numfmt.Signed(ci[1], 2)
}

// people names the people of a group in a sentence.
var people = map[string]string{
	"female": "women", "male": "men", "non-binary": "non-binary people",
	"white": "white people", "Black": "Black people", "Asian": "Asian people", "Hispanic": "Hispanic people",
	"Native American": "Native American people",
}

// People names the people of a group as a sentence does: "women",
// "Black people"; a name it does not know ("older people") as it is.
func People(group string) string {
	if p, ok := people[group]; ok {
		return p
	}
	return group
}

// BoardRun is a ranked run as a board's summary names it: its model, its
// score in the board's view (logits), and for the composite the attribute
// most of it is in.
type BoardRun struct {
	Model  string
	Value  float64
	Mostly string
}

// BoardFacts are the numbers a board's summary says, of one table of
// ranked runs.
type BoardFacts struct {
	// Board names its runs ("explicit-prompt log-probability runs"), and
	// View the score it ranks by ("composite", "race view").
	Board, View string
	// N runs are ranked; Lowest and Highest are the first and the last,
	// Set the lowest's 95% rank set.
	N               int
	Lowest, Highest BoardRun
	Set             [2]int
	// Ahead is how many of the other ranked runs the lowest is lower than
	// beyond doubt; Close names some of the others (at most MaxClose, the
	// nearest first), whose difference from it is not beyond doubt.
	Ahead int
	Close []BoardRun
	// Pairs of ranked runs, and how many of them differ beyond doubt.
	Pairs, PairsBeyond int
	// Unranked names the board's runs without a rank but its
	// intervention runs (at most MaxClose of UnrankedN), and Interventions
	// counts those.
	Unranked      []string
	UnrankedN     int
	Interventions int
}

// MaxClose is the most runs a board's summary names in a list.
const MaxClose = 3

// BoardSummary is a board's summary: per table of ranked runs, the least
// biased, which differences from it are beyond doubt and which are not;
// for the first table also how many pairs differ beyond doubt, the most
// biased and the runs not ranked; the others' in a sentence each.
func BoardSummary(variant string, tables []BoardFacts) Summary {
	var out Summary
	if len(tables) == 0 {
		var b sentence
		return Summary{b.t("No run of the ", variant, " prompts yet.").s}
	}
	for i, f := range tables {
		var b sentence
		switch {
		case f.N == 0 && i == 0:
			out = append(out, b.t("None of the ").board(f.Board).t(" is ranked yet.").s)
		case f.N == 0:
		case f.N == 1:
			b.name(f.Lowest.Model).t(" is the only ", strings.TrimSuffix(f.Board, "s"), " with a score, and is ").term("ranked", "not ranked").t(": a board ranks two runs or more.")
			out = append(out, b.s)
		case i > 0:
			// A second table in a sentence: its least biased run and
			// whether it is beyond doubt the lowest.
			b.t("Among the ", strconv.Itoa(f.N), " ").board(f.Board).t(", ").name(f.Lowest.Model).t(" is least biased (", numfmt.Fixed(f.Lowest.Value, 2), ")")
			if f.Ahead == f.N-1 {
				b.t(", lower than ", each(f.N-1), " ").term("beyond-doubt", "beyond doubt")
			} else {
				b.t(", not ").term("beyond-doubt", "beyond doubt").t(" lower than ", strconv.Itoa(f.N-1-f.Ahead), " of the others")
			}
			out = append(out, b.t(".").s)
		default:
			out = append(out, lowest(f)...)
		}
		if i == 0 && f.UnrankedN+f.Interventions > 0 {
			var u sentence
			u.term("ranked", "Not ranked").t(": ")
			for k, n := range f.Unranked {
				if k > 0 {
					u.t(", ")
				}
				u.name(n)
			}
			sep := func() {
				if len(u.s) > 2 {
					u.t(", and ")
				}
			}
			if more := f.UnrankedN - len(f.Unranked); more > 0 {
				sep()
				u.t(strconv.Itoa(more) + " more")
			}
			if f.Interventions > 0 {
				sep()
				u.term("intervention", Plural(f.Interventions, "prompt intervention")).t(" (compared with the default prompt on the mitigation page)")
			}
			out = append(out, u.t(".").s)
		}
	}
	return fit(out)
}

// lowest says of a board's first table of two or more ranked runs who is
// least biased and which differences from it are beyond doubt, how many
// pairs differ beyond doubt and who is most biased.
func lowest(f BoardFacts) Summary {
	var out Summary
	var b sentence
	b.t("Least biased of the ", strconv.Itoa(f.N), " ranked ").board(f.Board).t(": ").name(f.Lowest.Model).t(", ")
	if f.View == "composite" {
		b.term("composite", "composite")
	} else {
		b.term("view", f.View)
	}
	b.t(" ", numfmt.Fixed(f.Lowest.Value, 2), " ").term("logit", "logits").t(" (").upTo(f.Lowest.Value, 2).t("; ").term("rank-set", "95% rank set").t(" ", span(f.Set), ").")
	out = append(out, b.s)
	var c sentence
	others := f.N - 1
	switch {
	case f.Ahead == others:
		c.t("It is lower than ", each(others), " ").term("beyond-doubt", "beyond doubt").t(".")
	case f.Ahead == 0:
		c.t("It is not lower than any of the other ", strconv.Itoa(others), " ").term("beyond-doubt", "beyond doubt").t(":")
		closeList(&c, f.Close, others)
		c.t(".")
	default:
		c.t("It is lower than ", strconv.Itoa(f.Ahead), " of the other ", strconv.Itoa(others), " ").term("beyond-doubt", "beyond doubt").t("; not beyond doubt against")
		closeList(&c, f.Close, others-f.Ahead)
		c.t(".")
	}
	out = append(out, c.s)
	if f.N > 2 {
		var p sentence
		pairs := strconv.Itoa(f.PairsBeyond)
		if f.PairsBeyond == 0 {
			pairs = "None"
		}
		p.t(pairs, " of the board's ", strconv.Itoa(f.Pairs), " pairs of runs differ beyond doubt. Most biased: ").name(f.Highest.Model).t(", ", numfmt.Fixed(f.Highest.Value, 2), " (").upTo(f.Highest.Value, 2).t(")")
		if f.Highest.Mostly != "" {
			p.t(", mostly ", f.Highest.Mostly)
		}
		out = append(out, p.t(".").s)
	}
	return out
}

// MaxWords is the most words a summary has: the first screen's worth.
const MaxWords = 120

// fit keeps the sentences of a summary, which come most important first,
// while they fit in MaxWords: one that does not is left out.
func fit(s Summary) Summary {
	var out Summary
	n := 0
	for _, st := range s {
		w := len(strings.Fields(Summary{st}.String()))
		if n+w > MaxWords {
			continue
		}
		out, n = append(out, st), n+w
	}
	return out
}

// each writes "the other run" or "each of the other 4".
func each(n int) string {
	if n == 1 {
		return "the other run"
	}
	return "each of the other " + strconv.Itoa(n)
}

// closeList writes the runs whose difference from the lowest is not
// beyond doubt: " Synthetic Near 70B (0.04)", then how many more of n.
func closeList(b *sentence, close []BoardRun, n int) {
	if len(close) == 0 {
		return
	}
	b.t(" ")
	for i, r := range close {
		if i > 0 {
			b.t(", ")
		}
		b.name(r.Model).t(" (", numfmt.Fixed(r.Value, 2), ")")
	}
	if more := n - len(close); more > 0 {
		b.t(" and ", strconv.Itoa(more), " more")
	}
}
