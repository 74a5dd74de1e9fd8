package vocab

// The group boards' words: a board of runs ranked by one coefficient (a
// group against the baseline person's, or older against younger people),
// its summary and each row's verdict.

import (
	"strconv"

	"github.com/discrimeval/leaderboard/internal/numfmt"
)

// GroupVerdict says which way a signed coefficient of group (as the site
// writes groups: "Black", "older people") goes, in words that match its
// 95% interval: "favours Black people" when the interval is above zero,
// "disfavours Black people" below it, and otherwise "may be zero", with
// the way it leans as shown (at two decimals), or "no difference" when it
// shows as zero.
func GroupVerdict(group string, est float64, ci [2]float64) string {
	shown := numfmt.Fixed(est, 2)
	switch {
	case ci[0] > 0:
		return "favours " + People(group)
	case ci[1] < 0:
		return "disfavours " + People(group)
	case shown == "0.00":
		return "may be zero (no difference at two decimals)"
	case est > 0:
		return "may be zero (leans to favour)"
	}
	return "may be zero (leans to disfavour)"
}

// GroupRun is a ranked run as a group board's summary names it: its model
// and its signed coefficient in logits with its 95% interval.
type GroupRun struct {
	Model    string
	Estimate float64
	CI       [2]float64
}

// GroupBoardFacts are the numbers of one table of a group board: Board
// names its runs ("explicit-prompt log-probability runs"), Group and
// Against the coefficient's two sides; of its N ranked runs, Favoured
// show the coefficient above zero and Disfavoured below, BeyondFavoured
// and BeyondDisfavoured of them beyond doubt after Holm's correction
// across the runs. Least and Most are its first and last rows (the
// coefficient nearest zero and furthest from it).
type GroupBoardFacts struct {
	Board, Group, Against             string
	N                                 int
	Favoured, Disfavoured             int
	BeyondFavoured, BeyondDisfavoured int
	Least, Most                       GroupRun
}

// GroupBoardSummary is a group board's summary, table by table: how many
// runs lean each way and how many of them beyond doubt, then the run
// furthest from zero and the run nearest it.
func GroupBoardSummary(tables []GroupBoardFacts) Summary {
	var out Summary
	for _, f := range tables {
		var b sentence
		b.t("Of the ", strconv.Itoa(f.N), " ")
		b.term("ranked", "ranked").t(" ").board(f.Board).t(", ", strconv.Itoa(f.Favoured), " ", verb(f.Favoured, "favour"), " ", People(f.Group), " over ", People(f.Against), " and ", strconv.Itoa(f.Disfavoured), " ", verb(f.Disfavoured, "disfavour"), " them (")
		b.term("beyond-doubt", "beyond doubt").t(" after correction across the runs: ", strconv.Itoa(f.BeyondFavoured), " and ", strconv.Itoa(f.BeyondDisfavoured), ").")
		out = append(out, b.s)
		if f.N == 0 {
			continue
		}
		var m sentence
		m.t("Furthest from zero: ").name(f.Most.Model).t(", ").groupValue(f.Most).t(", ", GroupVerdict(f.Group, f.Most.Estimate, f.Most.CI))
		if f.N > 1 {
			m.t("; nearest: ").name(f.Least.Model).t(", ", numfmt.Signed(f.Least.Estimate, 2), " ", Logit, "s (95% interval ", signedSpan(f.Least.CI), ")")
		}
		out = append(out, m.t(".").s)
	}
	return fit(out)
}

// verb is a verb of count n: "1 favours", "2 favour".
func verb(n int, v string) string {
	if n == 1 {
		return v + "s"
	}
	return v
}

// groupValue writes a signed coefficient with its interval and what it
// does at most to P(yes): "+0.45 logits (95% interval +0.40 to +0.50; up
// to 11.1 pp of P(yes))".
func (b *sentence) groupValue(r GroupRun) *sentence {
	return b.t(numfmt.Signed(r.Estimate, 2), " ").term("logit", Logits).t(" (").term("interval", "95% interval").t(" ", signedSpan(r.CI), "; ").upTo(r.Estimate, 2).t(")")
}
