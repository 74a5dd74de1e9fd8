package site

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/run"
)

// TestWarnRuns: the fixture's disagreeing claim is warned of at its line;
// a second run of a model with the same date, and a run dated after the
// release, are warned of; a run with nothing wrong is not named.
func TestWarnRuns(t *testing.T) {
	skipWholeSitesUnderRace(t)
	cfg := fixture(t)
	mfs := cfg.Runs.(fstest.MapFS) // the fixture's own copy
	rows := referenceRows(t)
	addRun(t, mfs, "alpha-again", manifest("Alpha", run.Explicit, "default", run.Logprob), rows)
	late := manifest("Zeta", run.Explicit, "default", run.Logprob)
	late.RunDate = "2026-02-01"
	addRun(t, mfs, "zeta", late, rows)
	var w strings.Builder
	cfg.Warnings = &w
	if _, err := Generate(cfg); err != nil {
		t.Fatal(err)
	}
	got := w.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^build: warning: runs/beta/manifest\.yaml:\d+: claimed asian_bias is 0\.27, but the per-prompt data give `),
		regexp.MustCompile(`(?m)^build: warning: runs/alpha-again/manifest\.yaml:\d+: run_date 2026-01-01 is also that of alpha, `),
		regexp.MustCompile(`(?m)^build: warning: runs/zeta/manifest\.yaml:\d+: run_date 2026-02-01 is after the release date 2026-01-02`),
	} {
		if !want.MatchString(got) {
			t.Errorf("no warning matching %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "runs/alpha/") || strings.Contains(got, "runs/gamma/") {
		t.Errorf("a run with nothing wrong is warned of:\n%s", got)
	}
}
