package site

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/numfmt"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// csvNum is a number as the CSV writes it.
func csvNum(n sitedata.Num) string { return numfmt.Decimal(float64(n)) }

// demoEntries are the repository's demo runs as unscored-but-scored
// entries: what variantPairs reads of them is their manifests.
func demoEntries(t *testing.T) []*board.Entry {
	t.Helper()
	runs := os.DirFS(filepath.Join("..", "..", "runs"))
	ids, _, err := run.List(runs, "runs")
	if err != nil {
		t.Fatal(err)
	}
	var es []*board.Entry
	for _, id := range ids {
		r, err := run.LoadManifest(runs, "runs", id)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, &board.Entry{Run: r, Result: &score.Result{Scored: true}})
	}
	return es
}

// TestVariantPairsDemo: the demo models with both variants link both
// ways, on the same scoring method; a model with one variant, a decision
// run without an implicit decision run, and an intervention run link to
// nothing.
func TestVariantPairsDemo(t *testing.T) {
	got := boards.VariantPairs(demoEntries(t))
	want := map[string]string{
		"fair-7b-explicit": "fair-7b-implicit", "fair-7b-implicit": "fair-7b-explicit",
		"skew-13b-explicit": "skew-13b-implicit", "skew-13b-implicit": "skew-13b-explicit",
		"tilt-34b-explicit": "tilt-34b-implicit", "tilt-34b-implicit": "tilt-34b-explicit",
	}
	var ids []string
	for id, o := range got {
		ids = append(ids, id)
		if want[id] != o.ID {
			t.Errorf("%s links to %s, want %q", id, o.ID, want[id])
		}
		if o.Href != paths.RunPath(o.ID) {
			t.Errorf("%s: href %s", id, o.Href)
		}
	}
	sort.Strings(ids)
	if len(got) != len(want) {
		t.Errorf("runs with a link: %v, want the %d of %v", ids, len(want), want)
	}
	for _, id := range []string{"ager-20b-explicit", "fair-7b-explicit-sampled", "skew-13b-explicit-ignore"} {
		if o, ok := got[id]; ok {
			t.Errorf("%s links to %s, want no link", id, o.ID)
		}
	}
}

// TestVariantPairsPick: with two default-prompt runs of a model on one
// board, the other variant's runs link to the one the board ranks, and
// without a ranked one to the most recent, then the first by id.
func TestVariantPairsPick(t *testing.T) {
	entry := func(id string, v run.Variant, date string, ranked bool) *board.Entry {
		m := &run.Manifest{Variant: v, Intervention: board.DefaultIntervention, Scoring: run.Logprob, RunDate: date}
		m.Model.ID = "m"
		return &board.Entry{Run: &run.Run{ID: id, Manifest: m}, Result: &score.Result{Scored: true}, Ranked: ranked}
	}
	for _, c := range []struct {
		name string
		es   []*board.Entry
		want string
	}{
		{"ranked", []*board.Entry{entry("a", run.Explicit, "2026-01-02", false), entry("b", run.Explicit, "2026-01-01", true), entry("c", run.Implicit, "2026-01-01", true)}, "b"},
		{"recent", []*board.Entry{entry("a", run.Explicit, "2026-01-01", false), entry("b", run.Explicit, "2026-01-02", false), entry("c", run.Implicit, "2026-01-01", false)}, "b"},
		{"first id", []*board.Entry{entry("a", run.Explicit, "2026-01-01", false), entry("b", run.Explicit, "2026-01-01", false), entry("c", run.Implicit, "2026-01-01", false)}, "a"},
	} {
		got := boards.VariantPairs(c.es)
		if got["c"].ID != c.want {
			t.Errorf("%s: c links to %q, want %q", c.name, got["c"].ID, c.want)
		}
		if got["a"].ID != "c" || got["b"].ID != "c" {
			t.Errorf("%s: a and b link to %q and %q, want c", c.name, got["a"].ID, got["b"].ID)
		}
	}
}

// TestVariantLinksRendered: in a site of demo runs, each run page of a
// model with both variants links to the other, and the boards' rows do;
// the run of a model with one variant links to none.
func TestVariantLinksRendered(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	files := variantDemoSite(t)
	link := regexp.MustCompile(`id=other-variant>The same model on the (\w+) prompts: <a href=([^>]+)>`)
	for page, want := range map[string][]string{
		"runs/skew-13b-explicit/index.html": {"implicit", "../../runs/skew-13b-implicit/index.html"},
		"runs/skew-13b-implicit/index.html": {"explicit", "../../runs/skew-13b-explicit/index.html"},
	} {
		m := link.FindSubmatch(files[page])
		if m == nil || string(m[1]) != want[0] || string(m[2]) != want[1] {
			t.Errorf("%s: link %q, want the %s run at %s", page, m, want[0], want[1])
		}
	}
	if m := link.Find(files["runs/ager-20b-explicit/index.html"]); m != nil {
		t.Errorf("ager-20b-explicit, one variant only, links to %q", m)
	}
	for page, want := range map[string]string{
		"index.html":                    `href=runs/skew-13b-implicit/index.html>implicit run</a>`,
		"board/implicit-composite.html": `href=../runs/skew-13b-explicit/index.html>explicit run</a>`,
	} {
		if n := regexp.MustCompile(`>(explicit|implicit) run</a>`).FindAll(files[page], -1); len(n) != 1 || !regexp.MustCompile(regexp.QuoteMeta(want)).Match(files[page]) {
			t.Errorf("%s: %d variant links, want one: %s", page, len(n), want)
		}
	}
}

