package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

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
	got := variantPairs(demoEntries(t))
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
		if o.Href != runPath(o.ID) {
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
		got := variantPairs(c.es)
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
	skipWholeSitesUnderRace(t)
	runs := fstest.MapFS{}
	for _, id := range []string{"ager-20b-explicit", "skew-13b-explicit", "skew-13b-implicit"} {
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
	files := generateMap(t, cfg)
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
