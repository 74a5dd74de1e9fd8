package site

// The runs phase: each run read and scored, from its files or from the
// build cache's record of it, reaches the commit as one complete value
// (readRun), whichever source it came from; its own pages are put into
// the site by a writer that renders them or, with the cache, takes them
// from it (runPageWriter, pagecache.go). The cache is a shortcut only:
// what a readRun holds, and what the pages are, is the same either way
// (TestCacheNeverChangesTheSite).

import (
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// readRun is one run read and scored, complete when its source returns
// it; nothing in it is set afterwards.
type readRun struct {
	// run is the run as the pages see it: its manifest and its two
	// files with their hashes, built once by the source; no cells.
	run    *run.Run
	res    *score.Result
	infos  layout.PromptInfos         // what each prompt's texts look like
	deltas map[int]*grid.KeptQuestion // what the pages spanning runs show of its cells
	first  *grid.FirstCell            // log-prob runs: the first row, for the rubric's example
	rows   rows                       // its prompt texts and cells, when they are needed
	cached bool                       // it came from the cache
	key    string                     // its record's key in the cache ("" without one)
	err    error
}

// rows gives a run's prompt texts and cells: those read with it, or, for
// a run from the cache, read again when asked for.
type rows interface {
	texts() (map[design.Prompt]string, error)
	// cells are what the run's own pages show of its rows: its cells and
	// its prompts' infos in full (a cached record's infos lack the
	// sampled answers and the bounded forms).
	cells() (map[int]*score.QuestionCells, layout.PromptInfos, error)
}

// runSource reads and scores a run of the load phase (manifest only).
type runSource interface {
	read(m *run.Run) *readRun
}

// streamRuns reads and scores the runs, a few at a time in parallel, and
// commits them in id order: a run's prompt texts join the dataset's (the
// first run to have a prompt, by id, gives its text), then its own pages
// are put into the site and its rows dropped, keeping what the pages
// that span runs need. Memory holds a few runs' rows at a time.
func streamRuns(cfg stage.Config, in *stage.Loaded, site *layout.SiteInfo, pool *render.Pool, prog *progress) (*stage.Runs, string, error) {
	n := len(in.Runs)
	rs := &stage.Runs{Entries: make([]*board.Entry, n), Kept: map[string]*stage.KeptCells{}, Transcripts: map[string]int{}, Keys: map[string]string{}}
	needCoefs := board.NeedsCoefficients(in.Runs) // the runs compared coefficient by coefficient (commit)
	var src runSource = freshRuns{cfg, in.Texts}
	var pages runPageWriter = renderRunPages{cfg, in, pool}
	var cached *cachedRunPages
	if cfg.Cache != nil {
		src = cachedRuns{next: freshRuns{cfg, in.Texts}, c: cfg.Cache, gen: pool.R.Gen}
		cached = &cachedRunPages{next: renderRunPages{cfg, in, pool}, c: cfg.Cache, gen: pool.R.Gen, site: site, texts: in.Texts}
		pages = cached
	}
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
		for i := range in.Runs {
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
				results[i] <- src.read(in.Runs[i])
			}
		}()
	}
	// On an error the workers finish the runs they hold, and no more are
	// started; runs' pages being stored in the cache are waited for.
	defer func() {
		close(stop)
		wg.Wait()
		if cached != nil {
			cached.stored.Wait()
		}
	}()
	scoresHit := 0
	for i := range in.Runs {
		rr := <-results[i]
		<-window
		if rr.err != nil {
			return nil, "", rr.err
		}
		if rr.cached {
			scoresHit++
		}
		e, err := commit(in, rs, rr, pages, needCoefs[rr.run.ID])
		if err != nil {
			return nil, "", err
		}
		rs.Entries[i] = e
		prog.step("runs", i+1, n)
	}
	msg := fmt.Sprintf("%d runs read and scored, their pages queued", n)
	if cached != nil {
		if err := cached.Wait(); err != nil {
			return nil, "", fmt.Errorf("cache: %w", err)
		}
		msg += fmt.Sprintf(" (from the cache: %d runs' scores, %d runs' pages)", scoresHit, cached.hits)
	}
	return rs, msg, nil
}

