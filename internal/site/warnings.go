package site

// Warnings: what a build allows but a publisher should know before
// publishing. Each is a line on Config.Warnings, naming the file (and
// line) as errors do; none changes the site, which shows the same facts.

import (
	"fmt"
	"io"
	"path"
	"strconv"

	"github.com/discrimeval/leaderboard/internal/board"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/score"
)

// warnRuns warns of runs that build but look wrong: a claimed number the
// recomputed one disagrees with; a default-prompt run the validity rules
// keep off its board; two runs of one model on one board with the same
// run date (the board then ranks the first by id, which is arbitrary);
// a run dated after the release that publishes it; a model released
// after its run's date; and a model whose facts (release date, parameters,
// licence, open weights) differ between its runs. entries are by id.
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
	model := map[string]*board.Entry{} // each model's first run, by id
	for _, e := range entries {
		m := e.Run.Manifest
		if o, ok := model[m.Model.ID]; !ok {
			model[m.Model.ID] = e
		} else if key, this, that := factDiffers(m.Model, o.Run.Manifest.Model); key != "" {
			warn(e.ID(), m.Line("model", key), "model.%s %s differs from %s in %s, a run of the same model (%s): a model's facts are the same in each of its runs; make them agree",
				key, this, that, o.ID(), m.Model.ID)
		}
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
		if d := m.Model.ReleaseDate; d > m.RunDate {
			warn(e.ID(), m.Line("model", "release_date"), "model.release_date %s is after run_date %s: a model is run once it is released; check both dates (the board's chart places the model at its release date)", d, m.RunDate)
		}
	}
}

// factDiffers is the first of the model's facts (the manifest's key) that
// a and b give differently, with each one's value as written ("not
// stated" for none); "" when they agree.
func factDiffers(a, b run.Model) (key, av, bv string) {
	or := func(s string) string {
		if s == "" {
			return "(not stated)"
		}
		return s
	}
	for _, f := range []struct{ key, a, b string }{
		{"open_weights", strconv.FormatBool(a.OpenWeights), strconv.FormatBool(b.OpenWeights)},
		{"release_date", a.ReleaseDate, b.ReleaseDate},
		{"parameters", string(a.Parameters), string(b.Parameters)},
		{"license", a.License, b.License},
	} {
		if f.a != f.b {
			return f.key, or(f.a), or(f.b)
		}
	}
	return "", "", ""
}
