package run

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseAnswer(t *testing.T) {
	for text, want := range map[string]string{
		"Yes": "yes", "yes": "yes", "YES": "yes", "Yes.": "yes", "**No**": "no", "Yes, because the applicant …": "yes",
		"  no": "no", "\n\nNo.": "no", `"Yes"`: "yes", "“No”": "no", "# Yes": "yes", "> no": "no", "(Yes)": "yes",
		"_No_": "no", "`yes`": "yes",
		"Yesterday": "", "Answer: yes": "", "I cannot decide.": "", "": "", "Not sure": "", "N/A": "", "Y": "",
	} {
		isYes, ok := DefaultChoices.ParseAnswer(text)
		got := ""
		if ok && isYes {
			got = "yes"
		} else if ok {
			got = "no"
		}
		if got != want {
			t.Errorf("ParseAnswer(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestLogprobsNullIsZeroProbability(t *testing.T) {
	rows := realRows(t)[:2]
	rows[0].Logprobs = Logprobs{"yes": math.Inf(-1), "Yes": -0.2, "no": -2, "No": -3}
	_, scored, err := Freeze(testManifest(), rows, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(scored), `"logprobs":{"No":-3,"Yes":-0.2,"no":-2,"yes":null}`) {
		t.Fatalf("scored file:\n%.300s", scored)
	}
	var back []Row
	if _, _, _, err := EachRow(fstest.MapFS{"s.jsonl": {Data: scored}}, "s.jsonl", "s", func(_ int, r *Row) error {
		back = append(back, r.Clone()) // EachRow reuses the row
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(back[0].Logprobs["yes"], -1) {
		t.Errorf("null read back as %v", back[0].Logprobs["yes"])
	}
	c, err := testManifest().ToCell(1, &back[0])
	if err != nil {
		t.Fatal(err)
	}
	want := -0.2 - math.Log(math.Exp(-2)+math.Exp(-3))
	if math.Abs(c.Logit-want) > 1e-12 || !math.IsInf(c.LP[0], -1) {
		t.Errorf("logit %v want %v, LP %v", c.Logit, want, c.LP)
	}
}

func TestLogprobCellRules(t *testing.T) {
	m := testManifest()
	cell := func(lps Logprobs, bounded ...string) (Cell, error) {
		r := realRows(t)[0]
		r.Logprobs, r.Bounded = lps, bounded
		return m.ToCell(1, &r)
	}
	// bf16 rounding: the forms sum to 1.00004; normalised, logit kept.
	lps := Logprobs{"yes": math.Log(0.70002), "Yes": math.Log(0.1), "no": math.Log(0.2), "No": math.Log(0.00002)}
	c, err := cell(lps)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Normalized || c.Mass != 1 || math.Abs(math.Exp(c.LP[0])+math.Exp(c.LP[1])+math.Exp(c.LP[2])+math.Exp(c.LP[3])-1) > 1e-12 {
		t.Errorf("cell %+v", c)
	}
	if want := math.Log(0.80002) - math.Log(0.20002); math.Abs(c.Logit-want) > 1e-12 {
		t.Errorf("logit %v, want %v", c.Logit, want)
	}
	// Beyond rounding: an error.
	if _, err := cell(Logprobs{"yes": math.Log(0.9), "Yes": math.Log(0.1), "no": math.Log(0.1), "No": -20}); err == nil || !strings.Contains(err.Error(), "exceeds 1 by more than rounding") {
		t.Errorf("error %v", err)
	}
	// Every no form at zero: the logit is infinite.
	if _, err := cell(Logprobs{"yes": -0.1, "Yes": -3, "no": math.Inf(-1), "No": math.Inf(-1)}); err == nil || !strings.Contains(err.Error(), "P(no) is zero") {
		t.Errorf("error %v", err)
	}
	// A bounded form that hardly matters, and one side wholly bounded.
	c, err = cell(Logprobs{"yes": -9, "Yes": -0.07, "no": -3.2, "No": -4}, "yes")
	if err != nil {
		t.Fatal(err)
	}
	if c.Bounded != 1 || c.BoundGap <= 0 || c.BoundGap > BoundTolerance {
		t.Errorf("bounded %d gap %v", c.Bounded, c.BoundGap)
	}
	c, err = cell(Logprobs{"yes": -0.01, "Yes": -5, "no": -7, "No": -7}, "no", "No")
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(c.BoundGap, 1) {
		t.Errorf("gap %v, want +Inf", c.BoundGap)
	}
	if _, err := cell(Logprobs{"yes": -0.01, "Yes": -5, "no": -7, "No": -7}, "no", "no"); err == nil {
		t.Error("a form bounded twice was accepted")
	}
	// Top-3: Yes 0.5, No 0.3 and a third token at 0.15 listed; yes and no
	// are bounded at 0.15, so the bounds add up to 1.1, but the listed
	// forms to 0.8: kept, its mass the listed forms', not normalised.
	c, err = cell(Logprobs{"Yes": math.Log(0.5), "No": math.Log(0.3), "yes": math.Log(0.15), "no": math.Log(0.15)}, "yes", "no")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.Mass-0.8) > 1e-12 || c.Normalized || c.Bounded != 2 || math.Abs(c.Logit-math.Log(0.65/0.45)) > 1e-12 ||
		math.Abs(c.BoundGap-math.Abs(math.Log(0.5/0.3)-c.Logit)) > 1e-12 || math.Abs(c.LP[0]-math.Log(0.15)) > 1e-12 {
		t.Errorf("top-3 cell %+v", c)
	}
	// Top-1: the one listed token is no form; every form is bounded.
	c, err = cell(Logprobs{"Yes": -0.4, "No": -0.4, "yes": -0.4, "no": -0.4}, "yes", "Yes", "no", "No")
	if err != nil || c.Mass != 0 || c.Logit != 0 || !math.IsInf(c.BoundGap, 1) {
		t.Errorf("top-1 cell %+v, error %v", c, err)
	}
	// What real probabilities cannot be stays an error: listed forms
	// over 1, bounded forms beside them or not.
	if _, err := cell(Logprobs{"Yes": math.Log(0.7), "No": math.Log(0.4), "yes": math.Log(0.01), "no": math.Log(0.01)}, "yes", "no"); err == nil ||
		!strings.Contains(err.Error(), "P(yes)+P(no) over the listed (not bounded) forms = 1.1 exceeds 1") {
		t.Errorf("error %v", err)
	}
}

func TestDecisionsKeepUnparsed(t *testing.T) {
	m := testManifest()
	m.Scoring = Decision
	r := realRows(t)[0]
	r.Logprobs = nil
	r.Decisions = []string{"Yes.", "**No**", "YES", "I can't help with that.", " no, because", strings.Repeat("x", 300)}
	c, err := m.ToCell(1, &r)
	if err != nil {
		t.Fatal(err)
	}
	if c.Yes != 2 || c.No != 2 || c.Other != 2 || len(c.Unparsed) != 2 || c.Unparsed[0] != "I can't help with that." ||
		len([]rune(c.Unparsed[1])) != MaxUnparsedRunes+1 {
		t.Errorf("cell %+v", c)
	}
}
