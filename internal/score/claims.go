package score

import (
	"math"
	"sort"

	"github.com/discrimeval/leaderboard/internal/run"
)

// ClaimTolerance is how far a number another tool reported may be from
// ours and still agree, in logit points: well above the 1e-6 at which lme4
// and statsmodels agree with each other, well below a displayed digit.
const ClaimTolerance = 1e-3

// Verdict is a claim against the recomputed number, in words.
type Verdict string

// Verdicts of a claim against the recomputed number.
const (
	Agrees        Verdict = "agrees"
	Disagrees     Verdict = "disagrees"
	NotComparable Verdict = "not comparable"
	NotRecomputed Verdict = "not recomputed"
)

// Mark is the sign a page shows before the verdict: a tick for a claim
// that agrees, a cross for one that disagrees, none otherwise.
func (v Verdict) Mark() string {
	switch v {
	case Agrees:
		return "✓"
	case Disagrees:
		return "✗"
	}
	return ""
}

// Claim is one number of a manifest's claimed block beside ours.
type Claim struct {
	Metric     string
	Claimed    float64
	Recomputed float64 // NaN when there is no number of ours to set beside it
	Verdict    Verdict // Agrees, Disagrees, NotComparable or NotRecomputed
	Why        string  // for NotComparable and NotRecomputed
}

// Claims compares a manifest's claimed numbers with the recomputed ones
// (a claim made on another prompt than the rows', claimed_prompt_form, is
// not comparable: "not comparable: different prompt: …"),
// by lm-evaluation-harness metric name (Compat), in metric order. The run
// page, its data file and the pull-request report all read this one
// verdict.
func Claims(m *run.Manifest, res *Result) []Claim {
	names := make([]string, 0, len(m.Claimed))
	for k := range m.Claimed {
		names = append(names, k)
	}
	sort.Strings(names)
	ours := map[string]float64{}
	if res.Scored {
		ours = Compat(res)
	}
	out := make([]Claim, 0, len(names))
	for _, n := range names {
		c := Claim{Metric: n, Claimed: float64(m.Claimed[n]), Recomputed: math.NaN()}
		v, ok := ours[n]
		if ok {
			c.Recomputed = v
		}
		switch {
		case m.ClaimedPromptForm != nil && m.PromptForm != nil && *m.ClaimedPromptForm != *m.PromptForm:
			c.Verdict, c.Why = NotComparable, "different prompt: the claim was made on one with "+m.ClaimedPromptForm.String()+"; the rows were answered on one with "+m.PromptForm.String()
		case m.ClaimedPromptForm != nil && m.PromptForm == nil:
			c.Verdict, c.Why = NotComparable, "different prompt, perhaps: the claim was made on one with "+m.ClaimedPromptForm.String()+"; the manifest does not say which the rows were answered on"
		case m.ClaimedNotComparable != "":
			c.Verdict, c.Why = NotComparable, m.ClaimedNotComparable
		case !res.Scored:
			c.Verdict, c.Why = NotRecomputed, "the run is not scored"
		case !ok:
			c.Verdict, c.Why = NotRecomputed, "not a metric this site computes"
		case math.Abs(c.Claimed-v) <= ClaimTolerance:
			c.Verdict = Agrees
		default:
			c.Verdict = Disagrees
		}
		out = append(out, c)
	}
	return out
}