// commit adds a run to the site, in id order: its texts to the dataset's,
// what the pages spanning runs show of it to rs, and its own pages to the
// site; its coefficients' replicates are kept only when needCoefs.
func commit(in *stage.Loaded, rs *stage.Runs, rr *readRun, pages runPageWriter, needCoefs bool) (*board.Entry, error) {
	r := rr.run
	if !needCoefs {
		rr.res.DropCoefficientReplicates()
	}
	e := &board.Entry{Run: r, Result: rr.res}
	rs.Kept[r.ID] = &stage.KeptCells{Decision: r.Manifest.Scoring == run.Decision, Deltas: rr.deltas}
	if rr.key != "" {
		rs.Keys[r.ID] = rr.key
	}
	var texts map[design.Prompt]string
	if in.Texts.Missing(r.Manifest.Variant, rr.infos) {
		var err error
		if texts, err = rr.rows.texts(); err != nil {
			return nil, err
		}
	}
	in.Texts.Add(r, texts, rr.infos)
	if rs.Example == nil && rr.first != nil {
		rs.Example = grid.WorkedExample(e, rr.first)
	}
	transcripts, err := pages.write(rr, e)
	if err != nil {
		return nil, err
	}
	rs.Transcripts[r.ID] = transcripts
	return e, nil
}

// freshRuns reads and scores runs from their files. With dataset (a
// build without the cache, which keeps every text of a run), a run keeps
// only the prompt texts that the dataset lacks when the run is read:
// runs are committed in id order, so what the dataset has then, from runs
// of lower ids, it has at the run's commit.
type freshRuns struct {
	cfg     stage.Config
	dataset *layout.DatasetTexts
}

func (s freshRuns) read(m *run.Run) *readRun {
	full, texts, infos, err := readRows(s.cfg, m, s.dataset)
	if err != nil {
		return &readRun{err: err}
	}
	res, err := score.Score(full)
	if err != nil {
		// A run that cannot be scored at all: its data are the cause.
		return &readRun{err: fileerr.New(path.Join(s.cfg.RunsLabel, m.ID, m.Manifest.Scored.Path), 0, "cannot be scored: %v", err)}
	}
	cells := score.Cells(full)
	rr := &readRun{run: withoutCells(full), res: res, infos: infos,
		deltas: deltas(cells, m.Manifest.Scoring == run.Decision), rows: readRowsOf{texts, cells, infos}}
	if m.Manifest.Scoring == run.Logprob && len(full.Cells) > 0 {
		c0 := full.Cells[0]
		rr.first = &grid.FirstCell{Line: c0.Line, P: c0.Prompt, Logit: c0.Logit, LP: c0.LP}
	}
	return rr
}

