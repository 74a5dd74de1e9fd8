package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// pagesKey is the key of a run's own pages: its record's key, the site's
// frame, and what its pages show of the other runs — each prompt's dataset
// text and each question's name.
func pagesKey(gen, runKey string, site *layout.SiteInfo, texts *layout.DatasetTexts, r *run.Run, infos layout.PromptInfos) (string, error) {
	frame, err := json.Marshal(site)
	if err != nil {
		return "", err
	}
	// The run's prompts in design order, question by question, each with
	// the hash of the dataset text its pages compare it with.
	h := sha256.New()
	var buf []byte
	for _, q := range slices.Sorted(maps.Keys(infos)) {
		var present [design.NumCells]bool
		for i, t := range infos[q] {
			present[i] = t.Present
		}
		buf = fmt.Appendf(buf[:0], "q%d %s\n", q, texts.Title(r.Manifest.Variant, q))
		buf = texts.AppendHashes(buf, r.Manifest.Variant, q, &present)
		h.Write(buf)
	}
	return cache.Key(gen, "pages", r.ID, runKey, string(frame), hex.EncodeToString(h.Sum(nil))), nil
}

// pagesEntry lists a run's own pages by path, SHA-256 and size, in path
// order, and holds them in one blob, Pack, their bytes one after another
// (a blob a page was a cache file a page, about 75 a run, whose creation
// cost more than the pages' rendering); and how many of its prompts have
// a transcript (the hub says).
type pagesEntry struct {
	Paths, Sums []string
	Sizes       []int64
	Pack        string
	Transcripts int
}

// capture forwards a run's pages to the site and keeps them, to store in
// the cache once every one of the run's page jobs is done.
type capture struct {
	next  outdir.Sink
	mu    sync.Mutex
	files []outdir.File
	jobs  sync.WaitGroup
	err   error
	// transcripts is how many of the run's prompts have a transcript.
	transcripts int
}

func (c *capture) Put(p string, data []byte) error {
	c.mu.Lock()
	c.files = append(c.files, outdir.File{Path: p, Data: data})
	c.mu.Unlock()
	return c.next.Put(p, data)
}

// job wraps one of the run's page jobs so the capture knows when they are
// all done, and whether one failed.
func (c *capture) job(j render.Job) render.Job {
	c.jobs.Add(1)
	return func(r *render.Renderer) error {
		defer c.jobs.Done()
		err := j(r)
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
		}
		return err
	}
}

