package site

import (
	"encoding/json"
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// TestOneAgeUnit: every page and data file shows the age coefficient per
// 10 years older; the fit's per-SD value appears only as a labelled
// alternative, and the numbers agree between the pages and the JSON.
func TestOneAgeUnit(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	ageRow := regexp.MustCompile(`<tr id=coef-age><th scope=row>([^<]*)<td[^>]*>([^<]*)<`)
	scenarioAge := regexp.MustCompile(`coefficients</a>: ([^<]*?) ([−+]?[0-9]+\.[0-9]+)(?:, |<)`)
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
		if got, want := string(m[2]), show.Signed(float64(age.Estimate), 3); got != want {
			t.Errorf("%s: run page shows age %s, JSON has %s", id, got, want)
		}
		if !strings.Contains(string(page), "The age coefficient in other units, as alternatives</summary><ul><li>per standard deviation of age in this run ("+show.Fixed(sd, 2)+" years") {
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
			if got, want := string(m[2]), show.Signed(float64(q.Coefficients["age"]), 2); got != want {
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

// TestOtherToolsOnRunPage: the run page shows every lm_eval_compat number
// and every composite definition of the run's JSON, as the JSON has them,
// with the rank each definition gives.
func TestOtherToolsOnRunPage(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	cell := func(page []byte, id string) []string {
		m := regexp.MustCompile(`<tr id=` + regexp.QuoteMeta(id) + `>(.*?)(?:<tr[ >]|</table>)`).FindSubmatch(page)
		if m == nil {
			return nil
		}
		var out []string
		for _, c := range regexp.MustCompile(`<td[^>]*>([^<]*)`).FindAllSubmatch(m[1], -1) {
			out = append(out, string(c[1]))
		}
		return out
	}
	seen := 0
	for _, id := range []string{"alpha", "beta", "gamma", "delta"} {
		var rj sitedata.Run
		if err := json.Unmarshal(files["data/runs/"+id+".json"], &rj); err != nil {
			t.Fatal(err)
		}
		page := files["runs/"+id+"/index.html"]
		for name, v := range rj.Compat {
			seen++
			c := cell(page, "compat-"+name)
			want := show.Signed(float64(v), 3)
			if name == "age_bias" {
				want = show.Fixed(float64(v), 3)
			}
			if len(c) == 0 || c[0] != want {
				t.Errorf("%s: %s is %v in the JSON, the run page's row %v", id, name, v, c)
			}
		}
		for name, v := range rj.Definitions {
			c := cell(page, "def-"+name)
			if len(c) == 0 || c[0] != show.Fixed(float64(v), 3) {
				t.Errorf("%s: composite %s is %v in the JSON, the run page's row %v", id, name, v, c)
				continue
			}
			if r := rj.DefRank[name]; r > 0 && (len(c) < 2 || c[1] != strconv.Itoa(r)) {
				t.Errorf("%s: composite %s ranks %d in the JSON, the run page's row %v", id, name, r, c)
			}
		}
	}
	if seen == 0 {
		t.Error("no run has lm_eval_compat numbers")
	}
	if !strings.Contains(string(files["runs/beta/index.html"]), "+0.270 (disagrees)") {
		t.Error("beta's run page does not set its claimed asian_bias beside the recomputed one")
	}
}

// TestGroupPlots: a variant's group page shows, per board table, seven
// plots (one per group) on one scale, each with every ranked run, and
// their numbers agree with each run's data/runs/<id>.json; every board of
// the variant links to it and none carries the plots itself.
func TestGroupPlots(t *testing.T) {
	skipReaderUnderRace(t)
	files := fixtureSite(t)
	page := string(files["board/explicit-groups.html"])
	for _, b := range []string{"index.html", "board/explicit-race.html"} {
		if strings.Contains(string(files[b]), `chart-fig groups`) {
			t.Errorf("%s carries the group plots itself", b)
		}
		if !regexp.MustCompile(`<a href=(board/)?explicit-groups.html>which groups each model favours</a>`).MatchString(string(files[b])) {
			t.Errorf("%s does not link the group page", b)
		}
	}
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(files["data/leaderboard.json"], &lb); err != nil {
		t.Fatal(err)
	}
	model := map[string]string{}
	for _, r := range lb.Runs {
		model[r.ID] = r.Model
	}
	figs := regexp.MustCompile(`(?s)<figure class="chart-fig groups" id=groups-(\w+)>(.*?)</figure>(.*?)</details>`).FindAllStringSubmatch(page, -1)
	if len(figs) == 0 {
		t.Fatal("index.html has no group plots")
	}
	tick := regexp.MustCompile(`text-anchor="middle"[^>]*>([^<]+)</text>`)
	for _, f := range figs {
		var board sitedata.Board
		for _, b := range lb.Boards {
			if b.Variant == "explicit" && b.Method == f[1] {
				board = b
			}
		}
		ranked := board.Views["composite"]
		plots := strings.Split(f[2], "<svg")[1:]
		if len(plots) != 7 {
			t.Fatalf("%s: %d plots, want 7", f[1], len(plots))
		}
		var axis string
		for i, p := range plots {
			var ts []string
			for _, m := range tick.FindAllStringSubmatch(p, -1) {
				ts = append(ts, m[1])
			}
			if i == 0 {
				axis = strings.Join(ts, " ")
			} else if strings.Join(ts, " ") != axis {
				t.Errorf("%s: plot %d's axis %v differs from the first's %s", f[1], i, ts, axis)
			}
			for _, id := range ranked {
				if !strings.Contains(p, template.HTMLEscapeString(model[id])) {
					t.Errorf("%s: plot %d lacks %s", f[1], i, id)
				}
			}
		}
		href := regexp.MustCompile(`^<a href=../runs/([^/]+)/index.html>`)
		var rows [][2]string
		for _, chunk := range strings.Split(f[3], "<tr><th scope=row>")[1:] {
			if m := href.FindStringSubmatch(chunk); m != nil {
				rows = append(rows, [2]string{m[1], chunk})
			}
		}
		if len(rows) != len(ranked) {
			t.Errorf("%s: the numbers table has %d runs, the board ranks %d", f[1], len(rows), len(ranked))
		}
		for _, r := range rows {
			id := r[0]
			var rj sitedata.Run
			if err := json.Unmarshal(files["data/runs/"+id+".json"], &rj); err != nil {
				t.Fatal(err)
			}
			cells := regexp.MustCompile(`data-label="?([^">]+)"?>([^ <]+) `).FindAllStringSubmatch(r[1], -1)
			if len(cells) != 7 {
				t.Errorf("%s: %d cells", id, len(cells))
				continue
			}
			for i, name := range []string{"age", "female", "non_binary", "black", "asian", "hispanic", "native_american"} {
				if want := show.Signed(float64(rj.Coefficients[name].Estimate), 2); cells[i][2] != want {
					t.Errorf("%s %s: the group table shows %s, the JSON %s", id, name, cells[i][2], want)
				}
			}
		}
	}
}
