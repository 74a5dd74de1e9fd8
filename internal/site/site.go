// Package site builds the leaderboard: it loads the content and the frozen
// runs, scores every run, assembles boards and pages, renders them with
// html/template and writes the folder atomically.
//
// The phases run in a fixed order (load → score → assemble → render →
// write); all ordering is settled in assemble, so rendering in parallel
// cannot change a byte of the output.
package site

import (
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
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
}

// File is one output file.
type File struct {
	Path string // slash-separated, relative to the site root
	Data []byte
}

// builder carries state between phases.
type builder struct {
	cfg     Config
	content *content.Content
	runs    []*run.Run
	entries []*board.Entry
	boards  []*board.Board
	pages   []*page
	// groups render several pages from one pass over a run's texts.
	groups    []func(*renderer) ([]File, error)
	pairs     []pair
	texts     *datasetTexts
	runTexts  *runTexts
	stats     map[string]map[int]*[design.NumCells]cellStat // per run, per question
	site      *siteInfo
	inputList []hashedFile
	files     []File
}

// Generate runs every phase but write and returns the site's files sorted
// by path.
func Generate(cfg Config) ([]File, error) {
	if cfg.Templates == nil {
		cfg.Templates = templates.FS
	}
	if cfg.Static == nil {
		cfg.Static = static.FS
	}
	cfg.ContentLabel = or(cfg.ContentLabel, "content")
	cfg.RunsLabel = or(cfg.RunsLabel, "runs")
	cfg.MethodologyLabel = or(cfg.MethodologyLabel, "METHODOLOGY.md")
	b := &builder{cfg: cfg}
	for _, phase := range []struct {
		name string
		fn   func() error
	}{
		{"load", b.load},
		{"score", b.score},
		{"assemble", b.assemble},
		{"render", b.render},
	} {
		if err := phase.fn(); err != nil {
			return nil, fmt.Errorf("%s: %w", phase.name, err)
		}
	}
	// The provenance manifest comes last: it lists every other file.
	prov, err := b.provenanceFile(b.inputList)
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	b.files = append(b.files, prov)
	sort.Slice(b.files, func(i, j int) bool { return b.files[i].Path < b.files[j].Path })
	for i := 1; i < len(b.files); i++ {
		if b.files[i].Path == b.files[i-1].Path {
			return nil, fmt.Errorf("assemble: two outputs at %s", b.files[i].Path)
		}
	}
	return b.files, nil
}

// Build generates the site and writes it to out, replacing the previous
// contents only when everything succeeded.
func Build(cfg Config, out string) error {
	files, err := Generate(cfg)
	if err != nil {
		return err
	}
	if err := Write(out, files); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func (b *builder) load() error {
	var err error
	if b.content, err = content.Load(b.cfg.Content, b.cfg.ContentLabel); err != nil {
		return err
	}
	if len(b.cfg.Methodology) == 0 {
		return fmt.Errorf("%s: empty or missing", b.cfg.MethodologyLabel)
	}
	b.texts = newDatasetTexts()
	b.runTexts = &runTexts{byRun: map[string]map[qcell]textInfo{}}
	hook := func(r *run.Run, c run.Cell, row *run.Row) {
		b.texts.hook(r, c, row)
		b.runTexts.hook(r, c, row)
	}
	if b.runs, err = run.LoadAllWith(b.cfg.Runs, b.cfg.RunsLabel, hook); err != nil {
		return err
	}
	if len(b.runs) == 0 {
		return fmt.Errorf("%s: no runs", b.cfg.RunsLabel)
	}
	return nil
}

// score scores runs in parallel; results land at fixed indices.
func (b *builder) score() error {
	b.entries = make([]*board.Entry, len(b.runs))
	errs := make([]error, len(b.runs))
	parallel(len(b.runs), func(i int) {
		res, err := score.Score(b.runs[i])
		if err != nil {
			errs[i] = fmt.Errorf("%s/%s: %w", b.cfg.RunsLabel, b.runs[i].ID, err)
			return
		}
		b.entries[i] = &board.Entry{Run: b.runs[i], Result: res}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var err error
	if b.boards, err = board.Build(b.entries); err != nil {
		return err
	}
	b.comparePairs()
	return nil
}

// parallel calls fn(0…n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
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
