package site

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// TestOneAgeUnit: every page and data file shows the age coefficient per
// 10 years older; the fit's per-SD value appears only as a labelled
// alternative, and the numbers agree between the pages and the JSON.
func TestOneAgeUnit(t *testing.T) {
	files := fixtureSite(t)
	ageRow := regexp.MustCompile(`<tr id=coef-age><th scope=row>([^<]*)<td[^>]*>([^<]*)<`)
	scenarioAge := regexp.MustCompile(`own coefficients: ([^<]*?) <span[^>]*>([^<]*)<`)
	checked := 0
	for _, id := range []string{"alpha", "beta", "beta-illegal", "gamma"} {
		var rj sitedata.Run
		if err := json.Unmarshal(files["data/runs/"+id+".json"], &rj); err != nil {
			t.Fatal(err)
		}
		age, ok := rj.Coefficients["age"]
		if !ok || rj.AgePerSD == nil || rj.AgeSD == nil {
			t.Fatalf("%s: no age coefficient, age_per_sd or age_sd in the JSON", id)
		}
		sd := float64(*rj.AgeSD)
		if want := float64(rj.AgePerSD.Estimate) * 10 / sd; math.Abs(float64(age.Estimate)-want) > 1e-9 {
			t.Errorf("%s: coefficients.age %v, want age_per_sd × 10 / age_sd = %v", id, age.Estimate, want)
		}
		if want := float64(*rj.AgePerSD.SE) * 10 / sd; math.Abs(float64(*age.SE)-want) > 1e-9 {
			t.Errorf("%s: age SE %v, want %v", id, *age.SE, want)
		}
		page := files["runs/"+id+"/index.html"]
		m := ageRow.FindSubmatch(page)
		if m == nil {
			t.Fatalf("%s: the run page has no age row", id)
		}
		if string(m[1]) != "Age (per 10 years older)" {
			t.Errorf("%s: age row labelled %q", id, m[1])
		}
		if got, want := string(m[2]), signed(float64(age.Estimate), 3); got != want {
			t.Errorf("%s: run page shows age %s, JSON has %s", id, got, want)
		}
		if !strings.Contains(string(page), "Age in other units, as alternatives: per standard deviation of age in this run ("+fixed(sd, 2)+" years") {
			t.Errorf("%s: the run page does not label the per-SD value as an alternative", id)
		}
		for _, q := range rj.Questions {
			sp := files["runs/"+id+"/q"+strconv.Itoa(q.ID)+".html"]
			m := scenarioAge.FindSubmatch(sp)
			if m == nil {
				continue
			}
			checked++
			if string(m[1]) != "age (per 10 years older)" {
				t.Errorf("%s q%d: scenario page labels age %q", id, q.ID, m[1])
			}
			if got, want := string(m[2]), signed(float64(q.Coefficients["age"]), 2); got != want {
				t.Errorf("%s q%d: scenario page shows age %s, JSON has %s", id, q.ID, got, want)
			}
		}
	}
	if checked == 0 {
		t.Error("no scenario page showed its own coefficients")
	}
	// Nowhere but in a labelled alternative, a definition of the
	// robustness panel (the paper's summary) or the methodology does a
	// page name the per-SD unit.
	other := regexp.MustCompile(`per SD|per standard deviation`)
	for path, b := range files {
		if !strings.HasSuffix(path, ".html") || path == "methodology.html" {
			continue
		}
		s := string(b)
		for _, loc := range other.FindAllStringIndex(s, -1) {
			ctx := s[max(0, loc[0]-160):min(len(s), loc[1]+80)]
			if !strings.Contains(ctx, "alternative") && !strings.Contains(ctx, "paper") && !strings.Contains(ctx, "age_z") {
				t.Errorf("%s: another age unit without a label: …%s…", path, ctx)
			}
		}
	}
}
