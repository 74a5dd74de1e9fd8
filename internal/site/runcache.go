package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
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
func generatorID(cfg Config) (string, error) {
	h := sha256.New()
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return "", err
	}
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

// cachedRun is what the cache keeps of a run once read and scored.
// Its bulk, the prompts and the differences, is packed in fixed-size
// records (packPrompts, packDeltas): gob decodes a slice of structs a
// field at a time, and that was most of a cached rebuild's reading.
type cachedRun struct {
	Rows       int
	ScoredSize int64
	Result     []byte     // score.Result.MarshalBinary
	Deltas     []byte     // packDeltas
	Prompts    []byte     // packPrompts, in file order
	TextsBlob  string     // the run's prompt texts, a blob
	First      *firstCell // the first row, for the rubric's example (log-prob runs)
}

// A packed prompt: question (uint32), cell index (a byte), text hash
// (uint64), transcript size (uint32), little-endian, in design order.
const promptRecord = 4 + 1 + 8 + 4

func packPrompts(infos promptInfos) ([]byte, error) {
	var b []byte
	for p, info := range infos.all() {
		if p.Q < 0 || p.Q > math.MaxUint32 || info.transcript < 0 || info.transcript > math.MaxUint32 {
			return nil, fmt.Errorf("prompt %v: out of the cache's range", p)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(p.Q))
		b = append(b, byte(p.Index()))
		b = binary.LittleEndian.AppendUint64(b, info.hash)
		b = binary.LittleEndian.AppendUint32(b, uint32(info.transcript))
	}
	return b, nil
}

// unpackPrompts reads packPrompts's records into infos; false when b is
// not whole records of cells of the design, each once.
func unpackPrompts(b []byte, infos promptInfos) bool {
	if len(b)%promptRecord != 0 {
		return false
	}
	for ; len(b) > 0; b = b[promptRecord:] {
		q, i := int(binary.LittleEndian.Uint32(b)), int(b[4])
		if i >= design.NumCells {
			return false
		}
		g := infos[q]
		if g == nil {
			g = new([design.NumCells]textInfo)
			infos[q] = g
		}
		if g[i].present {
			return false
		}
		g[i] = textInfo{present: true, hash: binary.LittleEndian.Uint64(b[5:]), transcript: int(binary.LittleEndian.Uint32(b[13:]))}
	}
	return true
}

// A packed question's differences: question (uint32), then its
// keptQuestion, digits (int32 each) and codes (a byte each).
const deltasRecord = 4 + design.NumCells*5

func packDeltas(kept map[int]*keptQuestion) []byte {
	b := make([]byte, 0, len(kept)*deltasRecord)
	for _, q := range slices.Sorted(maps.Keys(kept)) {
		k := kept[q]
		b = binary.LittleEndian.AppendUint32(b, uint32(q))
		for _, d := range k.Digits {
			b = binary.LittleEndian.AppendUint32(b, uint32(d))
		}
		for _, c := range k.Codes {
			b = append(b, byte(c))
		}
	}
	return b
}

// unpackDeltas reverses packDeltas; nil when b is not whole records.
func unpackDeltas(b []byte) map[int]*keptQuestion {
	if len(b)%deltasRecord != 0 {
		return nil
	}
	kept := make(map[int]*keptQuestion, len(b)/deltasRecord)
	for ; len(b) > 0; b = b[deltasRecord:] {
		k := new(keptQuestion)
		for i := range k.Digits {
			k.Digits[i] = int32(binary.LittleEndian.Uint32(b[4+4*i:]))
		}
		for i := range k.Codes {
			k.Codes[i] = cellCode(b[4+4*design.NumCells+i])
		}
		kept[int(binary.LittleEndian.Uint32(b))] = k
	}
	return kept
}

// firstCell is what the rubric's worked example needs of a run's first row.
type firstCell struct {
	Line  int
	P     design.Prompt
	Logit float64
	LP    []float64
}

