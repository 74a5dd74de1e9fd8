package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"sync"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/datapage"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// The build cache (Config.Cache) keeps two things per run, each under a
// key that hashes everything it depends on:
//
//   - the run's record — its result, the differences the pages spanning
//     runs show, what its prompts look like — keyed by the generator, the
//     manifest and the scored file: reading and scoring are skipped when
//     neither changed (the file is still hashed and checked against the
//     manifest, as the floor of any build must);
//   - the run's own pages, keyed by that key, the site's frame (title,
//     navigation, release, templates) and what the run's pages show of the
//     other runs (each prompt's dataset text, the scenarios' names).
//
// Of the pages spanning runs, the compare pages are kept by the hash of
// their data and the prompt pages by the hash of their inputs (emitMemo,
// emitKeyed in render.go); the others (boards, run pages, data files) are
// rendered every time. Whatever comes from the cache is checked against
// its hash; anything missing or damaged is recomputed. Any file whose bytes
// the previous site already has is linked from it (write.go).

// generatorID identifies the code and templates that make the site: the
// executable's hash, and the templates' and assets' (which tests may
// replace).
func generatorID(cfg stage.Config) (string, error) {
	h := sha256.New()
	sum, err := executableSum()
	if err != nil {
		return "", err
	}
	h.Write(sum)
	for _, fsys := range []fs.FS{cfg.Templates, cfg.Static} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %d\n", p, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	fmt.Fprintf(h, "version %s\n", cfg.Version)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// executableSum is the SHA-256 of the running executable, read once a
// process: the code that runs does not change while it runs, and a build
// asks twice (its whole-build key and its pages' keys), a process of
// -verify, -diff or the tests once a build (the test binaries are 30 MB).
var executableSum = sync.OnceValues(func() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
})

