package site

import (
	"fmt"
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
	if b.r, err = newRenderer(b.cfg.Templates, pageKinds, b.site, b.rec); err != nil {
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