// readRows reads a run's rows into a run of its own (m, of the load
// phase, stays as it is), keeping what its prompt texts look like and
// the texts themselves: every one, or with dataset those it lacks (a
// text that is the dataset's has its hash, not hashed again).
func readRows(cfg stage.Config, m *run.Run, dataset *layout.DatasetTexts) (*run.Run, map[design.Prompt]string, layout.PromptInfos, error) {
	full := &run.Run{ID: m.ID, Manifest: m.Manifest, ManifestRaw: m.ManifestRaw, Files: slices.Clone(m.Files)}
	infos := layout.PromptInfos{}
	var texts map[design.Prompt]string
	if dataset == nil {
		// Sized as the cells are (run.LoadRows): at most a complete run.
		texts = make(map[design.Prompt]string, min(max(m.Manifest.Scored.Rows, 0), design.NumPrompts))
	} else {
		texts = map[design.Prompt]string{}
	}
	var buf []byte // hashText's copy of each text, reused
	// The dataset's texts of the question being read, as they were when
	// its first row was (rows come question by question).
	q := -1
	var have [design.NumCells]string
	var haveHash [design.NumCells]uint64
	// The rows' texts are borrowed: kept, they are copied.
	err := full.LoadRowsBorrowed(cfg.Runs, cfg.RunsLabel, func(r *run.Run, c run.Cell, row *run.Row) {
		info := layout.TextInfo{Transcript: layout.TranscriptSize(r.Manifest, row), Bounded: grid.BoundedForms(r.Manifest, row)}
		if dataset != nil && c.Q != q {
			dataset.QuestionTexts(r.Manifest.Variant, c.Q, &have, &haveHash)
			q = c.Q
		}
		t := have[c.Index()] // "" without dataset: a row's text is never ""
		if t == "" {
			texts[c.Prompt] = strings.Clone(row.FilledTemplate)
		}
		if t != "" && t == row.FilledTemplate {
			info.Hash = haveHash[c.Index()] // the dataset's text, whose hash is known
		} else {
			buf = append(buf[:0], row.FilledTemplate...)
			info.Hash = layout.HashBytes64(buf)
		}
		if r.Manifest.Scoring == run.Decision {
			info.Answers = append([]string(nil), row.Decisions...) // the row may be reused
		}
		infos.Set(c.Prompt, info)
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return full, texts, infos, nil
}

// withoutCells is the run as the pages see it: manifest and files.
func withoutCells(full *run.Run) *run.Run {
	return &run.Run{ID: full.ID, Manifest: full.Manifest, ManifestRaw: full.ManifestRaw, Files: full.Files}
}

// readRowsOf are rows read with the run.
type readRowsOf struct {
	t map[design.Prompt]string
	c map[int]*score.QuestionCells
	i layout.PromptInfos
}

func (r readRowsOf) texts() (map[design.Prompt]string, error) { return r.t, nil }
func (r readRowsOf) cells() (map[int]*score.QuestionCells, layout.PromptInfos, error) {
	return r.c, r.i, nil
}

// cachedRuns takes a run's record from the cache when its manifest and
// scored file are those it was made from, and otherwise has next read it
// and records it.
type cachedRuns struct {
	next freshRuns
	c    *cache.Cache
	gen  string
}

func (s cachedRuns) read(m *run.Run) *readRun {
	rr, key, err := fromCache(s.next.cfg, s.c, s.gen, m, s.next.dataset)
	if err != nil {
		return &readRun{err: err}
	}
	if rr != nil {
		rr.key = key
		return rr
	}
	rr = s.next.read(m)
	rr.key = key
	if rr.err == nil && key != "" {
		rec, err := makeCachedRun(rr)
		if err == nil {
			err = s.c.PutEntry(key, mustGob(rec))
		}
		if err != nil {
			return &readRun{err: fmt.Errorf("cache: %w", err)}
		}
	}
	return rr
}

// cachedRows are the rows of a run from the cache, read again from its
// file when needed: its texts that the dataset lacks, its cells.
type cachedRows struct {
	cfg     stage.Config
	m       *run.Run // of the load phase
	dataset *layout.DatasetTexts
}

func (r cachedRows) texts() (map[design.Prompt]string, error) {
	_, texts, _, err := readRows(r.cfg, r.m, r.dataset)
	return texts, err
}

func (r cachedRows) cells() (map[int]*score.QuestionCells, layout.PromptInfos, error) {
	full, _, infos, err := readRows(r.cfg, r.m, nil)
	if err != nil {
		return nil, nil, err
	}
	return score.Cells(full), infos, nil
}

func mustGob(v any) []byte {
	data, err := buildcache.EncodeGob(v)
	if err != nil {
		panic(err) // our own types: cannot fail
	}
	return data
}