// hashScored hashes a run's scored file as stored, checking it is a
// regular file, and compares the hash with the manifest's.
func hashScored(cfg stage.Config, r *run.Run) (sum string, size int64, err error) {
	m := r.Manifest
	spath := path.Join(r.ID, m.Scored.Path)
	sname := path.Join(cfg.RunsLabel, spath)
	mname := path.Join(cfg.RunsLabel, r.ID, "manifest.yaml")
	f, err := input.Open(cfg.Runs, spath, sname)
	if err != nil {
		return "", 0, fileerr.New(mname, m.Line("scored", "path"), "scored.path %q: %v", m.Scored.Path, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fileerr.New(sname, 0, "%v", err)
	}
	sum = hex.EncodeToString(h.Sum(nil))
	if sum != m.Scored.SHA256 {
		return "", 0, fileerr.New(mname, m.Line("scored", "sha256"), "scored.sha256 is %s, but %s has sha256 %s: the file changed after the run was frozen; restore it, or re-freeze the run (run.WriteDir, or the importers) if the change is meant", m.Scored.SHA256, sname, sum)
	}
	return sum, n, nil
}

// fromCache returns a run read and scored from its cached record, or nil.
// A scored file that cannot be hashed, or whose hash is not the manifest's,
// is left to the uncached path, whose errors name the row at fault.
func fromCache(cfg stage.Config, c *cache.Cache, gen string, m *run.Run, dataset *layout.DatasetTexts) (*readRun, string, error) {
	sum, size, err := hashScored(cfg, m)
	if err != nil {
		return nil, "", nil
	}
	man, ok := runFile(m, path.Join(m.ID, "manifest.yaml"))
	if !ok {
		return nil, "", nil
	}
	key := cache.Key(gen, "run", man.SHA256, sum)
	data, err := c.GetEntry(key)
	if err != nil {
		return nil, key, nil
	}
	var rec buildcache.CachedRun
	res := new(score.Result)
	infos := layout.PromptInfos{}
	var kept map[int]*grid.KeptQuestion
	if buildcache.DecodeGob(data, &rec) != nil || res.UnmarshalBinary(rec.Result) != nil || rec.ScoredSize != size || !buildcache.UnpackPrompts(rec.Prompts, infos) || len(rec.Prompts)/buildcache.PromptRecord != rec.Rows {
		c.Forget(key)
		return nil, key, nil
	}
	if kept = buildcache.UnpackDeltas(rec.Deltas); kept == nil {
		c.Forget(key)
		return nil, key, nil
	}
	if rec.Rows != m.Manifest.Scored.Rows {
		return nil, "", fileerr.New(path.Join(cfg.RunsLabel, m.ID, "manifest.yaml"), m.Manifest.Line("scored", "rows"),
			"scored.rows is %d, but %s has %d rows: restore the file, or re-freeze the run if the change is meant", m.Manifest.Scored.Rows, path.Join(cfg.RunsLabel, m.ID, m.Manifest.Scored.Path), rec.Rows)
	}
	files := append(slices.Clone(m.Files), run.File{Path: m.ScoredFS(), SHA256: sum, Size: size})
	r := &run.Run{ID: m.ID, Manifest: m.Manifest, ManifestRaw: m.ManifestRaw, Files: files}
	return &readRun{run: r, res: res, infos: infos, deltas: kept, first: rec.First, rows: cachedRows{cfg, m, dataset}, cached: true}, key, nil
}

// runFile is the run's file at p (relative to the runs folder).
func runFile(r *run.Run, p string) (run.File, bool) {
	for _, f := range r.Files {
		if f.Path == p {
			return f, true
		}
	}
	return run.File{}, false
}

// makeCachedRun makes the cache's record of a run just read and scored.
// Its prompt texts are not kept: the run's pages show the dataset's
// texts, and a build needs a run's own only when the dataset lacks them
// (the first run of a variant, by id, or a prompt no earlier run has),
// when they are read again from its file (cachedRows.texts), as a
// build's cached pages of the run are when they are rendered again. (A
// blob of every run's 9,450 texts, 5.7 MB, encoded, hashed and compressed
// for each run, was a third of what the cache added to a build.)
func makeCachedRun(rr *readRun) (*buildcache.CachedRun, error) {
	res, err := rr.res.MarshalBinary()
	if err != nil {
		return nil, err
	}
	scored, ok := runFile(rr.run, rr.run.ScoredFS())
	if !ok {
		return nil, fmt.Errorf("run %s: no scored file", rr.run.ID)
	}
	rec := &buildcache.CachedRun{ScoredSize: scored.Size, Result: res, Deltas: buildcache.PackDeltas(rr.deltas), First: rr.first}
	if rec.Prompts, err = buildcache.PackPrompts(rr.infos); err != nil {
		return nil, err
	}
	rec.Rows = len(rec.Prompts) / buildcache.PromptRecord // a row a prompt: LoadRows refuses a prompt twice
	return rec, nil
}

// deltas keeps of a run's cells what the pages spanning runs show.
func deltas(cells map[int]*score.QuestionCells, decision bool) map[int]*grid.KeptQuestion {
	out := make(map[int]*grid.KeptQuestion, len(cells))
	for q, qs := range cells {
		out[q] = grid.KeepQuestion(qs.Deltas(), decision)
	}
	return out
}

// ownParts keeps each run's own part of its data file (datapage.OwnParts)
// in the build cache, under a key of its record's key: it is made from
// the run's manifest and result alone, which that key holds to the run's
// files and the generator. nil without the cache.
func ownParts(cfg stage.Config, rs *stage.Runs, gen string) datapage.OwnParts {
	c := cfg.Cache
	if c == nil {
		return nil
	}
	return func(e *board.Entry, make func() ([]byte, error)) ([]byte, error) {
		rec, ok := rs.Keys[e.ID()]
		if !ok {
			return make()
		}
		key := cache.Key(gen, "run-data", rec)
		if data, err := c.GetEntry(key); err == nil && sitedata.CheckRunOwn(data) == nil {
			return data, nil
		}
		data, err := make()
		if err != nil {
			return nil, err
		}
		return data, c.PutEntry(key, data)
	}
}

// rankMemos keeps each board's rank sets' pairwise work (score.PairMemo)
// in the build cache, one entry a board's family of sets under a key of
// the generator, the board and the family, replaced by each build that
// changes it: what it holds is checked against the runs' replicates
// before it is used. nil without the cache.
func rankMemos(c *cache.Cache, gen string) board.Memos {
	if c == nil {
		return nil
	}
	return func(v run.Variant, m run.Scoring, family string) score.PairMemo {
		return cacheMemo{c, cache.Key(gen, "rank-pairs", string(v), string(m), family)}
	}
}

// cacheMemo is a memo kept in the build cache under key.
type cacheMemo struct {
	c   *cache.Cache
	key string
}

func (m cacheMemo) Load() []byte {
	data, err := m.c.GetEntry(m.key)
	if err != nil {
		return nil
	}
	return data
}

// Store keeps data; a memo that could not be written costs its work
// again in the next build, and nothing else.
func (m cacheMemo) Store(data []byte) { m.c.PutEntry(m.key, data) }
