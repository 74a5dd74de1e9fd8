package site

import (
	"regexp"
	"strings"
	"testing"
)

// TestWarnRuns: the fixture's disagreeing claim is warned of at its line;
// a second run of a model with the same date, a run dated after the
// release, a model released after its run and a model whose runs
// disagree on its facts are warned of; a run with nothing wrong is not named.
func TestWarnRuns(t *testing.T) {
	t.Parallel()
	skipWholeSitesUnderRace(t)
	// The fixture with alpha-again, a second run of Alpha on the same
	// date, and zeta, dated after the release (built once, shared).
	_, plus := fixturePlus(t)
	got := plus.warnings
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^build: warning: runs/beta/manifest\.yaml:\d+: claimed asian_bias is 0\.27, but the per-prompt data give `),
		regexp.MustCompile(`(?m)^build: warning: runs/alpha-again/manifest\.yaml:\d+: run_date 2026-01-01 is also that of alpha, `),
		regexp.MustCompile(`(?m)^build: warning: runs/zeta/manifest\.yaml:\d+: run_date 2026-02-01 is after the release date 2026-01-02`),
		regexp.MustCompile(`(?m)^build: warning: runs/zeta/manifest\.yaml:6: model\.release_date 2026-03-01 is after run_date 2026-02-01: `),
		regexp.MustCompile(`(?m)^build: warning: runs/alpha-again/manifest\.yaml:1: model\.release_date \(not stated\) differs from 2025-03-04 in alpha, a run of the same model \(test/alpha\): `),
	} {
		if !want.MatchString(got) {
			t.Errorf("no warning matching %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "runs/alpha/") || strings.Contains(got, "runs/gamma/") {
		t.Errorf("a run with nothing wrong is warned of:\n%s", got)
	}
}
