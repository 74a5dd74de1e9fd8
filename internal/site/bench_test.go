package site

import (
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/scenarios"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// Benchmarks of the build (results in PERFORMANCE.md): the pages of one run
// and whole builds of 1 and 10 synthetic 9,450-row runs (cmd/synth -n),
// with no cache and nothing written.
//
//	go test ./internal/site -run '^$' -bench . -benchtime 5x

var (
	benchOnce sync.Once
	benchRuns fstest.MapFS
)

// benchConfig is the site of the first n of 10 scale runs.
func benchConfig(b testing.TB, n int) stage.Config {
	b.Helper()
	benchOnce.Do(func() {
		benchRuns = fstest.MapFS{}
		for _, d := range synth.ScaleRuns(10) {
			rows, err := d.Rows(nil)
			if err != nil {
				b.Fatal(err)
			}
			man, scored, err := run.Freeze(d.Manifest(), rows, true)
			if err != nil {
				b.Fatal(err)
			}
			benchRuns[d.ID+"/manifest.yaml"] = &fstest.MapFile{Data: man}
			benchRuns[d.ID+"/scored.jsonl.gz"] = &fstest.MapFile{Data: scored}
		}
	})
	runs := fstest.MapFS{}
	for _, d := range synth.ScaleRuns(n) {
		for _, f := range []string{"/manifest.yaml", "/scored.jsonl.gz"} {
			runs[d.ID+f] = benchRuns[d.ID+f]
		}
	}
	md, err := os.ReadFile("testdata/METHODOLOGY.md")
	if err != nil {
		b.Fatal(err)
	}
	return stage.Config{Content: os.DirFS("testdata/content"), Runs: runs, Methodology: md, Version: "bench"}
}

// counter is a sink that counts what it is given.
type counter struct{ files, bytes atomic.Int64 }

func (c *counter) Put(_ string, data []byte) error {
	c.files.Add(1)
	c.bytes.Add(int64(len(data)))
	return nil
}

// benchOneRun loads the one-run benchmark site and reads its run, as the
// run pages' benchmarks start: the configuration, inputs and frame, the
// run read, its cells and prompt infos, and its board entry.
func benchOneRun(b *testing.B) (stage.Config, *stage.Loaded, *layout.SiteInfo, *readRun, map[int]*score.QuestionCells, layout.PromptInfos, *board.Entry) {
	b.Helper()
	cfg := benchConfig(b, 1).WithDefaults()
	in, err := loadInputs(cfg)
	if err != nil {
		b.Fatal(err)
	}
	site := newSiteInfo(cfg, in)
	rr := freshRuns{cfg: cfg}.read(in.Runs[0])
	if rr.err != nil {
		b.Fatal(rr.err)
	}
	texts, _ := rr.rows.texts()
	cells, infos, _ := rr.rows.cells()
	in.Texts.Add(rr.run, texts, rr.infos)
	return cfg, in, site, rr, cells, infos, &board.Entry{Run: rr.run, Result: rr.res}
}

// BenchmarkRunPages renders one run's own pages (run page, provenance,
// scenario index, 70 scenario pages) from its scored rows.
func BenchmarkRunPages(b *testing.B) {
	cfg, in, site, rr, cells, _, e := benchOneRun(b)
	var c counter
	b.ReportAllocs()
	for b.Loop() {
		r, err := render.NewRenderer(cfg.Templates, pageKinds, site, &c)
		if err != nil {
			b.Fatal(err)
		}
		pool := render.NewPool(r)
		if err := runPages(cfg, in, e, cells, rr.infos, pool, &capture{next: &c}); err != nil {
			b.Fatal(err)
		}
		if err := pool.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.files.Load())/float64(b.N), "pages/op")
	b.ReportMetric(float64(c.bytes.Load())/float64(b.N)/1e6, "MB/op")
}

// BenchmarkBuild is a whole build, loading and scoring included.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(map[int]string{1: "runs=1", 10: "runs=10"}[n], func(b *testing.B) {
			cfg := benchConfig(b, n)
			var c counter
			b.ReportAllocs()
			for b.Loop() {
				if err := Stream(cfg, c.Put); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.files.Load())/float64(b.N), "files/op")
			b.ReportMetric(float64(c.bytes.Load())/float64(b.N)/1e6, "MB/op")
		})
	}
}

// BenchmarkScenarioPages builds and writes one run's 70 scenario pages
// in turn, on one goroutine (the run's shared parts made once an op): the
// page kind that is 70 of a run's pages.
func BenchmarkScenarioPages(b *testing.B) {
	cfg, in, site, _, cells, infos, e := benchOneRun(b)
	r, err := render.NewRenderer(cfg.Templates, pageKinds, site, &counter{})
	if err != nil {
		b.Fatal(err)
	}
	ids := slices.Sorted(maps.Keys(cells))
	chunks := transcriptChunks(in.Texts, infos, cells, e)
	var bytes int
	b.ReportAllocs()
	for b.Loop() {
		run := new(scenarios.ScenarioRun)
		for i, q := range ids {
			f, err := scenarios.WriteScenario(r, run, scenarios.ScenarioPage(in.Texts, infos, e, q, cells[q], chunks, ids, i))
			if err != nil {
				b.Fatal(err)
			}
			bytes += len(f.Data)
		}
	}
	b.ReportMetric(float64(bytes)/float64(b.N)/1e6, "MB/op")
}