// TestExploreNumbersRendered checks, on the same kind of site as
// TestVariantLinksRendered, that the pages show what the data files say:
// the explicit–implicit difference on both run pages, on every board page
// and in the CSV; each scenario's own views on the scenarios page; and the
// run page's largest contribution per view.
func TestExploreNumbersRendered(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	files := variantDemoSite(t)
	var lb sitedata.Leaderboard
	if err := json.Unmarshal(files["data/leaderboard.json"], &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb.VariantPairs) != 1 || lb.VariantPairs[0] != (sitedata.VariantPair{Explicit: "skew-13b-explicit", Implicit: "skew-13b-implicit"}) {
		t.Fatalf("variant_pairs %+v, want skew-13b's", lb.VariantPairs)
	}
	// The words check of TestWordsMatchNumbers over the pages that show
	// the pair (the fixture site has none): each difference inside its
	// interval, each verdict by it.
	counts := map[string]int{}
	for _, path := range []string{"index.html", paths.RunPath("skew-13b-explicit"), paths.RunPath("skew-13b-implicit")} {
		for _, row := range pageSegments(string(files[path])) {
			for i := range row {
				checkCell(t, path, row, i, row[0].text, counts)
			}
		}
	}
	if counts["difference in interval"] < 2*len(score.Views) {
		t.Errorf("words checked %v: the variant pairs' differences are no longer found", counts)
	}
	var vd sitedata.VariantDifference
	for i, id := range []string{"skew-13b-explicit", "skew-13b-implicit"} {
		var r sitedata.Run
		if err := json.Unmarshal(files[paths.RunDataPath(id)], &r); err != nil {
			t.Fatal(err)
		}
		if r.VariantDiff == nil || r.VariantDiff.Explicit != "skew-13b-explicit" || r.VariantDiff.Implicit != "skew-13b-implicit" || r.VariantDiff.Questions != 70 || len(r.VariantDiff.Views) != len(score.Views) {
			t.Fatalf("%s: variant_difference %+v", id, r.VariantDiff)
		}
		if i == 0 {
			vd = *r.VariantDiff
		}
	}
	csvRows, err := csv.NewReader(bytes.NewReader(files["data/leaderboard.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range csvRows[0] {
		col[h] = i
	}
	for _, id := range []string{"skew-13b-explicit", "skew-13b-implicit"} {
		var r sitedata.Run
		if err := json.Unmarshal(files[paths.RunDataPath(id)], &r); err != nil {
			t.Fatal(err)
		}
		if r.VariantDiff == nil || !reflect.DeepEqual(*r.VariantDiff, vd) {
			t.Errorf("%s: variant_difference %+v, the explicit run's %+v", id, r.VariantDiff, vd)
		}
		page := string(files[paths.RunPath(id)])
		var row []string
		for _, rr := range csvRows {
			if rr[0] == id {
				row = rr
			}
		}
		for _, v := range score.Views {
			d := vd.Views[v.Name()]
			want := fmt.Sprintf(`>%s<td class=num data-label="95%% interval">%s<td data-label=Verdict>%s<`, show.Signed(float64(d.Estimate), 2), show.Interval([2]float64{float64(d.CI95[0]), float64(d.CI95[1])}, 2, true), d.Verdict)
			if !strings.Contains(page, want) {
				t.Errorf("%s: %s difference not shown as %q", id, v.Name(), want)
			}
			if d.Verdict != "not distinguishable from zero" && !strings.Contains(d.Verdict, "beyond doubt") {
				t.Errorf("%s: verdict %q outside the vocabulary", v.Name(), d.Verdict)
			}
			for i, name := range []string{"variant_diff_" + v.Name(), "variant_diff_" + v.Name() + "_ci95_low", "variant_diff_" + v.Name() + "_ci95_high"} {
				want := []sitedata.Num{d.Estimate, d.CI95[0], d.CI95[1]}[i]
				if got := row[col[name]]; got != csvNum(want) {
					t.Errorf("%s: CSV %s = %q, want %q", id, name, got, csvNum(want))
				}
			}
			board := string(files[paths.BoardPath(run.Implicit, v)])
			if !strings.Contains(board, ">"+show.Signed(float64(d.Estimate), 2)+`<td class=num data-label="95% interval">`+show.Interval([2]float64{float64(d.CI95[0]), float64(d.CI95[1])}, 2, true)+"<td data-label=Verdict>"+d.Verdict) {
				t.Errorf("%s board: skew-13b's difference %v not in the table", v.Name(), d)
			}
		}
		if id != "skew-13b-explicit" {
			continue
		}
		// The scenarios page: each question's four own views, in order,
		// as the JSON has them.
		scen := string(files[paths.ScenariosPath(id)])
		cell := regexp.MustCompile(`<td>([0-9.]+)<small>([0-9.]+–[0-9.]+)</small>`)
		for _, q := range r.Questions {
			i := strings.Index(scen, fmt.Sprintf("<a href=q%d.html>", q.ID))
			if i < 0 {
				t.Fatalf("q%d not on the scenarios page", q.ID)
			}
			end := strings.Index(scen[i:], "<tr")
			if end < 0 {
				end = len(scen) - i
			}
			got := cell.FindAllStringSubmatch(scen[i:i+end], -1)
			if len(got) != len(score.Views) {
				t.Fatalf("q%d: %d view cells", q.ID, len(got))
			}
			for k, v := range score.Views {
				e := q.Views[v.Name()]
				if got[k][1] != board.Display(float64(e[0])) || got[k][2] != board.Display(float64(e[1]))+"–"+board.Display(float64(e[2])) {
					t.Errorf("q%d %s: page %q %q, JSON %v", q.ID, v.Name(), got[k][1], got[k][2], e)
				}
			}
		}
		// The run page: the sum and the largest contribution per view are
		// the JSON's.
		for _, v := range score.Views {
			c := r.Contributions[v.Name()]
			if len(c.Largest) == 0 {
				t.Fatalf("%s: no contributions in the JSON", v.Name())
			}
			re := regexp.MustCompile(`<th scope=row>` + v.Title() + `<td class=num data-label=Shown>[0-9.]+<td class=num data-label="Sum of contributions">([0-9.]+)<td data-label="Largest contributions"><ol class=contrib><li><a href=q(\d+).html>q\d+</a> ([0-9.]+)`)
			m := re.FindStringSubmatch(page)
			if m == nil || m[1] != board.Display(float64(c.Sum)) || m[2] != strconv.Itoa(c.Largest[0].ID) || m[3] != show.Fixed(float64(c.Largest[0].Contribution), 3) {
				t.Errorf("%s: contributions row %q, JSON %+v", v.Name(), m, c)
			}
		}
	}
}

var (
	variantDemoOnce  sync.Once
	variantDemoFiles map[string][]byte
)

// variantDemoSite is the site of three demo runs, ager-20b-explicit (one
// variant) and skew-13b's explicit and implicit runs, built once for the
// tests that read it.
func variantDemoSite(t *testing.T) map[string][]byte {
	t.Helper()
	variantDemoOnce.Do(func() {
		variantDemoFiles = demoSubsetSite(t, "ager-20b-explicit", "skew-13b-explicit", "skew-13b-implicit")
	})
	if variantDemoFiles == nil {
		t.Fatal("the site of demo runs did not build")
	}
	return variantDemoFiles
}

// demoSubsetSite builds a site of the named demo runs.
func demoSubsetSite(t *testing.T, ids ...string) map[string][]byte {
	t.Helper()
	runs := fstest.MapFS{}
	for _, id := range ids {
		dir := filepath.Join("..", "..", "runs", id)
		err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(filepath.Join(dir, p))
			runs[id+"/"+p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := fixture(t)
	cfg.Runs = runs
	return generateMap(t, cfg)
}

// A board of more pairs than maxBoardVariantRows shows those with the
// largest |difference| in its view, in model order, and counts them all.
func TestBoardVariantDiffsCapped(t *testing.T) {
	sc := &stage.Ranked{Variants: map[string]stage.VariantLink{}, VariantDiffs: map[stage.VariantDiffKey]*stage.VariantDiff{}}
	n := boards.MaxBoardVariantRows + 5
	entry := func(id, model string, v run.Variant) *board.Entry {
		return &board.Entry{Run: &run.Run{ID: id, Manifest: &run.Manifest{Variant: v, Scoring: run.Logprob, Model: run.Model{Name: model}}}, Result: &score.Result{Scored: true}}
	}
	for i := range n {
		model := fmt.Sprintf("m%02d", i)
		ex, im := entry(model+"-e", model, run.Explicit), entry(model+"-i", model, run.Implicit)
		c := &score.Comparison{Questions: 70}
		// |difference| grows with i, with alternating signs.
		c.Views[score.RaceView].Estimate = float64(i) * float64(1-2*(i%2)) / 100
		sc.VariantDiffs[stage.VariantDiffKey{Explicit: ex.ID(), Implicit: im.ID()}] = &stage.VariantDiff{Explicit: ex, Implicit: im, C: c}
		sc.Variants[ex.ID()] = stage.VariantLink{ID: im.ID(), Variant: run.Implicit}
		sc.Variants[im.ID()] = stage.VariantLink{ID: ex.ID(), Variant: run.Explicit}
	}
	rows, all := boards.BoardVariantDiffs(sc, score.RaceView)
	if all != n || len(rows) != boards.MaxBoardVariantRows {
		t.Fatalf("%d rows of %d, want %d of %d", len(rows), all, boards.MaxBoardVariantRows, n)
	}
	for i, r := range rows {
		if want := fmt.Sprintf("m%02d", i+5); r.Model != want {
			t.Errorf("row %d: %s, want %s (the largest differences, in model order)", i, r.Model, want)
		}
	}
}
