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
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
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

// streamRuns reads and scores the runs, a few at a time in parallel, and
// commits them in id order: a run's prompt texts join the dataset's (the
// first run to have a prompt, by id, gives its text), then its own pages
// are queued for rendering and its rows dropped, keeping what the pages
// that span runs need. Memory holds a few runs' rows at a time.
func streamRuns(cfg Config, in *loaded, site *siteInfo, pool *pool, prog *progress) (*scored, string, error) {
	n := len(in.runs)
	sc := &scored{entries: make([]*board.Entry, n), kept: map[string]*keptCells{}, transcripts: map[string]int{}, needCoefs: board.NeedsCoefficients(in.runs)}
	rc := &runCache{c: cfg.Cache, gen: pool.r.gen}
	workers := runtime.GOMAXPROCS(0)
	window := make(chan struct{}, 2*workers) // runs read but not yet committed
	results := make([]chan *readRun, n)
	for i := range results {
		results[i] = make(chan *readRun, 1)
	}
	next := make(chan int)
	stop := make(chan struct{})
	go func() {
		defer close(next)
		for i := range in.runs {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] <- rc.readAndScore(cfg, in.runs[i])
			}
		}()
	}
	// On an error the workers finish the runs they hold, and no more are
	// started; runs' pages being stored in the cache are waited for.
	defer func() {
		close(stop)
		wg.Wait()
		rc.stored.Wait()
	}()
	for i := range in.runs {
		rr := <-results[i]
		<-window
		if rr.err != nil {
			return nil, "", rr.err
		}
		e, err := rc.commit(cfg, in, sc, site, rr, pool)
		if err != nil {
			return nil, "", err
		}
		sc.entries[i] = e
		prog.step("runs", i+1, n)
	}
	rc.stored.Wait()
	if rc.err != nil {
		return nil, "", fmt.Errorf("cache: %w", rc.err)
	}
	msg := fmt.Sprintf("%d runs read and scored, their pages queued", n)
	if rc.c != nil {
		msg += fmt.Sprintf(" (from the cache: %d runs' scores, %d runs' pages)", rc.scoresHit, rc.pagesHit)
	}
	return sc, msg, nil
}

// readRun is one run read and scored, with its own prompt texts, or its
// record from the cache.
type readRun struct {
	run    *run.Run
	res    *score.Result
	texts  map[design.Prompt]string // the run's prompt texts (when read)
	infos  promptInfos
	cells  map[int]*score.QuestionCells // when read
	cached *cachedRun                   // when it came from the cache
	// keptDeltas are the cached record's differences, unpacked.
	keptDeltas map[int]*keptQuestion
	key        string // its key in the cache
	err        error
}

// runCache does the runs phase with the build cache, when there is one.
type runCache struct {
	c                   *cache.Cache
	gen                 string
	stored              sync.WaitGroup // runs' pages being stored
	mu                  sync.Mutex
	err                 error
	scoresHit, pagesHit int
}

func (rc *runCache) readAndScore(cfg Config, r *run.Run) *readRun {
	if rc.c == nil {
		return readAndScore(cfg, r)
	}
	rr, key, err := fromCache(cfg, rc.c, rc.gen, r)
	if err != nil {
		return &readRun{err: err}
	}
	if rr != nil {
		rr.key = key
		return rr
	}
	rr = readAndScore(cfg, r)
	rr.key = key
	if rr.err == nil && key != "" {
		rec, err := makeCachedRun(rc.c, rr)
		if err == nil {
			err = rc.c.PutEntry(key, mustGob(rec))
		}
		if err != nil {
			rr.err = fmt.Errorf("cache: %w", err)
		}
	}
	return rr
}

func mustGob(v any) []byte {
	data, err := encodeGob(v)
	if err != nil {
		panic(err) // our own types: cannot fail
	}
	return data
}

func readAndScore(cfg Config, r *run.Run) *readRun {
	rr := &readRun{run: r}
	if err := readRows(cfg, rr); err != nil {
		rr.err = err
		return rr
	}
	res, err := score.Score(r)
	if err != nil {
		// A run that cannot be scored at all: its data are the cause.
		rr.err = fileerr.New(path.Join(cfg.RunsLabel, r.ID, r.Manifest.Scored.Path), 0, "cannot be scored: %v", err)
		return rr
	}
	rr.res = res
	rr.cells = score.Cells(r)
	return rr
}

