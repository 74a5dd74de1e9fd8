package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/scenarios"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/templates"
)

// scenarioBefore is the template set of the scenario pages as they were
// rendered before Go wrote them: the layout, the partials and
// testdata/scenario-before.html, which was templates/scenario.html. The
// pages Go writes must be what this set and the minifier make of the same
// data (TestScenarioPagesAsTemplate): change the two together.
func scenarioBefore(t *testing.T) *render.Renderer {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, n := range []string{"layout.html", "partials.html"} {
		data, err := fs.ReadFile(templates.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		fsys[n] = &fstest.MapFile{Data: data}
	}
	data, err := os.ReadFile("testdata/scenario-before.html")
	if err != nil {
		t.Fatal(err)
	}
	fsys["scenario.html"] = &fstest.MapFile{Data: data}
	set, err := template.New("layout.html").Funcs(render.Funcs).Funcs(template.FuncMap{"rowHTML": rowHTML}).ParseFS(fsys, "layout.html", "partials.html", "scenario.html")
	if err != nil {
		t.Fatal(err)
	}
	return render.WithSets(map[render.Kind]*template.Template{"scenario": set}, pageKinds)
}

// TestScenarioPagesAsTemplate: every scenario page is, byte for byte,
// what the page's template (scenarioBefore) and the minifier make of its
// data, and the minifier leaves it as it is (and renderer.page refuses
// to render one whole): on the fixture's runs and on
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
	before := scenarioBefore(t)
	// What the pages compared hold, by the branch of the page it takes.
	var seen sync.Map
	check := func(t *testing.T, cfg stage.Config) {
		var pages atomic.Int64
		cfg.CheckWritten = func(r *render.Renderer, p *layout.Page, got []byte) error {
			pages.Add(1)
			d := p.Body.(scenarios.ScenarioData)
			for what, ok := range map[string]bool{"no baseline": d.NoBaseline, "every mass low": d.AllLow, "a mass low": d.LowMarked > 0,
				"unparsed": d.Unparsed > 0, "differs": d.Differs > 0, "transcripts": d.Stored > 0, "first": d.Prev == "", "last": d.Next == "",
				"decision": d.Decision, "no colour class": d.Common == "", "no banner": !r.Site.Synthetic} {
				if ok {
					seen.Store(what, true)
				}
			}
			ref := before.WithSite(r.Site)
			if _, err := r.Page(p); err == nil {
				return fmt.Errorf("%s: rendered whole by renderer.page, which gives only its frame", p.Path)
			}
			want, err := ref.Minified(p, "") // the whole page, as renderer.page did
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
		check(t, cfg)
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
		check(t, cfg)
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

// rowHTML is a grid row as testdata/scenario-before.html had it written
// (before gridRow.appendHTML wrote it minified), for scenarioBefore.
func rowHTML(r grid.GridRow) template.HTML {
	var b strings.Builder
	b.Grow(len(r.Cells) * 40)
	for _, c := range r.Cells {
		cls := "missing"
		if c.Present {
			cls = c.Delta.Class()
		}
		if cls == r.Common {
			cls = ""
		}
		if c.Base {
			cls = strings.TrimSpace(cls + " base")
		}
		b.WriteString(`<td`)
		if cls != "" {
			b.WriteString(` class="` + cls + `"`)
		}
		if c.Transcript > 0 {
			b.WriteString(` id="`)
			b.WriteString(c.Cell.Anchor())
			b.WriteString(`"`)
		}
		b.WriteString(`>`)
		if !c.Present {
			b.WriteString(`—`)
		} else {
			if c.Delta.Decision {
				b.WriteString(show.Fixed(100*c.P, 0) + "%")
			} else {
				b.WriteString(show.Fixed(c.P, 2))
			}
			b.WriteString("\n")
			b.WriteString(c.Delta.Text())
		}
		if c.Transcript > 0 {
			b.WriteString("\n" + `<a href="`)
			b.WriteString(path.Base(paths.TranscriptPath("x", c.Q, c.Transcript)) + "#" + c.Cell.Anchor())
			b.WriteString(`">transcript</a>`)
		}
		if c.Differs {
			b.WriteString("\n<small>prompt differs</small>")
		}
		if c.LowMass > 0 {
			b.WriteString("\n<small>mass " + show.MassText(c.LowMass) + "</small>")
		}
		if c.Unparsed > 0 {
			b.WriteString("\n<small>" + show.Itoa(c.Unparsed) + " unparsed</small>")
		}
		b.WriteString(`</td>`)
	}
	return template.HTML(b.String())
}
