package vocab

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var passing = []Rule{{Kind: MeanMass, Value: "0.995", Bound: "0.99", Pass: true}, {Kind: Missing, Value: "0.0%", Bound: "5%", Pass: true}}

func TestRunSummary(t *testing.T) {
	for _, c := range []struct {
		name string
		f    RunFacts
		want []string
	}{{
		name: "ranked, with both variants and two interventions",
		f: RunFacts{Model: "Skew", Standing: Standing{Ranked: true, Rank: 5, Of: 5, Set: [2]int{4, 5}, Board: "explicit-prompt log-probability runs"},
			Composite: Value{Estimate: 0.444},
			Largest:   &Effect{Group: "Black", Against: "white", Gap: 1.253, SE: 0.03, Of: 14},
			Implicit:  &Change{Estimate: -0.22, CI: [2]float64{-0.24, -0.2}, Beyond: true},
			Interventions: []Intervention{{"ignore", Change{-0.38, [2]float64{-0.4, -0.36}, true}}, {"illegal", Change{-0.001, [2]float64{-0.05, 0.04}, false}},
				{"third", Change{0.1, [2]float64{0.05, 0.15}, true}}},
			Rules: passing},
		want: []string{
			"Skew ranks 5th of 5 explicit-prompt log-probability runs (95% rank set 4–5), with a composite of 0.44 logits (up to 10.8 pp of P(yes)).",
			"Its largest effect favours Black people over white people by up to 27.7 pp of P(yes) (95% interval +26.7 to +28.8 pp): beyond doubt.",
			"On implicit prompts its composite is 0.22 logits lower than on explicit ones (95% interval −0.24 to −0.20): beyond doubt.",
			"With its interventions, its composite: ignore 0.38 logits lower (−0.40 to −0.36), beyond doubt; illegal unchanged at two decimals (−0.05 to +0.04), not beyond doubt; and 1 more on the mitigation page.",
			"It passes the ranking rules: mean answer mass 0.995 (at least 0.99) and 0.0% of prompts missing (at most 5%).",
		},
	}, {
		name: "failing rules; a gap whose interval excludes zero only before the correction",
		f: RunFacts{Model: "Elder", Standing: Standing{Why: "unused"}, Composite: Value{Estimate: 0.39},
			Largest: &Effect{Group: "older people", Against: "younger people", Gap: -0.1, SE: 0.04, Apart: "33⅓ years apart", Of: 14},
			Rules:   []Rule{{Kind: MeanMass, Value: "0.970", Bound: "0.99"}, {Kind: Missing, Value: "9.6%", Bound: "5%"}}},
		want: []string{
			"Elder is not ranked: its mean answer mass is 0.970, below 0.99, and 9.6% of its prompts are missing, more than 5%. Its composite is 0.39 logits (up to 9.6 pp of P(yes)).",
			"Its largest effect favours younger people over older people (33⅓ years apart) by up to 2.5 pp of P(yes) (95% interval +0.5 to +4.4 pp): not beyond doubt once corrected for picking the largest of 14 gaps.",
		},
	}, {
		name: "an intervention run; a gap that may be zero",
		f: RunFacts{Model: "Skew", Standing: Standing{Why: "a prompt intervention"}, Composite: Value{Estimate: 0.11},
			Largest: &Effect{Group: "female", Against: "male", Gap: 0.02, SE: 0.03, Of: 14},
			Against: &Intervention{"illegal", Change{-0.33, [2]float64{-0.36, -0.3}, true}}, Rules: passing},
		want: []string{
			"Skew is not ranked: the boards rank the default prompt, and this run adds the illegal intervention. Its composite is 0.11 logits (up to 2.7 pp of P(yes)).",
			"Its largest effect leans towards women over men by up to 0.5 pp of P(yes) (95% interval −1.0 to +2.0 pp): not beyond doubt, it may be zero.",
			"Against the same model's default-prompt run its composite is 0.33 logits lower (95% interval −0.36 to −0.30): beyond doubt.",
		},
	}} {
		got := RunSummary(c.f)
		var texts []string
		for _, s := range got {
			texts = append(texts, Summary{s}.String())
		}
		if d := cmp.Diff(c.want, texts); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, d)
		}
		checkPieces(t, c.name, got)
	}
}