// readRows reads a run's rows, keeping its prompt texts and what they
// look like.
func readRows(cfg Config, rr *readRun) error {
	r := rr.run
	rr.texts, rr.infos = map[design.Prompt]string{}, promptInfos{}
	r.Files = r.Files[:1] // the manifest; LoadRows adds the scored file
	r.Cells = nil
	err := r.LoadRows(cfg.Runs, cfg.RunsLabel, func(r *run.Run, c run.Cell, row *run.Row) {
		rr.texts[c.Prompt] = row.FilledTemplate
		info := textInfo{hash: hashText(row.FilledTemplate), transcript: transcriptSize(r.Manifest, row), bounded: boundedForms(r.Manifest, row)}
		if r.Manifest.Scoring == run.Decision {
			info.answers = append([]string(nil), row.Decisions...) // the row may be reused
		}
		rr.infos.set(c.Prompt, info)
	})
	return err
}

// commit adds a run to the site, in id order: its texts to the dataset's,
// its own pages to the rendering queue (or from the cache to the site);
// then its rows are let go.
func (rc *runCache) commit(cfg Config, in *loaded, sc *scored, site *siteInfo, rr *readRun, pool *pool) (*board.Entry, error) {
	r := rr.run
	if !sc.needCoefs[r.ID] {
		rr.res.DropCoefficientReplicates()
	}
	e := &board.Entry{Run: r, Result: rr.res}
	keep := &keptCells{decision: r.Manifest.Scoring == run.Decision}
	sc.kept[r.ID] = keep
	if rr.cached != nil {
		rc.scoresHit++
		keep.deltas = rr.keptDeltas
		if in.texts.missing(r.Manifest.Variant, rr.infos) {
			texts, err := cachedTexts(rc.c, rr.cached)
			if err != nil {
				// The blob is gone or damaged: read the texts again.
				if err := readRows(cfg, rr); err != nil {
					return nil, err
				}
				texts = rr.texts
			}
			rr.texts = texts
		}
		if f := rr.cached.First; f != nil && sc.example == nil {
			r.Cells = []run.Cell{{Prompt: f.P, Line: f.Line, Logit: f.Logit, LP: f.LP}}
		}
	}
	if keep.deltas == nil {
		// Read and scored now (the cache had no scores): the differences
		// are kept before the run's pages may come from the cache below,
		// which returns early. Missing them there dropped the run from
		// the compare pages whenever its scores had been trimmed from the
		// cache but not its pages.
		keep.deltas = deltas(rr.cells, keep.decision)
	}
	in.texts.add(r, rr.texts, rr.infos)
	if sc.example == nil && r.Manifest.Scoring == run.Logprob && len(r.Cells) > 0 {
		sc.example = workedExample(e)
	}
	out := sink(pool.r.out)
	var key string
	if rc.c != nil {
		var err error
		if key, err = pagesKey(rc.gen, rr.key, site, in.texts, r, rr.infos); err != nil {
			return nil, err
		}
		ok, transcripts, err := cachedPages(rc.c, key, out)
		if err != nil {
			return nil, err
		}
		if ok {
			sc.transcripts[r.ID] = transcripts
			rc.pagesHit++
			r.Cells = nil
			return e, nil
		}
		if rr.cached != nil {
			// Scores from the cache, pages not: the rows are needed again.
			if err := readRows(cfg, rr); err != nil {
				return nil, err
			}
			rr.cells = score.Cells(r)
		}
	}
	cells := rr.cells
	capt := &capture{next: out}
	if err := runPages(cfg, in, e, cells, rr.infos, pool, capt); err != nil {
		return nil, err
	}
	sc.transcripts[r.ID] = capt.transcripts
	if rc.c != nil {
		rc.stored.Add(1)
		go func() {
			defer rc.stored.Done()
			if err := capt.store(rc.c, key); err != nil {
				rc.mu.Lock()
				rc.err = err
				rc.mu.Unlock()
			}
		}()
	}
	r.Cells = nil // the scenario pages hold what they need
	return e, nil
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