// store waits for the run's jobs and stores its pages in the cache.
func (c *capture) store(ch *cache.Cache, key string) error {
	c.jobs.Wait()
	if c.err != nil {
		return nil // the build fails; nothing to keep
	}
	slices.SortFunc(c.files, func(a, b outdir.File) int {
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	e := pagesEntry{Transcripts: c.transcripts}
	total := 0
	for _, f := range c.files {
		total += len(f.Data)
	}
	pack := make([]byte, 0, total)
	for _, f := range c.files {
		e.Paths, e.Sums, e.Sizes = append(e.Paths, f.Path), append(e.Sums, cache.Sum(f.Data)), append(e.Sizes, int64(len(f.Data)))
		pack = append(pack, f.Data...)
	}
	var err error
	if e.Pack, err = ch.Put(pack); err != nil {
		return err
	}
	data, err := buildcache.EncodeGob(e)
	if err != nil {
		return err
	}
	return ch.PutEntry(key, data)
}

// cachedPages puts a run's pages from the cache into the site, when every
// one of them is there intact; false when they are not (and nothing was
// put), with the run's count of prompts with a transcript.
func cachedPages(ch *cache.Cache, key string, out outdir.Sink) (ok bool, transcripts int, err error) {
	data, err := ch.GetEntry(key)
	if err != nil {
		return false, 0, nil
	}
	var e pagesEntry
	if buildcache.DecodeGob(data, &e) != nil || len(e.Paths) != len(e.Sums) || len(e.Sizes) != len(e.Sums) {
		ch.Forget(key)
		return false, 0, nil
	}
	// A page the previous site has with the same hash is linked from it
	// (byHash, on every core: reads and hashes, file by file; the runs are
	// committed one at a time); the others are cut from the pack, read
	// once, when one is missing, and every one of them is ready before
	// any is put, so that a missing pack leaves nothing put.
	hashed, _ := out.(outdir.ByHash)
	linked := make([]bool, len(e.Paths))
	var all atomic.Bool
	all.Store(true)
	render.Parallel(len(e.Paths), func(i int) {
		if hashed != nil && hashed.Has(e.Paths[i], e.Sums[i], e.Sizes[i]) {
			linked[i] = true
		} else {
			all.Store(false)
		}
	})
	var files [][]byte
	if all.Load() {
		ch.Touch(e.Pack) // used, for TrimTo
	} else {
		pack, err := ch.Get(e.Pack)
		var total int64
		for _, n := range e.Sizes {
			total += n
		}
		if err != nil || int64(len(pack)) != total {
			ch.Forget(key)
			return false, 0, nil
		}
		files = make([][]byte, len(e.Sizes))
		for i, n := range e.Sizes {
			files[i], pack = pack[:n:n], pack[n:]
		}
	}
	errs := make([]error, len(e.Paths))
	render.Parallel(len(e.Paths), func(i int) {
		if linked[i] {
			errs[i] = hashed.PutByHash(e.Paths[i], e.Sums[i], e.Sizes[i])
		} else {
			errs[i] = out.Put(e.Paths[i], files[i])
		}
	})
	for _, err := range errs {
		if err != nil {
			return true, 0, err
		}
	}
	return true, e.Transcripts, nil
}

// runPageWriter puts a run's own pages into the site and says how many
// of its prompts have a transcript.
type runPageWriter interface {
	write(rr *readRun, e *board.Entry) (transcripts int, err error)
}

// renderRunPages queues a run's own pages for rendering.
type renderRunPages struct {
	cfg  stage.Config
	in   *stage.Loaded
	pool *render.Pool
}

func (w renderRunPages) write(rr *readRun, e *board.Entry) (int, error) {
	capt := &capture{next: w.pool.R.Out}
	if err := w.render(rr, e, capt); err != nil {
		return 0, err
	}
	return capt.transcripts, nil
}

func (w renderRunPages) render(rr *readRun, e *board.Entry, capt *capture) error {
	cells, infos, err := rr.rows.cells()
	if err != nil {
		return err
	}
	return runPages(w.cfg, w.in, e, cells, infos, w.pool, capt)
}

// cachedRunPages puts a run's pages from the cache when they are there
// under the key of everything they show; otherwise next renders them, and
// they are stored once rendered.
type cachedRunPages struct {
	next  renderRunPages
	c     *cache.Cache
	gen   string
	site  *layout.SiteInfo
	texts *layout.DatasetTexts
	hits  int // runs whose pages came from the cache

	stored sync.WaitGroup // runs' pages being stored
	mu     sync.Mutex
	err    error
}

func (w *cachedRunPages) write(rr *readRun, e *board.Entry) (int, error) {
	out := w.next.pool.R.Out
	key, err := pagesKey(w.gen, rr.key, w.site, w.texts, rr.run, rr.infos)
	if err != nil {
		return 0, err
	}
	ok, transcripts, err := cachedPages(w.c, key, out)
	if err != nil || ok {
		if ok {
			w.hits++
		}
		return transcripts, err
	}
	capt := &capture{next: out}
	if err := w.next.render(rr, e, capt); err != nil {
		return 0, err
	}
	w.stored.Add(1)
	go func() {
		defer w.stored.Done()
		if err := capt.store(w.c, key); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
	}()
	return capt.transcripts, nil
}

// wait waits for the runs' pages to be stored.
func (w *cachedRunPages) Wait() error {
	w.stored.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
