package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/content"
)

// TestVersion: the generator's version comes from the build info's VCS
// revision (go build), else from git describe (go run), else "unknown";
// never "devel".
func TestVersion(t *testing.T) {
	info := func(mv string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Version: mv}, Settings: settings}, true
		}
	}
	none := func() string { return "" }
	describe := func() string { return "c543f36a1b2c-dirty" }
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	mod := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	for _, c := range []struct {
		name string
		read func() (*debug.BuildInfo, bool)
		desc func() string
		want string
	}{
		{"go build", info("(devel)", rev), describe, "0123456789ab"},
		{"go build, modified", info("(devel)", rev, mod), describe, "0123456789ab-dirty"},
		{"go run", info("(devel)"), describe, "c543f36a1b2c-dirty"},
		{"go install of a version", info("v1.2.0", rev), none, "v1.2.0+0123456789ab"},
		{"no git", info("(devel)"), none, "unknown"},
		{"no build info", func() (*debug.BuildInfo, bool) { return nil, false }, none, "unknown"},
	} {
		if got := versionFrom(c.read, c.desc); got != c.want {
			t.Errorf("%s: version %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCitationNamesTheRelease: CITATION.cff names the release site.yaml
// publishes, so a citation of the source and of the site agree.
func TestCitationNamesTheRelease(t *testing.T) {
	cff, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	c, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	s := c.Site
	for _, want := range []string{"version: " + s.Release.Label + "\n", `date-released: "` + s.Release.Date + `"`, "repository-code: " + s.Repository + "\n"} {
		if !strings.Contains(string(cff), want) {
			t.Errorf("CITATION.cff lacks %q (site.yaml's release)", want)
		}
	}
}