func encodeGob(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

func decodeGob(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

// hashScored hashes a run's scored file as stored, checking it is a
// regular file, and compares the hash with the manifest's.
func hashScored(cfg Config, r *run.Run) (sum string, size int64, err error) {
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
func fromCache(cfg Config, c *cache.Cache, gen string, m *run.Run) (*readRun, string, error) {
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
	var rec cachedRun
	res := new(score.Result)
	infos := promptInfos{}
	var kept map[int]*keptQuestion
	if decodeGob(data, &rec) != nil || res.UnmarshalBinary(rec.Result) != nil || rec.ScoredSize != size || !unpackPrompts(rec.Prompts, infos) || len(rec.Prompts)/promptRecord != rec.Rows {
		c.Forget(key)
		return nil, key, nil
	}
	if kept = unpackDeltas(rec.Deltas); kept == nil {
		c.Forget(key)
		return nil, key, nil
	}
	c.Touch(rec.TextsBlob) // used by this build even when not read, for TrimTo
	if rec.Rows != m.Manifest.Scored.Rows {
		return nil, "", fileerr.New(path.Join(cfg.RunsLabel, m.ID, "manifest.yaml"), m.Manifest.Line("scored", "rows"),
			"scored.rows is %d, but %s has %d rows: restore the file, or re-freeze the run if the change is meant", m.Manifest.Scored.Rows, path.Join(cfg.RunsLabel, m.ID, m.Manifest.Scored.Path), rec.Rows)
	}
	files := append(slices.Clone(m.Files), run.File{Path: m.ScoredFS(), SHA256: sum, Size: size})
	r := &run.Run{ID: m.ID, Manifest: m.Manifest, ManifestRaw: m.ManifestRaw, Files: files}
	return &readRun{run: r, res: res, infos: infos, deltas: kept, first: rec.First, rows: cachedRows{cfg, m, c, &rec}, cached: true}, key, nil
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

// makeCachedRun makes the cache's record of a run just read and scored, storing
// its texts as a blob.
func makeCachedRun(c *cache.Cache, rr *readRun) (*cachedRun, error) {
	res, err := rr.res.MarshalBinary()
	if err != nil {
		return nil, err
	}
	scored, ok := runFile(rr.run, rr.run.ScoredFS())
	if !ok {
		return nil, fmt.Errorf("run %s: no scored file", rr.run.ID)
	}
	rec := &cachedRun{ScoredSize: scored.Size, Result: res, Deltas: packDeltas(rr.deltas), First: rr.first}
	if rec.Prompts, err = packPrompts(rr.infos); err != nil {
		return nil, err
	}
	rec.Rows = len(rec.Prompts) / promptRecord // a row a prompt: LoadRows refuses a prompt twice
	texts, err := rr.rows.texts()
	if err != nil {
		return nil, err
	}
	blob, err := encodeGob(texts)
	if err != nil {
		return nil, err
	}
	if rec.TextsBlob, err = c.Put(blob); err != nil {
		return nil, err
	}
	return rec, nil
}

// deltas keeps of a run's cells what the pages spanning runs show.
func deltas(cells map[int]*score.QuestionCells, decision bool) map[int]*keptQuestion {
	out := make(map[int]*keptQuestion, len(cells))
	for q, qs := range cells {
		out[q] = keepQuestion(qs.Deltas(), decision)
	}
	return out
}

// cachedTexts reads a run's prompt texts from the cache.
func cachedTexts(c *cache.Cache, rec *cachedRun) (map[design.Prompt]string, error) {
	data, err := c.Get(rec.TextsBlob)
	if err != nil {
		return nil, err
	}
	var texts map[design.Prompt]string
	if err := decodeGob(data, &texts); err != nil {
		return nil, err
	}
	return texts, nil
}

// pagesKey is the key of a run's own pages: its record's key, the site's
// frame, and what its pages show of the other runs — each prompt's dataset
// text and each question's name.
func pagesKey(gen, runKey string, site *siteInfo, texts *datasetTexts, r *run.Run, infos promptInfos) (string, error) {
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
			present[i] = t.present
		}
		buf = fmt.Appendf(buf[:0], "q%d %s\n", q, texts.title(r.Manifest.Variant, q))
		buf = texts.appendHashes(buf, r.Manifest.Variant, q, &present)
		h.Write(buf)
	}
	return cache.Key(gen, "pages", r.ID, runKey, string(frame), hex.EncodeToString(h.Sum(nil))), nil
}

// pagesEntry lists a run's own pages by path and blob, and how many of its
// prompts have a transcript (the hub says).
type pagesEntry struct {
	Paths, Blobs []string
	Sizes        []int64
	Transcripts  int
}

// capture forwards a run's pages to the site and keeps them, to store in
// the cache once every one of the run's page jobs is done.
type capture struct {
	next  sink
	mu    sync.Mutex
	files []File
	jobs  sync.WaitGroup
	err   error
	// transcripts is how many of the run's prompts have a transcript.
	transcripts int
}

func (c *capture) put(p string, data []byte) error {
	c.mu.Lock()
	c.files = append(c.files, File{Path: p, Data: data})
	c.mu.Unlock()
	return c.next.put(p, data)
}

// job wraps one of the run's page jobs so the capture knows when they are
// all done, and whether one failed.
func (c *capture) job(j job) job {
	c.jobs.Add(1)
	return func(r *renderer) error {
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
	slices.SortFunc(c.files, func(a, b File) int {
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	e := pagesEntry{Transcripts: c.transcripts}
	for _, f := range c.files {
		sum, err := ch.Put(f.Data)
		if err != nil {
			return err
		}
		e.Paths, e.Blobs, e.Sizes = append(e.Paths, f.Path), append(e.Blobs, sum), append(e.Sizes, int64(len(f.Data)))
	}
	data, err := encodeGob(e)
	if err != nil {
		return err
	}
	return ch.PutEntry(key, data)
}

// cachedPages puts a run's pages from the cache into the site, when every
// one of them is there intact; false when they are not (and nothing was
// put), with the run's count of prompts with a transcript.
func cachedPages(ch *cache.Cache, key string, out sink) (ok bool, transcripts int, err error) {
	data, err := ch.GetEntry(key)
	if err != nil {
		return false, 0, nil
	}
	var e pagesEntry
	if decodeGob(data, &e) != nil || len(e.Paths) != len(e.Blobs) || len(e.Sizes) != len(e.Blobs) {
		ch.Forget(key)
		return false, 0, nil
	}
	// A page the previous site has with the same hash is linked from it
	// (byHash); the others are read from the cache, every one of them
	// before any is put, so that a missing blob leaves nothing put. Both
	// steps are reads and hashes, file by file: on every core (the runs
	// are committed one at a time).
	hashed, _ := out.(byHash)
	files := make([][]byte, len(e.Blobs))
	linked := make([]bool, len(e.Blobs))
	var missing atomic.Bool
	parallel(len(e.Blobs), func(i int) {
		if hashed != nil && hashed.has(e.Paths[i], e.Blobs[i], e.Sizes[i]) {
			linked[i] = true
			ch.Touch(e.Blobs[i]) // used, for TrimTo
			return
		}
		var err error
		if !missing.Load() {
			files[i], err = ch.Get(e.Blobs[i])
		}
		if err != nil {
			missing.Store(true)
		}
	})
	if missing.Load() {
		ch.Forget(key)
		return false, 0, nil
	}
	errs := make([]error, len(e.Paths))
	parallel(len(e.Paths), func(i int) {
		if linked[i] {
			errs[i] = hashed.putByHash(e.Paths[i], e.Blobs[i], e.Sizes[i])
		} else {
			errs[i] = out.put(e.Paths[i], files[i])
		}
	})
	for _, err := range errs {
		if err != nil {
			return true, 0, err
		}
	}
	return true, e.Transcripts, nil
}
