package site

import (
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/fileerr"
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

// Generate runs every phase but write and returns the site's files sorted
// by path. Each phase takes what the previous ones produced and returns
// its own result, so the order of the build is in these calls.
func Generate(cfg Config) ([]File, error) {
	cfg = cfg.withDefaults()
	in, err := load(cfg)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	sc, err := scoreRuns(cfg, in)
	if err != nil {
		return nil, fmt.Errorf("score: %w", err)
	}
	a, err := assemble(cfg, in, sc)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	files, err := render(cfg, in, a)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return files, nil
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

// loaded is the load phase's result: the inputs, read and checked.
type loaded struct {
	content     *content.Content
	methodology []byte
	runs        []*run.Run // by id
	// texts keeps one copy of each prompt text per variant; runTexts what
	// each run's texts look like (hashes and transcript sizes), so the
	// transcript pages can be planned without holding the texts.
	texts    *datasetTexts
	runTexts *runTexts
}

func load(cfg Config) (*loaded, error) {
	in := &loaded{methodology: cfg.Methodology, texts: newDatasetTexts(), runTexts: newRunTexts()}
	var err error
	if in.content, err = content.Load(cfg.Content, cfg.ContentLabel); err != nil {
		return nil, err
	}
	if len(cfg.Methodology) == 0 {
		return nil, fmt.Errorf("%s: empty or missing", cfg.MethodologyLabel)
	}
	hook := func(r *run.Run, c run.Cell, row *run.Row) {
		in.texts.hook(r, c, row)
		in.runTexts.hook(r, c, row)
	}
	if in.runs, err = run.LoadAllWith(cfg.Runs, cfg.RunsLabel, hook); err != nil {
		return nil, err
	}
	if len(in.runs) == 0 {
		return nil, fmt.Errorf("%s: no runs", cfg.RunsLabel)
	}
	return in, nil
}

// scored is the score phase's result.
type scored struct {
	entries []*board.Entry // by run id
	boards  []*board.Board
	pairs   []pair // intervention runs against their model's default prompt
	// cells holds each run's prompts per question, with their differences
	// from the baseline person.
	cells map[string]map[int]*score.QuestionCells
}

// scoreRuns scores runs in parallel (results land at fixed indices), then
// builds the boards.
func scoreRuns(cfg Config, in *loaded) (*scored, error) {
	sc := &scored{entries: make([]*board.Entry, len(in.runs)), cells: map[string]map[int]*score.QuestionCells{}}
	errs := make([]error, len(in.runs))
	parallel(len(in.runs), func(i int) {
		r := in.runs[i]
		res, err := score.Score(r)
		if err != nil {
			// A run that cannot be scored at all: its data are the cause.
			errs[i] = fileerr.New(path.Join(cfg.RunsLabel, r.ID, r.Manifest.Scored.Path), 0, "cannot be scored: %v", err)
			return
		}
		sc.entries[i] = &board.Entry{Run: in.runs[i], Result: res}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, e := range sc.entries {
		sc.cells[e.ID()] = score.Cells(e.Run)
	}
	var err error
	if sc.boards, err = board.Build(sc.entries); err != nil {
		return nil, err
	}
	sc.pairs = interventionPairs(sc.boards)
	return sc, nil
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

// sortFiles orders files by path and rejects two at one path.
func sortFiles(files []File) error {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for i := 1; i < len(files); i++ {
		if files[i].Path == files[i-1].Path {
			return fmt.Errorf("two outputs at %s", files[i].Path)
		}
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
