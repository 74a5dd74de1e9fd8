package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSizes(t *testing.T) {
	for _, c := range []struct {
		n, tries string
		want     []size
		err      string
	}{
		{"25,50", "3", []size{{25, 3}, {50, 3}}, ""},
		{"1000, 25,400", "1,3,2", []size{{25, 3}, {400, 2}, {1000, 1}}, ""},
		{"25", "2", []size{{25, 2}}, ""},
		{"25,50", "3,2,1", nil, `-tries "3,2,1": want one number, or one for each of the 2 sizes of -n`},
		{"25,x", "3", nil, `-n "x": want positive whole numbers, comma-separated`},
		{"0", "3", nil, `-n "0": want positive whole numbers, comma-separated`},
		{"25", "0", nil, `-tries "0": want positive whole numbers, comma-separated`},
		{"25,25", "3", nil, `-n: 25 runs given twice`},
	} {
		got, err := sizes(c.n, c.tries)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("sizes(%q, %q): error %v, want %q", c.n, c.tries, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("sizes(%q, %q) = %v, %v; want %v", c.n, c.tries, got, err, c.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 500_000: "500,000", 1_234_567: "1,234,567", -1500: "-1,500"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

// site writes files of the given sizes under a temporary folder.
func site(t *testing.T, files map[string]int) string {
	t.Helper()
	dir := t.TempDir()
	for p, n := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestStatSite(t *testing.T) {
	dir := site(t, map[string]int{"index.html": 300, "a/b.html": 500, "data/x.json": 500, "style.css": 10})
	st, err := statSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []siteFile{{"a/b.html", 500}, {"data/x.json", 500}, {"index.html", 300}, {"style.css", 10}}
	if !reflect.DeepEqual(st.files, want) || st.size != 1310 || st.html != 800 || st.pages != 2 {
		t.Errorf("statSite = %+v, want files %v, 1310 bytes, 800 of HTML in 2 pages", st, want)
	}
}

func TestOverBudget(t *testing.T) {
	// One file at the budget (allowed), one a byte over.
	dir := site(t, map[string]int{"index.html": fileBudget, "board/a.html": fileBudget + 1, "rest.bin": 450_000})
	st, err := statSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	file := "2 runs: board/a.html is 500,001 bytes, over the budget of 500,000 bytes a file"
	if got := overBudget(2, st); !reflect.DeepEqual(got, []string{file}) {
		t.Errorf("overBudget: %q, want %q", got, file)
	}
	// The per-run budget holds from 1,000 runs: at 999 even 7.5 MB a run
	// passes; at 1,000, 750,000 a run does and 750,001 does not.
	for _, c := range []struct {
		runs int
		size int64
		want []string
	}{
		{999, 999 * 10 * perRunBudget, nil},
		{1000, 1000 * perRunBudget, nil},
		{1000, 1000*perRunBudget + 999, nil},
		{1000, 1000*perRunBudget + 1000, []string{"1000 runs: the site is 750,001,000 bytes, 750,001 a run, over the budget of 750,000 bytes a run"}},
		{2000, 2001 * perRunBudget, []string{"2000 runs: the site is 1,500,750,000 bytes, 750,375 a run, over the budget of 750,000 bytes a run"}},
	} {
		if got := overBudget(c.runs, siteStats{size: c.size}); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d runs, %d bytes: %q, want %q", c.runs, c.size, got, c.want)
		}
	}
	st, _ = statSite(site(t, map[string]int{"index.html": 100}))
	if got := overBudget(1, st); got != nil {
		t.Errorf("a 100-byte site: %q, want nothing over", got)
	}
}

func TestRowMarkdown(t *testing.T) {
	s := time.Second
	r := row{
		runs:   25,
		floor:  2 * s,
		build:  usage{wall: 5 * s, cpu: 9 * s, rssKB: 100_000},
		cold:   usage{wall: 6 * s, cpu: 18 * s, rssKB: 200_000},
		verify: usage{wall: 4 * s, cpu: 8 * s, rssKB: 110_000},
		added:  usage{wall: s, cpu: 2 * s},
		same:   usage{wall: s / 2, cpu: s / 4},
		cache:  30_400_000,
		site:   siteStats{size: 41_000_000, files: []siteFile{{"data/big.json", 600_000}, {"x.html", 501_000}, {"y.html", 20}}},
		hugo:   &rate{wall: 10 * s},
	}
	want := "| 25 | 2.0 s | 5.0 s | 2.5× | 9.0 s | 102 MB | 6.0 s (1.20×), 18.0 s CPU (2.00×), 205 MB | 4.0 s (0.80×), 113 MB | 41 MB | 1.64 MB | 3 | data/big.json 600 KB | 2 | 1.0 s (20%), 2.0 s CPU (22%) | 0.5 s (10%), 0.2 s CPU (3%) | 30 MB | 10.0 s (0.50×) |\n"
	if got := r.markdown(); got != want {
		t.Errorf("row:\n%s\nwant\n%s", got, want)
	}
	if cols, hcols := strings.Count(want, "|"), strings.Count(strings.SplitN(header, "\n", 2)[0], "|"); cols != hcols {
		t.Errorf("the row has %d separators, the header %d", cols, hcols)
	}
	// hugo failed: the row keeps every other figure.
	killed := exec.Command("sh", "-c", "kill -KILL $$").Run()
	r.hugo, r.hugoFailed = nil, hugoFailure(fmt.Errorf("hugo --quiet -s /tmp/x -d /tmp/y: %w\n%s", killed, "stderr"))
	want = strings.Replace(want, "10.0 s (0.50×) |", "failed: signal: killed |", 1)
	if got := hugoFailure(errors.New("hugo: not found | here\nmore")); got != "hugo: not found / here" {
		t.Errorf("hugoFailure of a plain error = %q", got)
	}
	if got := r.markdown(); got != want {
		t.Errorf("row with hugo failed:\n%s\nwant\n%s", got, want)
	}
	// More runs than -hugo-max: hugo not run, and the row says so.
	r.hugoFailed, r.hugoOver = "", 400
	want = strings.Replace(want, "failed: signal: killed |", "not run: over -hugo-max 400 runs |", 1)
	if got := r.markdown(); got != want {
		t.Errorf("row over -hugo-max:\n%s\nwant\n%s", got, want)
	}
	// One run: no cached rebuilds, no hugo.
	r = row{runs: 1, floor: s, build: usage{wall: s, cpu: s}, verify: usage{wall: s}, site: siteStats{size: 100}}
	want = "| 1 | 1.0 s | 1.0 s | 1.0× | 1.0 s | 0 MB | – | 1.0 s (1.00×), 0 MB | 0 MB | 0.00 MB | 0 | – | 0 | – | – | – | – |\n"
	if got := r.markdown(); got != want {
		t.Errorf("row of one run:\n%s\nwant\n%s", got, want)
	}
}

// TestBest: the least wall and the least CPU of the tries, each on its
// own, and the largest memory; an error stops the tries.
func TestBest(t *testing.T) {
	s := time.Second
	tries := []usage{{wall: 5 * s, cpu: 3 * s, rssKB: 10}, {wall: 4 * s, cpu: 6 * s, rssKB: 30}, {wall: 7 * s, cpu: 2 * s, rssKB: 20}}
	i := 0
	got, err := best(len(tries), func() (usage, error) { i++; return tries[i-1], nil })
	if want := (usage{wall: 4 * s, cpu: 2 * s, rssKB: 30}); err != nil || got != want || i != 3 {
		t.Errorf("best = %+v, %v after %d tries; want %+v after 3", got, err, i, want)
	}
	i = 0
	if _, err := best(3, func() (usage, error) { i++; return usage{}, errors.New("no") }); err == nil || i != 1 {
		t.Errorf("best of a failing step: %v after %d tries, want the error after 1", err, i)
	}
}

// TestBuildsPinTheVersion: the build scale makes names the version it was
// pinned to, run from another git checkout, and again after a commit
// there (a build takes its version from git describe where it runs when
// Go recorded no VCS revision: two builds of one scale run differed when
// a commit came between them).
func TestBuildsPinTheVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("links cmd/build and cmd/synth")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	bin := t.TempDir()
	t.Chdir("../..")
	if err := buildTools(bin, "v0-pinned-test", os.Stderr); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		c.Dir = repo
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	version := func() string {
		t.Helper()
		c := exec.Command(filepath.Join(bin, "build"), "-version")
		c.Dir = repo
		out, err := c.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	for i := range 2 {
		git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", i))
		if v := version(); v != "v0-pinned-test" {
			t.Errorf("after commit %d of another checkout: version %q, want the pinned v0-pinned-test", i, v)
		}
	}
}
