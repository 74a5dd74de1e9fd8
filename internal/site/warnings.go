package site

// Warnings: what a build allows but a publisher should know before
// publishing. Each is a line on Config.Warnings, naming the file (and
// line) as errors do; none changes the site, which shows the same facts.

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/stage"
	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// warnRuns warns of runs that build but look wrong: a claimed number the
// recomputed one disagrees with; a default-prompt run the validity rules
// keep off its board; two runs of one model on one board with the same
// run date (the board then ranks the first by id, which is arbitrary);
// and a run dated after the release that publishes it. entries are by id.
func warnRuns(w io.Writer, runsLabel string, entries []*board.Entry, releaseDate string) {
	if w == nil {
		return
	}
	warn := func(id string, line int, format string, args ...any) {
		err := fileerr.New(path.Join(runsLabel, id, "manifest.yaml"), line, format, args...)
		fmt.Fprintf(w, "build: warning: %v\n", err)
	}
	type dated struct{ variant, scoring, intervention, model, date string }
	first := map[dated]*board.Entry{}
	for _, e := range entries {
		m := e.Run.Manifest
		for _, c := range score.Claims(m, e.Result) {
			if c.Verdict == score.Disagrees {
				warn(e.ID(), m.Line("claimed", c.Metric), "claimed %s is %s, but the per-prompt data give %s: the site shows the recomputed number; check the import",
					c.Metric, strconv.FormatFloat(c.Claimed, 'g', 6, 64), strconv.FormatFloat(c.Recomputed, 'g', 6, 64))
			}
		}
		if m.Intervention == board.DefaultIntervention {
			if why := board.Invalid(e); why != "" {
				if res := e.Result; !res.Scored && res.ReasonLine > 0 {
					// The reason names a row: point at it.
					err := fileerr.New(path.Join(runsLabel, e.Run.ScoredFS()), res.ReasonLine, "not ranked: %s", why)
					fmt.Fprintf(w, "build: warning: %v\n", err)
				} else {
					warn(e.ID(), 0, "not ranked: %s", why)
				}
			}
		}
		k := dated{string(m.Variant), string(m.Scoring), m.Intervention, m.Model.ID, m.RunDate}
		if prev, ok := first[k]; ok {
			warn(e.ID(), m.Line("run_date"), "run_date %s is also that of %s, a run of the same model, variant, scoring and prompt: of the two, a board ranks the first by id; remove one, or date them apart",
				m.RunDate, prev.ID())
		} else {
			first[k] = e
		}
		if releaseDate != "" && m.RunDate > releaseDate {
			warn(e.ID(), m.Line("run_date"), "run_date %s is after the release date %s in content/site.yaml", m.RunDate, releaseDate)
		}
	}
}

// warnCopies warns, before anything is written, when the copies of the
// runs' files that the site offers for download (data/runs/) are alone
// over GitHub Pages' limit; the size warning at the end of the build
// counts the whole site.
func warnCopies(cfg stage.Config, runs []*run.Run) {
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

// pagesLimit is GitHub Pages' limit on a published site.
const pagesLimit = 1_000_000_000

// warnSize warns of a site larger than GitHub Pages publishes, saying how
// much of it is copies of the runs' files, which runs_url would link
// instead.
func warnSize(w io.Writer, files []outdir.HashedFile, runsURL string) {
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