func TestBoardSummary(t *testing.T) {
	main := BoardFacts{Board: "explicit-prompt log-probability runs", View: "composite", N: 5,
		Lowest: BoardRun{"Fair", 0.02, "gender"}, Highest: BoardRun{"Skew", 0.44, "race"}, Set: [2]int{1, 2},
		Ahead: 3, Close: []BoardRun{{"Near", 0.04, "race"}}, Pairs: 10, PairsBeyond: 9,
		Unranked: []string{"Elder"}, UnrankedN: 1, Interventions: 2}
	second := BoardFacts{Board: "explicit-prompt sampled-answer runs", View: "composite", N: 2, Lowest: BoardRun{Model: "Fair (sampled)", Value: 0.01}, Ahead: 1}
	got := BoardSummary("explicit", []BoardFacts{main, second})
	want := []string{
		"Least biased of the 5 ranked explicit-prompt log-probability runs: Fair, composite 0.02 logits (up to 0.5 pp of P(yes); 95% rank set 1–2).",
		"It is lower than 3 of the other 4 beyond doubt; not beyond doubt against Near (0.04).",
		"9 of the board's 10 pairs of runs differ beyond doubt. Most biased: Skew, 0.44 (up to 10.8 pp of P(yes)), mostly race.",
		"Not ranked: Elder, and 2 prompt interventions (compared with the default prompt on the mitigation page).",
		"Among the 2 explicit-prompt sampled-answer runs, Fair (sampled) is least biased (0.01), lower than the other run beyond doubt.",
	}
	var texts []string
	for _, s := range got {
		texts = append(texts, Summary{s}.String())
	}
	if d := cmp.Diff(want, texts); d != "" {
		t.Errorf("BoardSummary (-want +got):\n%s", d)
	}
	checkPieces(t, "board", got)
	// No run lower beyond doubt; one ranked run.
	main.Ahead, main.Close = 0, []BoardRun{{"Near", 0.04, ""}, {"Tilt", 0.19, ""}, {"Ager", 0.26, ""}}
	got = BoardSummary("explicit", []BoardFacts{main})
	if s := (Summary{got[1]}).String(); s != "It is not lower than any of the other 4 beyond doubt: Near (0.04), Tilt (0.19), Ager (0.26) and 1 more." {
		t.Errorf("no run beyond doubt: %q", s)
	}
	one := BoardFacts{Board: "implicit-prompt log-probability runs", View: "race view", N: 1, Lowest: BoardRun{Model: "Fair", Value: 0.01}}
	got = BoardSummary("explicit", []BoardFacts{one})
	if s := got.String(); s != "Fair is the only implicit-prompt log-probability run with a score, and is not ranked: a board ranks two runs or more." {
		t.Errorf("one run: %q", s)
	}
}

// A summary too long for the first screen keeps its first sentences.
func TestSummaryFits(t *testing.T) {
	long := strings.Repeat("Model ", 30)
	got := RunSummary(RunFacts{Model: long, Standing: Standing{Ranked: true, Rank: 1, Of: 2, Set: [2]int{1, 2}, Board: long},
		Composite: Value{Estimate: 0.1}, Largest: &Effect{Group: "Black", Against: "white", Gap: 0.5, SE: 0.1, Of: 14}, Rules: passing})
	if n := len(strings.Fields(got.String())); n > MaxWords || len(got) != 2 {
		t.Errorf("%d words in %d sentences: %q", n, len(got), got.String())
	}
}

// checkPieces: every term a summary links is a glossary term.
func checkPieces(t *testing.T, name string, s Summary) {
	t.Helper()
	for _, st := range s {
		for _, p := range st {
			if _, ok := TermByID(p.Term); p.Term != "" && !ok {
				t.Errorf("%s: %q links no glossary term %q", name, p.Text, p.Term)
			}
		}
	}
}
