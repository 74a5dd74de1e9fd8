package site

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/static"
	"github.com/discrimeval/leaderboard/templates"
)

// Config says where the inputs are.
type Config struct {
	Content      fs.FS
	ContentLabel string // how the user names the folder, for messages ("content")
	Runs         fs.FS
	RunsLabel    string
	// Methodology is METHODOLOGY.md.
	Methodology      []byte
	MethodologyLabel string
	// Templates and Static default to the embedded ones.
	Templates fs.FS
	Static    fs.FS
	// Version identifies the generator (module version and VCS revision).
	Version string
	// Progress, when set, hears one line per phase with counts and the
	// time taken (never part of the site).
	Progress io.Writer
	// Warnings, when set, hears what a build allows but a publisher
	// should know, a line each ("build: warning: …").
	Warnings io.Writer
	// Cache, when set, keeps each run's scores and its own pages between
	// builds, keyed by their inputs (runcache.go), and with Build the list
	// of the site's files under the whole-build key (unchanged.go); the
	// site is the same with or without it. After a Build the cache is
	// trimmed to the site's size, least recently used first.
	Cache *cache.Cache
}

func (cfg Config) withDefaults() Config {
	if cfg.Templates == nil {
		cfg.Templates = templates.FS
	}
	if cfg.Static == nil {
		cfg.Static = static.FS
	}
	cfg.ContentLabel = or(cfg.ContentLabel, "content")
	cfg.RunsLabel = or(cfg.RunsLabel, "runs")
	cfg.MethodologyLabel = or(cfg.MethodologyLabel, "METHODOLOGY.md")
	return cfg
}

// File is one output file.
type File struct {
	Path string // slash-separated, relative to the site root
	Data []byte
}

// Generate builds the site in memory and returns its files sorted by path
// (for tests and tools; Build streams them to disk).
func Generate(cfg Config) ([]File, error) {
	var m memSink
	if _, err := generate(cfg, &m); err != nil {
		return nil, err
	}
	return m.sorted(), nil
}

