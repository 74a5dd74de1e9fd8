package score

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
)

// On runs from the paper's model (additive, linear in age) the structure
// tests reject at 0.05 in about 5% of runs each, and after Holm's
// correction over a run's six tests a run has any detection in at most
// about 5% of runs: at most 2 of the first 12, and no more than 5% plus
// three binomial SEs of all. With an age × gender interaction planted
// (the age slope 0.15 logit per decade steeper for women in every
// scenario) that test finds it, and only that one, and its largest
// contrast is women's slope against men's, with an interval holding the
// planted 0.15 and not zero.
func TestStructureTests(t *testing.T) {
	t.Parallel() // its runs on GOMAXPROCS goroutines, beside the other simulations
	n := 60
	if testing.Short() {
		n = 15
	}
	type result struct {
		tests []StructureTest
		err   error
	}
	results := simulate(n, func(i int) int { return i }, func(i int) result {
		res, err := Score(synthRun(t, nullSpec(uint64(6000+i)), 0))
		if err != nil {
			return result{err: err}
		}
		return result{tests: res.Structure}
	})
	rejected, detected := map[string]int{}, map[string]int{}
	runs, first12 := 0, 0
	for i, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(r.tests) != 6 {
			t.Fatalf("%d structure tests", len(r.tests))
		}
		any := false
		for _, st := range r.tests {
			if st.P <= 0.05 {
				rejected[st.Name]++
			}
			if st.PHolm <= 0.05 {
				detected[st.Name]++
				any = true
			}
			if !(st.PHolm >= st.P || math.IsNaN(st.P)) {
				t.Errorf("%s: p %v, after Holm %v", st.Name, st.P, st.PHolm)
			}
		}
		if any {
			runs++
			if i < 12 {
				first12++
			}
		}
	}
	t.Logf("%d runs of the additive model: rejections at 0.05 %v; after Holm's correction over a run's tests %v, runs with any detection %d (of the first 12: %d)", n, rejected, detected, runs, first12)
	for _, name := range []string{"age_x_gender", "race_x_gender", "age_linear"} {
		// 5% of n, plus three binomial SEs.
		if r := rejected[name]; float64(r) > 0.05*float64(n)+3*math.Sqrt(0.05*0.95*float64(n)) {
			t.Errorf("%s: rejected on %d of %d runs from the additive model", name, r, n)
		}
	}
	if first12 > 2 {
		t.Errorf("%d of the first 12 effect-free runs have a structure test detected after Holm's correction, want at most 2", first12)
	}
	if float64(runs) > 0.05*float64(n)+3*math.Sqrt(0.05*0.95*float64(n)) {
		t.Errorf("%d of %d effect-free runs have a detection after Holm's correction", runs, n)
	}
	r := synthRun(t, nullSpec(6100), 0)
	for i := range r.Cells {
		if c := r.Cells[i]; c.Gender == design.Female {
			r.Cells[i].Logit += 0.15 * float64(c.Age-design.BaselineAge) / 10
		}
	}
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Structure {
		t.Logf("%s: p = %.4f (Holm %.4f), largest: %s minus %s %.3f %s %v", st.Name, st.P, st.PHolm, st.Contrast.Subject, st.Contrast.Against, st.Contrast.Estimate, st.Unit, st.Contrast.CI95)
		if st.Name == "age_x_gender" {
			c := st.Contrast
			if !(st.PHolm < 0.001 && st.Largest > 0.1 && c.Subject == "women's age slope" && c.Against == "men's" && c.CI95[0] > 0 && c.CI95[0] < 0.15 && 0.15 < c.CI95[1]) {
				t.Errorf("planted age × gender interaction: %+v", st)
			}
		}
		if st.Name == "race_x_gender" && st.PHolm < 0.001 {
			t.Errorf("race × gender found in an age × gender interaction: %+v", st)
		}
	}
}

// A decision run whose model declines to answer more often for Black
// people: the refusal test by race finds it, the one by gender does not.
func TestRefusalByGroup(t *testing.T) {
	r := synthRun(t, planted, 5)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range r.Cells {
		p := 0.05
		if r.Cells[i].Race == design.Black {
			p = 0.15
		}
		if rng.Float64() < p {
			r.Cells[i].Other++
		}
	}
	res, err := Score(r)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]StructureTest{}
	for _, st := range res.Structure {
		got[st.Name] = st
		t.Logf("%s: p = %.4f, largest %.3f %s", st.Name, st.P, st.Largest, st.Unit)
	}
	if st := got["refusal_by_race"]; !(st.P < 0.001) {
		t.Errorf("refusals planted for Black people: %+v", st)
	}
	if st, ok := got["refusal_by_gender"]; !ok || st.P < 0.01 {
		t.Errorf("no refusal difference by gender planted: %+v", st)
	}
}
