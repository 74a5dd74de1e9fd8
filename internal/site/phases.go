package site

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/discrimeval/leaderboard/internal/site/boards"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/runpage"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// phases are the build's phases, in order. Each is a method of build
// whose name is the phase's name: its progress line ("build: load: …")
// and the prefix of its errors ("load: …"). doc.go describes them
// (TestDocListsPhases keeps it and the README to this list).
var phases = []func(*build) (string, error){
	(*build).load,
	(*build).runs,
	(*build).boards,
	(*build).assemble,
	(*build).render,
	(*build).write,
}

// phaseName is a phase's name: its method's.
func phaseName(ph func(*build) (string, error)) string {
	name := runtime.FuncForPC(reflect.ValueOf(ph).Pointer()).Name()
	return strings.TrimSuffix(name[strings.LastIndex(name, ".")+1:], "-fm")
}

// build is one build: its configuration and output, and what each phase
// returns for the next (each set once, by its phase).
type build struct {
	cfg  stage.Config
	out  outdir.Sink
	prog *progress
	// load
	in   *stage.Loaded
	rec  *outdir.Recorder
	site *layout.SiteInfo
	r    *render.Renderer
	pool *render.Pool
	// runs
	scored *stage.Runs
	// boards
	ranked *stage.Ranked
	// assemble: the models' runs in earlier releases, for run pages
	hist runpage.History
	// render: where the runs' files went
	placed placed
	// write
	files []outdir.HashedFile
}

// generate runs the phases, streaming every file to out, and returns the
// files written. cfg has its defaults (stage.Config.WithDefaults), given
// by the build's entry.
func generate(cfg stage.Config, out outdir.Sink) ([]outdir.HashedFile, error) {
	if !cfg.HasDefaults() {
		return nil, fmt.Errorf("build: the configuration has not its defaults (stage.Config.WithDefaults)")
	}
	b := &build{cfg: cfg, out: out, prog: newProgress(cfg.Progress)}
	defer func() {
		if b.pool != nil {
			b.pool.Wait() // after an error: the queued pages are let finish
		}
	}()
	for _, ph := range phases {
		msg, err := ph(b)
		name := phaseName(ph)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		b.prog.done(name, "%s", msg)
	}
	return b.files, nil
}

// load reads the content, METHODOLOGY.md, the runs' manifests and the
// templates, and starts the render pool.
func (b *build) load() (string, error) {
	var err error
	if b.in, err = loadInputs(b.cfg); err != nil {
		return "", err
	}
	b.rec = outdir.NewRecorder(b.out)
	b.site = newSiteInfo(b.cfg, b.in)
	if b.r, err = render.NewRenderer(b.cfg.Templates, pageKinds, b.site, b.rec); err != nil {
		return "", err
	}
	if b.cfg.Cache != nil {
		if b.r.Gen, err = generatorID(b.cfg); err != nil {
			return "", fmt.Errorf("cache: %w", err)
		}
		b.r.Memo = b.cfg.Cache
	}
	b.pool = render.NewPool(b.r)
	return fmt.Sprintf("%d runs", len(b.in.Runs)), nil
}

// runs reads and scores each run, and commits it: its own pages queued,
// its prompt texts joined to the dataset's (streamRuns).
func (b *build) runs() (string, error) {
	runs, msg, err := streamRuns(b.cfg, b.in, b.site, b.pool, b.prog)
	if err != nil {
		return "", err
	}
	if m := b.cfg.More; m != nil {
		m.Add(b.in, runs)
	}
	b.scored = runs
	return msg, nil
}

// boards ranks and compares the runs.
func (b *build) boards() (string, error) {
	ranked, err := boards.Rank(b.scored.Entries, b.site.PageRows, b.cfg.ContentLabel, b.in.Content.Previous, rankMemos(b.cfg.Cache, b.r.Gen))
	if err != nil {
		return "", err
	}
	b.ranked = ranked
	warnRuns(b.cfg.Warnings, b.cfg.RunsLabel, b.scored.Entries, b.in.Content.Site.Release.Date)
	return fmt.Sprintf("%d boards", len(ranked.Boards)), nil
}

// assemble queues the pages that span runs and writes the data files.
func (b *build) assemble() (string, error) {
	var err error
	if b.hist, err = assemblePages(b.cfg, b.in, b.scored, b.ranked, b.site, b.pool, b.rec); err != nil {
		return "", err
	}
	return "pages spanning runs queued, data files written", nil
}

// render waits for every queued page, adds the assets, then the pages
// that say where the runs' files are, with the copies when they fit the
// site's budget (budget.go).
func (b *build) render() (string, error) {
	if err := b.pool.Wait(); err != nil {
		return "", err
	}
	assets, err := render.StaticFiles(b.cfg.Static, b.r.Min)
	if err != nil {
		return "", err
	}
	for _, f := range assets {
		if err := b.rec.Put(f.Path, f.Data); err != nil {
			return "", err
		}
	}
	if b.placed, err = b.placeRunFiles(); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("%d pages and assets", len(b.rec.Outputs()))
	if n := b.r.MemoPages.Load(); n > 0 {
		msg += fmt.Sprintf(" (from the cache: %d of %d pages spanning runs)", b.r.MemoHits.Load(), n)
	}
	if b.placed.where.Linked {
		msg += "; the runs' files linked"
	} else {
		msg += "; the runs' files copied"
	}
	if b.placed.note != "" && b.cfg.Warnings != nil {
		fmt.Fprintln(b.cfg.Warnings, b.placed.note)
	}
	return msg, nil
}

// write puts, last, the runs' provenance.json and provenance.json, which
// list every other file, and warns of a site over GitHub Pages' limit.
func (b *build) write() (string, error) {
	inputs, err := datapage.Inputs(b.cfg, b.in)
	if err != nil {
		return "", fmt.Errorf("provenance: %w", err)
	}
	if err := datapage.ProvenanceFiles(b.site, b.scored.Entries, inputs, b.rec.Outputs(), b.rec.Put); err != nil {
		return "", fmt.Errorf("provenance: %w", err)
	}
	b.files = b.rec.Outputs()
	if err := checkBudget(b.cfg, b.in, b.files, b.placed.where); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d files in all", len(b.files)), nil
}
