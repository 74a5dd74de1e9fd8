package site

import (
	"fmt"
	"github.com/discrimeval/leaderboard/internal/score"
	"reflect"
	"runtime"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
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

// build is one build's state, filled in by its phases in turn.
type build struct {
	cfg  Config
	out  sink
	prog *progress
	// load
	in   *loaded
	rec  *recorder
	site *siteInfo
	r    *renderer
	pool *pool
	// runs and boards
	sc *scored
	// write
	files []hashedFile
}

// generate runs the phases, streaming every file to out, and returns the
// files written.
func generate(cfg Config, out sink) ([]hashedFile, error) {
	cfg = cfg.withDefaults()
	b := &build{cfg: cfg, out: out, prog: newProgress(cfg.Progress)}
	defer func() {
		if b.pool != nil {
			b.pool.wait() // after an error: the queued pages are let finish
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
	b.rec = newRecorder(b.out)
	b.site = newSiteInfo(b.cfg, b.in)
	if b.r, err = newRenderer(b.cfg, b.site, b.rec); err != nil {
		return "", err
	}
	if b.cfg.Cache != nil {
		if b.r.gen, err = generatorID(b.cfg); err != nil {
			return "", fmt.Errorf("cache: %w", err)
		}
		b.r.memo = b.cfg.Cache
	}
	b.pool = newPool(b.r)
	return fmt.Sprintf("%d runs", len(b.in.runs)), nil
}

// runs reads and scores each run, and commits it: its own pages queued,
// its prompt texts joined to the dataset's (streamRuns).
func (b *build) runs() (string, error) {
	sc, msg, err := streamRuns(b.cfg, b.in, b.site, b.pool, b.prog)
	if err != nil {
		return "", err
	}
	if m := b.cfg.more; m != nil {
		m.add(b.in, sc)
	}
	b.sc = sc
	return msg, nil
}

// boards ranks and compares the runs.
func (b *build) boards() (string, error) {
	sc := b.sc
	var err error
	if sc.boards, err = board.Build(sc.entries); err != nil {
		return "", err
	}
	sc.places = rowPlaces(sc.boards)
	sc.pairs = interventionPairs(sc.boards)
	sc.adjusted = adjustedByPair(sc.pairs)
	sc.variants = variantPairs(sc.entries)
	sc.variantDiffs = variantDiffs(sc.entries, sc.variants)
	warnRuns(b.cfg.Warnings, b.cfg.RunsLabel, sc.entries, b.in.content.Site.Release.Date)
	return fmt.Sprintf("%d boards", len(sc.boards)), nil
}

// assemble queues the pages that span runs and writes the data files.
func (b *build) assemble() (string, error) {
	if err := assemblePages(b.cfg, b.in, b.sc, b.site, b.pool, b.rec); err != nil {
		return "", err
	}
	return "pages spanning runs queued, data files written", nil
}

// render waits for every queued page, then adds the assets.
func (b *build) render() (string, error) {
	if err := b.pool.wait(); err != nil {
		return "", err
	}
	assets, err := staticFiles(b.cfg.Static, b.r.min)
	if err != nil {
		return "", err
	}
	for _, f := range assets {
		if err := b.rec.put(f.Path, f.Data); err != nil {
			return "", err
		}
	}
	msg := fmt.Sprintf("%d pages and assets", len(b.rec.outputs()))
	if n := b.r.memoPages.Load(); n > 0 {
		msg += fmt.Sprintf(" (from the cache: %d of %d pages spanning runs)", b.r.memoHits.Load(), n)
	}
	return msg, nil
}

// write puts, last, the runs' provenance.json and provenance.json, which
// list every other file, and warns of a site over GitHub Pages' limit.
func (b *build) write() (string, error) {
	inputs, err := inputs(b.cfg, b.in)
	if err != nil {
		return "", fmt.Errorf("provenance: %w", err)
	}
	if err := provenanceFiles(b.site, b.sc.entries, inputs, b.rec.outputs(), b.rec.put); err != nil {
		return "", fmt.Errorf("provenance: %w", err)
	}
	b.files = b.rec.outputs()
	warnSize(b.cfg.Warnings, b.files, b.in.content.Site.RunsURL)
	return fmt.Sprintf("%d files in all", len(b.files)), nil
}

// scored is what the runs and boards phases produce: every run's result,
// and what the pages that span runs need of its rows.
type scored struct {
	entries []*board.Entry // by run id
	boards  []*board.Board
	pairs   []pair // intervention runs against their model's default prompt
	// adjusted holds the pairs' Holm-adjusted p-values by their runs.
	adjusted map[pairKey][score.NumViews]float64
	// variants maps a default-prompt run's id to its model's run of the
	// other prompt variant (variants.go).
	variants map[string]variantLink
	// variantDiffs holds the paired differences of the linked runs.
	variantDiffs map[variantDiffKey]*variantDiff
	// kept holds, per run, what the pages that span runs need of its
	// rows: the differences from the baseline person per question.
	kept map[string]*keptCells
	// transcripts counts, per run, the prompts that have a transcript.
	transcripts map[string]int
	// example is the rubric's worked example: the first row of the first
	// log-prob run.
	example *rubricExample
	// needCoefs are the runs that the boards compare coefficient by
	// coefficient (board.NeedsCoefficients); the others' coefficient
	// replicates are let go as they are committed.
	needCoefs map[string]bool
	// places holds each ranked run's place in every view's order of its
	// board, and an intervention run's parent's (pager.go).
	places map[string][score.NumViews]int
	// per is the site's places a listing page (siteInfo.PageRows).
	per paging
}

// keptCells is a run's prompts reduced to what the compare, prompt and
// rubric pages show.
type keptCells struct {
	decision bool
	deltas   map[int]*keptQuestion
}