// Build generates the site into out, replacing the previous contents only
// when everything succeeded: the files go to a temporary folder beside
// out, under out's lock, as they are rendered, and the folder is swapped
// in at the end.
func Build(cfg Config, out string, opt WriteOptions) error {
	start := time.Now()
	// With the cache, the whole-build key: a rebuild with nothing changed
	// verifies the previous site and stops (unchanged.go).
	var gen, key string
	if cfg.Cache != nil {
		var err error
		if gen, err = generatorID(cfg.withDefaults()); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		key = siteKey(cfg.withDefaults(), gen)
	}
	o, err := lockOutput(out, opt)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		start := time.Now()
		if ok, rec := unchangedSite(cfg.Cache, key, o.out); ok {
			if cfg.Warnings != nil {
				io.WriteString(cfg.Warnings, rec.Warnings)
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "build: nothing changed since the build the cache recorded: the %d files of %s read and verified (%.1f s)\n", len(rec.Files), out, time.Since(start).Seconds())
			}
			if err := o.unlock(); err != nil {
				return fmt.Errorf("write: %w", err)
			}
			return nil
		}
	}
	if err := o.begin(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	var tee *teeWarnings
	if key != "" {
		tee = &teeWarnings{w: cfg.Warnings}
		cfg.Warnings = tee
	}
	files, err := generate(cfg, o)
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if key != "" {
		if err := recordSite(cfg.withDefaults(), cfg.Cache, gen, key, files, tee.buf.String()); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	if cfg.Cache != nil {
		// The cache no larger than the site: what this build did not use
		// goes, least recently used first.
		var size int64
		for _, f := range files {
			size += f.Size
		}
		if err := cfg.Cache.TrimTo(size, start); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	return nil
}

// moreRuns, when set (by tests), adds runs after the runs phase: a test of
// a site of hundreds of runs clones a few scored ones rather than scoring
// hundreds.
var moreRuns func(in *loaded, sc *scored)

// loaded is what the load phase reads: the content, METHODOLOGY.md and
// the runs' manifests; the runs' rows are read run by run later.
type loaded struct {
	content     *content.Content
	methodology []byte
	runs        []*run.Run // by id, manifests only
	// texts keeps one copy of each prompt text per variant, filled as runs
	// are committed.
	texts *datasetTexts
}

func loadInputs(cfg Config) (*loaded, error) {
	in := &loaded{methodology: cfg.Methodology, texts: newDatasetTexts()}
	var err error
	if in.content, err = content.Load(cfg.Content, cfg.ContentLabel); err != nil {
		return nil, err
	}
	if len(cfg.Methodology) == 0 {
		return nil, fmt.Errorf("%s: empty or missing", cfg.MethodologyLabel)
	}
	ids, skipped, err := run.List(cfg.Runs, cfg.RunsLabel)
	if err != nil {
		return nil, err
	}
	if cfg.Warnings != nil {
		for _, w := range append(in.content.Warnings, skipped...) {
			fmt.Fprintf(cfg.Warnings, "build: warning: %v\n", w)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s: no runs", cfg.RunsLabel)
	}
	for _, id := range ids {
		r, err := run.LoadManifest(cfg.Runs, cfg.RunsLabel, id)
		if err != nil {
			return nil, err
		}
		in.runs = append(in.runs, r)
	}
	if in.content.Site.RunsURL == "" {
		warnCopies(cfg, in.runs)
	}
	return in, nil
}

// warnCopies warns, before anything is written, when the copies of the
// runs' files that the site offers for download (data/runs/) are alone
// over GitHub Pages' limit; the size warning at the end of the build
// counts the whole site.
func warnCopies(cfg Config, runs []*run.Run) {
	if cfg.Warnings == nil {
		return
	}
	var total, largest int64
	var largestID string
	for _, r := range runs {
		size := int64(len(r.ManifestRaw))
		if st, err := fs.Stat(cfg.Runs, r.ScoredFS()); err == nil {
			size += st.Size()
		}
		total += size
		if size > largest {
			largest, largestID = size, r.ID
		}
	}
	if total > pagesLimit {
		fmt.Fprintf(cfg.Warnings, "build: warning: %s: the runs' files are %.2f GB (the largest, %s, %.2f GB), and the site copies each into data/runs/: over GitHub Pages' limit of 1 GB before any page; set runs_url in content/site.yaml to link them instead\n",
			cfg.RunsLabel, float64(total)/1e9, path.Join(cfg.RunsLabel, largestID), float64(largest)/1e9)
	}
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
}

// keptCells is a run's prompts reduced to what the compare, prompt and
// rubric pages show.
type keptCells struct {
	decision bool
	deltas   map[int]*keptQuestion
}

// pagesLimit is GitHub Pages' limit on a published site.
const pagesLimit = 1_000_000_000

// warnSize warns of a site larger than GitHub Pages publishes, saying how
// much of it is copies of the runs' files, which runs_url would link
// instead.
func warnSize(w io.Writer, files []hashedFile, runsURL string) {
	var total, copies int64
	for _, f := range files {
		total += f.Size
		if strings.HasPrefix(f.Path, sitedata.RunCopy("")) && !sitedata.IsRunFile(f.Path) {
			copies += f.Size
		}
	}
	if w == nil || total <= pagesLimit {
		return
	}
	fmt.Fprintf(w, "build: warning: the site is %.2f GB, over GitHub Pages' limit of 1 GB", float64(total)/1e9)
	if runsURL == "" && copies > 0 {
		fmt.Fprintf(w, "; %.2f GB of it are copies of the runs' files: set runs_url in content/site.yaml to link them instead", float64(copies)/1e9)
	}
	fmt.Fprintln(w)
}

// progress prints one line per phase, with counts and the time taken.
type progress struct {
	w          io.Writer
	start      time.Time
	lastStep   time.Time
	stepsShown int
}

func newProgress(w io.Writer) *progress {
	now := time.Now()
	return &progress{w: w, start: now, lastStep: now}
}

func (p *progress) done(phase, format string, args ...any) {
	if p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "build: %-9s %s (%.1f s)\n", phase+":", fmt.Sprintf(format, args...), time.Since(p.start).Seconds())
}

// step reports progress within a long phase, at most every five seconds.
func (p *progress) step(phase string, i, n int) {
	if p.w == nil || i == n || time.Since(p.lastStep) < 5*time.Second {
		return
	}
	p.lastStep = time.Now()
	fmt.Fprintf(p.w, "build: %-9s %d of %d (%.1f s)\n", phase+":", i, n, time.Since(p.start).Seconds())
}

// parallel calls fn(0…n-1) on twice GOMAXPROCS workers: its callers read,
// hash and link files, and wait on the disk as much as they compute.
func parallel(n int, fn func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Stream builds the site and hands every file to put as soon as it is
// rendered, from several goroutines, in no particular order (for -verify,
// which compares each file with a published copy as it comes).
func Stream(cfg Config, put func(path string, data []byte) error) error {
	_, err := generate(cfg, putFunc(put))
	return err
}

type putFunc func(path string, data []byte) error

func (f putFunc) put(path string, data []byte) error { return f(path, data) }
