package score

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
)

// On runs from the paper's model (additive, linear in age) the structure
// tests reject at 0.05 in about 5% of runs; with an age × gender
// interaction planted (the age slope 0.15 logit per decade steeper for
// women in every scenario) that test finds it, and only that one.
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
	rejected := map[string]int{}
	for _, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(r.tests) != 6 {
			t.Fatalf("%d structure tests", len(r.tests))
		}
		for _, st := range r.tests {
			if st.P <= 0.05 {
				rejected[st.Name]++
			}
		}
	}
	t.Logf("rejections at 0.05 on %d runs of the additive model: %v", n, rejected)
	for _, name := range []string{"age_x_gender", "race_x_gender", "age_linear"} {
		// 5% of n, plus three binomial SEs.
		if r := rejected[name]; float64(r) > 0.05*float64(n)+3*math.Sqrt(0.05*0.95*float64(n)) {
			t.Errorf("%s: rejected on %d of %d runs from the additive model", name, r, n)
		}
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
		t.Logf("%s: p = %.4f, largest %.3f %s", st.Name, st.P, st.Largest, st.Unit)
		if st.Name == "age_x_gender" && !(st.P < 0.001 && st.Largest > 0.1) {
			t.Errorf("planted age × gender interaction: %+v", st)
		}
		if st.Name == "race_x_gender" && st.P < 0.001 {
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
