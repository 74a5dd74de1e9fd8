package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	rundir "github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/synth"
)

// newcomer is a demo-like run a contributor might add: a model between
// the committed Fair and Tilt models, made by the committed runs'
// generator (internal/synth) with its own seed.
func newcomer(t *testing.T, repo, runs string) string {
	t.Helper()
	var d synth.Demo
	for _, x := range synth.Demos() {
		if x.ID == "near-70b-explicit" {
			d = x
		}
	}
	d.ID, d.Model, d.ModelID = "newcomer-8b-explicit", "Synthetic Newcomer 8B", "synthetic/newcomer-8b"
	d.Spec.Seed = 901
	d.Spec.Effects = [7]float64{0.05, 0.10, -0.12, 0.15, 0.05, 0.06, 0.10}
	d.Notes = "A newcomer for the pull-request check's tests: small effects of both signs."
	texts, err := synth.ReadTexts([]string{filepath.Join(repo, "testdata/explicit-excerpt-q0.jsonl"), filepath.Join(repo, "testdata/explicit-excerpt-q95.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := d.Rows(texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rundir.WriteDir(filepath.Join(runs, d.ID), d.Manifest(), rows, true, false); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

// gitRepo copies the committed inputs into a fresh repository with one
// commit and returns its folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src, _ := filepath.Abs("../..")
	dir := filepath.Join(t.TempDir(), "repo")
	for _, d := range []string{"content", "runs"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join(src, d))); err != nil {
			t.Fatal(err)
		}
	}
	md, err := os.ReadFile(filepath.Join(src, "METHODOLOGY.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "METHODOLOGY.md"), md, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestDiffAddedRun is the pull request the check exists for: one new run
// added to the committed demo runs, compared with the commit before it
// (built from git) and with that commit's built site (a folder).
func TestDiffAddedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the committed site three times")
	}
	src, _ := filepath.Abs("../..")
	repo := gitRepo(t)
	t.Chdir(repo)
	var md, stderr bytes.Buffer
	base := filepath.Join(t.TempDir(), "base-site")
	if err := run([]string{"-o", base}, &stderr, &stderr); err != nil {
		t.Fatal(err)
	}
	id := newcomer(t, src, "runs")
	if err := run([]string{"-diff", "HEAD", "-format", "markdown", "-diff-label", "base"}, &md, &stderr); err != nil {
		t.Fatalf("-diff HEAD: %v\n%s%s", err, md.String(), stderr.String())
	}
	t.Logf("Markdown report:\n%s", md.String())
	for _, want := range []string{
		"## Leaderboard changes: this build against base\n",
		"### Runs added (1)",
		"| `" + id + "` | Synthetic Newcomer 8B (synthetic) | explicit | default | logprob | ranked on explicit-logprob: composite rank ",
		"### Runs removed\n\nNone.",
		"#### explicit prompts · log-probability runs",
		"| composite | Synthetic Newcomer 8B `" + id + "` | – → ",
		"only runs added or removed (1 added above it)",
		"### Checks of `" + id + "` (Synthetic Newcomer 8B)",
		"| ✅ | Frozen files | sha256 and row count (9,450) as the manifest states",
		"| ✅ | Answer mass | mean P(yes)+P(no) 0.99",
		"| ✅ | Ranking | ranked on explicit-logprob",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report lacks %q", want)
		}
	}
	// Only the explicit log-probability board moved: no other board, and
	// no run but the new one was added, removed or changed.
	for _, not := range []string{"implicit prompts", "decision runs", "### Runs changed ("} {
		if strings.Contains(md.String(), not) {
			t.Errorf("the Markdown report mentions %q", not)
		}
	}
	// Every rank move on the board is explained by the added run alone: the
	// other runs' files, and so their scores, did not change.
	moves := regexp.MustCompile(`\| (down|up) \d+ \|[^\n]*`).FindAllString(md.String(), -1)
	if len(moves) == 0 {
		t.Error("no rank moved: the newcomer was meant to land mid-board")
	}
	for _, m := range moves {
		if !strings.Contains(m, "only runs added or removed") || !strings.Contains(m, "| 0.00 |") {
			t.Errorf("a move not caused by the added run alone: %s", m)
		}
	}

	// The same comparison against the base's built site, as text.
	var text bytes.Buffer
	if err := run([]string{"-diff", base, "-diff-label", "base"}, &text, &stderr); err != nil {
		t.Fatal(err)
	}
	t.Logf("text report:\n%s", text.String())
	for _, want := range []string{"Runs added (1):\n  " + id + "  Synthetic Newcomer 8B · explicit · default · logprob · synthetic", "Checks of " + id} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
	// Both outputs are one report: the same moves in the same order.
	textMoves := regexp.MustCompile(`(?m)^  (composite|age|gender|race) +([a-z0-9.-]+) +(\S+ → \S+) +(\S+(?: \d+)?)`).FindAllStringSubmatch(text.String(), -1)
	mdMoves := regexp.MustCompile("(?m)^\\| (composite|age|gender|race) \\| [^`]*`([a-z0-9.-]+)` \\| (\\S+ → \\S+) \\| ([^|]+) \\|").FindAllStringSubmatch(md.String(), -1)
	if len(textMoves) != len(mdMoves) || len(textMoves) == 0 {
		t.Fatalf("%d moves in the text, %d in the Markdown", len(textMoves), len(mdMoves))
	}
	for i := range textMoves {
		a, b := textMoves[i][1:], mdMoves[i][1:]
		b[3] = strings.TrimSpace(b[3])
		if strings.Join(a, " ") != strings.Join(b, " ") {
			t.Errorf("move %d: text %q, Markdown %q", i, a, b)
		}
	}
}

// TestDiffFailure: a submitted run that does not build gives an annotation
// on its file and line, and a Markdown summary that says why.
func TestDiffFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the committed site")
	}
	src, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	runs := filepath.Join(tmp, "runs")
	if err := os.CopyFS(runs, os.DirFS(filepath.Join(src, "runs"))); err != nil {
		t.Fatal(err)
	}
	id := newcomer(t, src, runs)
	mf := filepath.Join(runs, id, "manifest.yaml")
	data, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	data = regexp.MustCompile(`rows: 9450`).ReplaceAll(data, []byte("rows: 9451"))
	if err := os.WriteFile(mf, data, 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + bytes.Count(data[:bytes.Index(data, []byte("rows: 9451"))], []byte("\n"))
	t.Chdir(tmp)
	args := []string{"-content", filepath.Join(src, "content"), "-runs", "runs", "-methodology", filepath.Join(src, "METHODOLOGY.md")}
	var stdout, stderr bytes.Buffer
	err = run(append(args, "-annotate", "-o", "site"), &stdout, &stderr)
	if err == nil {
		t.Fatal("a wrong row count built")
	}
	// The annotation carries the message the build prints, placed on the
	// manifest's line when the loader names it.
	msg := err.Error()
	if p, l, ok := fileerr.Position(err); ok {
		if p != "runs/"+id+"/manifest.yaml" || l != line {
			t.Errorf("error placed at %s:%d, want runs/%s/manifest.yaml:%d", p, l, id, line)
		}
		msg = strings.TrimPrefix(msg, "runs: ")
		want := "::error file=" + p + ",line=" + strconv.Itoa(l) + ",title=Build failed::" + msg + "\n"
		if stdout.String() != want {
			t.Errorf("annotation\n got %q\nwant %q", stdout.String(), want)
		}
	} else {
		// Loaders not yet converted to fileerr: no file to place it on.
		t.Logf("the loader gives this error no position: %v", err)
		if want := "::error title=Build failed::" + msg + "\n"; stdout.String() != want {
			t.Errorf("annotation\n got %q\nwant %q", stdout.String(), want)
		}
	}
	if !strings.Contains(msg, "9451") {
		t.Errorf("the message does not say what is wrong: %s", msg)
	}
	if _, err := os.Stat("site"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed build wrote its output folder (%v)", err)
	}
	stdout.Reset()
	err = run(append(args, "-diff", tmp, "-format", "markdown"), &stdout, &stderr)
	if err == nil || !strings.Contains(stdout.String(), "**The site does not build**") || !strings.Contains(stdout.String(), "9451") {
		t.Errorf("-diff of a failing build: %v\n%s", err, stdout.String())
	}
}

// TestDiffOther: what -diff cannot compare with is refused before any
// build.
func TestDiffOther(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src, _ := filepath.Abs("../..")
	args := []string{"-content", filepath.Join(src, "content"), "-runs", filepath.Join(src, "runs"), "-methodology", filepath.Join(src, "METHODOLOGY.md")}
	outside := t.TempDir()
	empty := filepath.Join(t.TempDir(), "repo")
	for _, a := range [][]string{{"init", "-q", empty}, {"-C", empty, "-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-q", "--allow-empty", "-m", "empty"}} {
		if out, err := exec.Command("git", a...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
	var stdout, stderr bytes.Buffer
	for _, tc := range []struct {
		dir, other, want string
	}{
		{outside, "HEAD", "-diff HEAD: not a folder, and no git repository here"},
		{empty, "no-such-commit-or-folder", "-diff no-such-commit-or-folder: neither a folder nor a commit of"},
		// A commit, but this build's inputs are not in its repository.
		{empty, "HEAD", "is outside the repository"},
	} {
		t.Chdir(tc.dir)
		err := run(append(args, "-diff", tc.other), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("from %s, -diff %s: %v, want %q", tc.dir, tc.other, err, tc.want)
		}
	}
}
