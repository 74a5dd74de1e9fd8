package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/scenarios"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// TestScenarioPagesAsTemplate: every scenario page, written from
// stencils, is byte for byte what its template executed whole and the
// minifier make of its data (renderer.Page), and the minifier leaves it
// as it is; no page was written whole for want of a stencil: on the
// fixture's runs and on
// runs with every note a grid has (low answer mass on one cell or on
// every one, unparsed answers, a question without the baseline), and on a
// site whose every text a scenario page shows is hostile — the site's
// title and release, the model's name, the intervention, the dataset's
// questions, the sampled answers: markup, entities, quotes,
// runs of blanks, line breaks, blanks at either end, the digits 1 and 2,
// which a page's number is found by.
func TestScenarioPagesAsTemplate(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	// What the pages compared hold, by the branch of the page it takes.
	var seen sync.Map
	// check builds the site, holding every scenario page to the template;
	// those of run whole are to be written whole (its text holds marks).
	check := func(t *testing.T, cfg stage.Config, whole string) {
		var pages, wholePages atomic.Int64
		var renderer atomic.Pointer[render.Renderer]
		var first sync.Map // a run's first page's data
		cfg.CheckWritten = func(r *render.Renderer, p *layout.Page, got []byte) error {
			pages.Add(1)
			renderer.Store(r)
			d := p.Body.(scenarios.ScenarioData)
			if d.RunID == whole {
				wholePages.Add(1)
			}
			// The fields a stencil shows as its first page has them.
			f, _ := first.LoadOrStore(d.RunID, d)
			for _, name := range scenarios.RunFields {
				if a, b := reflect.ValueOf(f).FieldByName(name).Interface(), reflect.ValueOf(d).FieldByName(name).Interface(); !reflect.DeepEqual(a, b) {
					return fmt.Errorf("%s: %s is %v, on another page of the run %v: not the run's (scenarios.RunFields)", p.Path, name, b, a)
				}
			}
			for what, ok := range map[string]bool{"no baseline": d.NoBaseline, "every mass low": d.AllLow, "a mass low": d.LowMarked > 0,
				"unparsed": d.Unparsed > 0, "differs": d.Differs > 0, "transcripts": d.Stored > 0, "first": d.Prev == "", "last": d.Next == "",
				"decision": d.Decision, "no colour class": d.Common == "", "no banner": !r.Site.Synthetic} {
				if ok {
					seen.Store(what, true)
				}
			}
			want, err := r.Minified(p, "") // the whole page, as renderer.Page renders it
			if err != nil {
				return err
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				return fmt.Errorf("%s differs from the template's at byte %d:\n got …%s…\nwant …%s…", p.Path, i, excerpt(got, i), excerpt(want, i))
			}
			var min bytes.Buffer
			if err := r.Min.Minify("text/html", &min, bytes.NewReader(got)); err != nil {
				return err
			}
			if !bytes.Equal(min.Bytes(), got) {
				return fmt.Errorf("%s: the minifier changes it", p.Path)
			}
			return nil
		}
		if _, err := Generate(cfg); err != nil {
			t.Fatal(err)
		}
		if pages.Load() == 0 {
			t.Fatal("no scenario page written")
		}
		if whole != "" && wholePages.Load() == 0 {
			t.Errorf("no page of run %s", whole)
		}
		if n, want := renderer.Load().Whole.Load(), wholePages.Load(); n != want {
			t.Errorf("%d scenario pages written whole, not from their stencils; want %d (run %q's)", n, want, whole)
		}
		t.Logf("%d scenario pages as the template's", pages.Load())
	}
	rows := referenceRows(t)
	t.Run("fixture", func(t *testing.T) {
		t.Parallel()
		cfg := fixture(t)
		runs := cfg.Runs.(fstest.MapFS)
		low := append([]run.Row(nil), rows...)
		low[5] = withMass(low[5], 0.9)
		allLow := make([]run.Row, len(rows))
		for i, r := range rows {
			allLow[i] = withMass(r, 0.95)
		}
		addRun(t, runs, "low", manifest("Low", run.Explicit, "default", run.Logprob), low)
		addRun(t, runs, "alllow", manifest("All Low", run.Explicit, "default", run.Logprob), allLow)
		check(t, cfg, "")
	})
	// A run whose model's name holds a mark of either set: its pages are
	// written whole, the others from their stencils.
	t.Run("marks", func(t *testing.T) {
		t.Parallel()
		cfg := fixture(t)
		runs := cfg.Runs.(fstest.MapFS)
		addRun(t, runs, "marked", manifest("Model "+render.MarksA.Text(31)+" "+render.MarksB.Text(3), run.Explicit, "default", run.Logprob), rows)
		check(t, cfg, "marked")
	})
	t.Run("hostile", func(t *testing.T) {
		t.Parallel()
		cfg := fixture(t)
		content := fstest.MapFS{}
		err := fs.WalkDir(cfg.Content, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(cfg.Content, p)
			content[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		site := string(content["site.yaml"].Data)
		site = strings.Replace(site, "title: Test Leaderboard", `title: "  Test <b>board</b> &amp; & \"1\" '2'  +3\tx\n "`, 1)
		// A release label names a git tag: letters, digits, '.', '_' and
		// '-' only (content.ParseSite), so no markup reaches a page by it.
		site = strings.Replace(site, `label: "test-1"`, `label: "T.1_x-2"`, 1)
		content["site.yaml"] = &fstest.MapFile{Data: []byte(site + "runs_url: \"https://example.org/runs/a&b c/1\\\"2'/\"\n")}
		cfg.Content = content
		hostileName := "  <i>Model</i> &amp; & \"1\"  '2' +3\tq1\n "
		runs := fstest.MapFS{}
		// The question titles (the baseline's prompt) and a question
		// without the baseline.
		var base []int
		mine := append([]run.Row(nil), rows...)
		for i, r := range mine {
			if p, err := run.ParsePrompt(&r); err == nil && p.Cell == design.Baseline {
				base = append(base, i)
			}
		}
		mine[base[0]].FilledTemplate = "  Is <b>this</b> &amp; 1  2\tfine? Yes & <no>, 'really' \"2\"?  "
		mine[base[1]].FilledTemplate = "No question mark: <a href=x>1</a> & 2 +"
		mine = append(mine[:base[2]], mine[base[2]+1:]...)
		m := manifest(hostileName, run.Explicit, " <b>default</b> & 1 ", run.Logprob)
		m.Synthetic = false
		addRun(t, runs, "hostile", m, mine)
		dec := manifest(hostileName+"sampled", run.Explicit, "default", run.Decision)
		dec.Synthetic = false
		drows := make([]run.Row, 0, len(rows))
		for i, r := range rows {
			r.Logprobs = nil
			r.Decisions = []string{"yes", "no"}
			if i%50 == 7 {
				r.Decisions = []string{"</script><script>alert(1)</script>", "\u2028 & <!-- 1 2", "yes"}
			}
			drows = append(drows, r)
		}
		addRun(t, runs, "hostile-sampled", dec, drows)
		cfg.Runs = runs
		check(t, cfg, "")
	})
	t.Cleanup(func() {
		for _, what := range []string{"no baseline", "every mass low", "a mass low", "unparsed", "differs", "transcripts", "first", "last", "decision", "no banner"} {
			if _, ok := seen.Load(what); !ok {
				t.Errorf("no page compared with %s", what)
			}
		}
	})
}

// excerpt is b around byte i.
func excerpt(b []byte, i int) string {
	return string(b[max(0, i-80):min(len(b), i+80)])
}
