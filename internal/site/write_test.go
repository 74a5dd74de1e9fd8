package site

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/flock"
	"github.com/discrimeval/leaderboard/internal/site/buildcache"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/stage"
)

// The crash tests run builds in child processes (this test binary, in
// writeChild) and kill them with SIGKILL at chosen steps of Write: the
// child kills itself when it reaches the n-th occurrence of a step, so
// where the kill lands depends on a seeded choice, never on the clock.

const childEnv = "SITE_WRITE_CHILD"

// childConfig is a small site: the committed sampled-decision run, and
// the fixture content; version "B" has another title, so every page of
// the two versions differs and a mix of them would show.
func childConfig(t testing.TB, version string) stage.Config {
	t.Helper()
	runs := fstest.MapFS{}
	const id = "skew-13b-explicit-sampled"
	for _, f := range []string{"manifest.yaml", "scored.jsonl.gz"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "runs", id, f))
		if err != nil {
			t.Fatal(err)
		}
		runs[id+"/"+f] = &fstest.MapFile{Data: data}
	}
	content := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS("testdata/content"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join("testdata/content", p))
		if p == "site.yaml" {
			data = bytes.Replace(data, []byte("title: Test Leaderboard"), []byte("title: Test Leaderboard "+version), 1)
		}
		content[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile("testdata/METHODOLOGY.md")
	if err != nil {
		t.Fatal(err)
	}
	return stage.Config{Content: content, Runs: runs, Methodology: md, Version: "test"}
}

// writeChild is the child build, run by TestKilledBuilds in a child
// process (startChild): it writes the files in $SITE_FILES
// (a version of childConfig's site, generated once by the parent, as gob)
// to $SITE_OUT, printing every step of Write, and kills itself at the
// $SITE_KILL_N-th occurrence of step $SITE_KILL_STEP. What is killed is the
// write, as in a build; the parent generates the site once rather than
// every child again.
func writeChild(t *testing.T) {
	data, err := os.ReadFile(os.Getenv("SITE_FILES"))
	if err != nil {
		t.Fatal(err)
	}
	var files []outdir.File
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&files); err != nil {
		t.Fatal(err)
	}
	killStep := os.Getenv("SITE_KILL_STEP")
	killN, _ := strconv.Atoi(os.Getenv("SITE_KILL_N"))
	seen := map[string]int{}
	outdir.WriteStep = func(s string) {
		seen[s]++
		fmt.Fprintf(os.Stdout, "step %s %d\n", s, seen[s])
		if s == killStep && seen[s] == killN {
			os.Stdout.Sync()
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
	if err := outdir.WriteWith(os.Getenv("SITE_OUT"), files, outdir.WriteOptions{Log: os.Stderr}); err != nil {
		t.Fatal(err)
	}
}

type child struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr *bufio.Reader
}

func startChild(t *testing.T, out string, v *siteVersion, killStep string, killN int) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestKilledBuilds$", "-test.v")}
	c.cmd.Env = append(os.Environ(), childEnv+"=1", "SITE_OUT="+out, "SITE_FILES="+v.file,
		"SITE_KILL_STEP="+killStep, "SITE_KILL_N="+strconv.Itoa(killN))
	c.cmd.Stdout = &c.stdout
	pr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.stderr = bufio.NewReader(pr)
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return c
}

// wait waits for the child; killed reports whether SIGKILL ended it.
func (c *child) Wait(t *testing.T) (killed bool) {
	t.Helper()
	rest, _ := io.ReadAll(c.stderr)
	err := c.cmd.Wait()
	if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		return true
	}
	if err != nil {
		t.Fatalf("child build failed: %v\nstdout:\n%s\nstderr:\n%s", err, c.stdout.String(), rest)
	}
	return false
}

// steps lists the steps of an unkilled child's output, "name n".
func (c *child) steps() []string {
	var s []string
	for _, l := range strings.Split(c.stdout.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, "step "); ok {
			s = append(s, rest)
		}
	}
	return s
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// siteVersion is a version of childConfig's site: its files by path, and
// a file holding them for the children to write.
type siteVersion struct {
	want map[string]string
	file string
}

var (
	childOnce  sync.Once
	childFiles map[string][]outdir.File
)

// versions generates versions A and B of childConfig's site, once for the
// test binary, and writes each to a file in the test's folder for the
// children.
func versions(t *testing.T) map[string]*siteVersion {
	t.Helper()
	childOnce.Do(func() {
		m := map[string][]outdir.File{}
		for _, v := range []string{"A", "B"} {
			files, err := Generate(childConfig(t, v))
			if err != nil {
				t.Fatal(err)
			}
			m[v] = files
		}
		childFiles = m
	})
	if childFiles == nil {
		t.Fatal("the versions of the crash tests' site did not build")
	}
	dir := t.TempDir()
	out := map[string]*siteVersion{}
	for v, files := range childFiles {
		sv := &siteVersion{want: map[string]string{}, file: filepath.Join(dir, v+".gob")}
		for _, f := range files {
			sv.want[f.Path] = string(f.Data)
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(files); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sv.file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out[v] = sv
	}
	return out
}

// sameTree reports how got differs from want, or "".
func sameTree(got, want map[string]string) string {
	var diffs []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			diffs = append(diffs, "missing "+p)
		} else if g != w {
			diffs = append(diffs, "differs "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, "extra "+p)
		}
	}
	if len(diffs) > 3 {
		diffs = append(diffs[:3], fmt.Sprintf("… %d in all", len(diffs)))
	}
	return strings.Join(diffs, ", ")
}

func debris(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var d []string
	for _, e := range entries {
		if e.Name() != "site" {
			d = append(d, e.Name())
		}
	}
	return d
}

// TestKilledBuilds kills a build 20 times at steps of its write phase —
// the named steps where the folders change, each file written, and the
// recovery of an earlier kill — alternating two versions of the site, and
// requires after every kill that the output folder is one whole version
// (or, killed between the two renames of the swap, absent with the previous
// version aside), that the next build removes every folder the kills left,
// and that a last build leaves nothing but the site.
func TestKilledBuilds(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		writeChild(t)
		return
	}
	t.Parallel()
	if testing.Short() {
		t.Skip("runs 23 child builds")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	vs := versions(t)

	// A first, unkilled build lists the steps of a write over an
	// existing site.
	for _, v := range []string{"A", "A"} {
		c := startChild(t, out, vs[v], "", 0)
		if c.Wait(t) {
			t.Fatal("the first builds were killed")
		}
		if d := sameTree(readTree(t, out), vs[v].want); d != "" {
			t.Fatalf("build %s: %s", v, d)
		}
		if d := debris(t, dir); len(d) > 0 {
			t.Fatalf("an unkilled build left %v", d)
		}
		if v == "A" && len(c.steps()) > 0 {
			t.Logf("a write has %d steps", len(c.steps()))
		}
	}
	c := startChild(t, out, vs["B"], "", 0)
	c.Wait(t)
	all := c.steps()
	files := 0
	for _, s := range all {
		if strings.HasPrefix(s, "file ") {
			files++
		}
	}
	// The schedule: every step that changes the folders, kills during the
	// recovery of a kill between the renames, and files chosen at random
	// with a fixed seed.
	type kill struct {
		step string
		n    int
	}
	schedule := []kill{
		{"lock", 1}, {"locked", 1}, {"file", 1}, {"modes", 1}, {"kept", 1},
		{"moved-old", 1}, {"restored", 1}, // a kill while putting back the site a kill left aside
		{"moved-old", 1}, {"cleaned", 1}, {"renamed", 1}, {"removed-old", 1},
		{"moved-old", 1}, {"cleaned", 1}, {"file", files},
	}
	rng := rand.New(rand.NewPCG(12, 2025))
	for len(schedule) < 20 {
		schedule = append(schedule, kill{"file", 1 + rng.IntN(files)})
	}
	current := "B" // the version the folder holds
	for i, k := range schedule {
		v := []string{"A", "B"}[i%2]
		c := startChild(t, out, vs[v], k.step, k.n)
		if !c.Wait(t) {
			t.Fatalf("kill %d at %s #%d: the build finished; it never reached that step", i+1, k.step, k.n)
		}
		_, err := os.Stat(out)
		switch k.step {
		case "moved-old":
			if err == nil {
				t.Fatalf("kill %d at %s: the site is in place; the test does not kill where it says", i+1, k.step)
			}
		case "renamed", "removed-old":
			current = v
			fallthrough
		default:
			if err != nil {
				t.Fatalf("kill %d at %s #%d: no site: %v", i+1, k.step, k.n, err)
			}
			if d := sameTree(readTree(t, out), vs[current].want); d != "" {
				t.Fatalf("kill %d at %s #%d: the site is not version %s: %s", i+1, k.step, k.n, current, d)
			}
		}
		if d := debris(t, dir); len(d) > 3 {
			t.Fatalf("kill %d: debris piles up: %v", i+1, d)
		}
		t.Logf("kill %2d at %-11s #%-4d (version %s): site is %s, left %v", i+1, k.step, k.n, v, map[bool]string{true: current, false: "aside"}[err == nil], debris(t, dir))
	}
	c = startChild(t, out, vs["A"], "", 0)
	c.Wait(t)
	if d := sameTree(readTree(t, out), vs["A"].want); d != "" {
		t.Errorf("the build after the kills: %s", d)
	}
	if d := debris(t, dir); len(d) > 0 {
		t.Errorf("the build after the kills left %v", d)
	}
}

// TestConcurrentBuilds starts two builds of different versions into one
// folder while a third holder has the lock and a folder of a "running"
// build lies beside the site: both wait, the running build's folder is
// untouched while they wait, and once the lock is free they take turns,
// leaving one whole version and no debris.
func TestConcurrentBuilds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs child builds")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	vs := versions(t)
	unlock, err := flock.Lock(out+".lock", nil)
	if err != nil {
		t.Fatal(err)
	}
	running := filepath.Join(dir, "site.tmp-running")
	if err := os.MkdirAll(running, 0o755); err != nil {
		t.Fatal(err)
	}
	var cs []*child
	for _, v := range []string{"A", "B"} {
		c := startChild(t, out, vs[v], "", 0)
		line, err := c.stderr.ReadString('\n')
		if err != nil || !strings.Contains(line, "another build is writing it") {
			t.Fatalf("build %s did not say it waits: %q %v", v, line, err)
		}
		cs = append(cs, c)
	}
	if _, err := os.Stat(running); err != nil {
		t.Fatalf("a waiting build touched the folder of the running one: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a build wrote the site while another held the lock")
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Wait(t) {
			t.Fatal("killed")
		}
	}
	got := readTree(t, out)
	if sameTree(got, vs["A"].want) != "" && sameTree(got, vs["B"].want) != "" {
		t.Errorf("the site is neither version: against A %s; against B %s", sameTree(got, vs["A"].want), sameTree(got, vs["B"].want))
	}
	if d := debris(t, dir); len(d) > 0 {
		t.Errorf("left %v", d)
	}
}

// TestRewriteLinksUnchangedFiles: a rebuild links the files whose bytes are
// unchanged from the previous site instead of writing them, and writes
// every other file afresh: a changed one, one a user edited in place or
// made unreadable to others, one replaced by a symbolic link.
func TestRewriteLinksUnchangedFiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	outside := filepath.Join(dir, "outside.html")
	files := []outdir.File{
		{Path: "index.html", Data: []byte("<p>home")},
		{Path: "runs/a/q1.html", Data: []byte("<p>same")},
		{Path: "runs/a/q2.html", Data: []byte("<p>old")},
		{Path: "runs/a/q3.html", Data: []byte("<p>edit")},
		{Path: "runs/a/q4.html", Data: []byte("<p>mode")},
		{Path: "runs/a/q5.html", Data: []byte("<p>link")},
	}
	if err := outdir.Write(out, files); err != nil {
		t.Fatal(err)
	}
	stat := func(p string) os.FileInfo {
		st, err := os.Lstat(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	before := map[string]os.FileInfo{}
	for _, f := range files {
		before[f.Path] = stat(f.Path)
	}
	// What users and accidents do to a published folder.
	if err := os.WriteFile(filepath.Join(out, "runs/a/q3.html"), []byte("<p>EDIT"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(out, "runs/a/q4.html"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("<p>link"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, "runs/a/q5.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(out, "runs/a/q5.html")); err != nil {
		t.Fatal(err)
	}
	files[2].Data = []byte("<p>new")
	if err := outdir.Write(out, files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		st := stat(f.Path)
		data, err := os.ReadFile(filepath.Join(out, f.Path))
		if err != nil || !bytes.Equal(data, f.Data) || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: %q, mode %v, %v; want %q, a regular file of mode 0644", f.Path, data, st.Mode(), err, f.Data)
		}
		linked := os.SameFile(st, before[f.Path])
		if want := f.Path == "index.html" || f.Path == "runs/a/q1.html"; linked != want {
			t.Errorf("%s: linked from the previous site %v, want %v", f.Path, linked, want)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "<p>link" {
		t.Errorf("the file outside the site changed: %q", data)
	}
}

// TestCachedRebuildLinksPages: with the build cache (as the fixture's
// cold build left it), a build writes the clean build's bytes, and a
// rebuild into the same folder links each run's unchanged pages from the
// previous site (checked by hash), writes what changed, and gives the
// clean build's bytes; a page edited in the published folder is written
// afresh.
func TestCachedRebuildLinksPages(t *testing.T) {
	t.Parallel()
	cfg := fixture(t)
	clean := fixtureSite(t)
	c, _ := warmCache(t)
	cfg.Cache = c
	out := filepath.Join(t.TempDir(), "site")
	if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	const page, edited = "runs/beta/q3.html", "runs/beta/q2.html"
	before, err := os.Stat(filepath.Join(out, page))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, edited), []byte("<p>edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(out, page))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Errorf("%s was written again, not linked from the previous site", page)
	}
	n := 0
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if want, ok := clean[filepath.ToSlash(rel)]; !ok || !bytes.Equal(data, want) {
			t.Errorf("%s differs from the clean build", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(clean) {
		t.Errorf("%d files, the clean build has %d", n, len(clean))
	}
}

// memoChild is TestMemoAcrossProcesses in its child process: it builds the
// fixture to $SITE_OUT with the cache in $SITE_CACHE, progress on stdout.
func memoChild(t *testing.T) {
	c, err := cache.Open(os.Getenv("SITE_CACHE"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := fixture(t)
	cfg.Cache, cfg.Progress = c, os.Stdout
	if err := Build(cfg, os.Getenv("SITE_OUT"), outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestMemoAcrossProcesses: a build in a new process finds every page
// emitMemo kept in the fixture's cold build, made in this one (its keys
// may not depend on anything a process chooses, such as gob's numbering
// of types, which here also follows what the tests before did).
func TestMemoAcrossProcesses(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		memoChild(t)
		return
	}
	t.Parallel()
	skipWholeSitesUnderRace(t)
	count := regexp.MustCompile(`from the cache: (\d+) of (\d+) pages spanning runs`)
	m := count.FindStringSubmatch(cachedFixtureSite(t).progress)
	if m == nil {
		t.Fatalf("no count of pages from the cache in\n%s", cachedFixtureSite(t).progress)
	}
	if m[1] != "0" {
		t.Errorf("the cold build: %s of %s pages from an empty cache", m[1], m[2])
	}
	_, cacheDir := warmCache(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoAcrossProcesses$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1", "SITE_OUT="+filepath.Join(t.TempDir(), "site"), "SITE_CACHE="+cacheDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child build: %v\n%s", err, out)
	}
	second := count.FindStringSubmatch(string(out))
	if second == nil {
		t.Fatalf("no count of pages from the cache in\n%s", out)
	}
	if second[1] != m[2] || second[2] != m[2] {
		t.Errorf("the build in a new process: %s of %s pages from the cache, want all %s", second[1], second[2], m[2])
	}
}

// TestRebuildReadsEachFileOnce: a cached rebuild into a site whose files
// are all the previous build's but one describes the new site (for a
// rebuild with nothing changed) without reading back any file it put: a
// file linked was read once, compared or hashed before it was linked, a
// file written hashed from its bytes. The next rebuild, with nothing
// changed, finds the site as described; a file of the
// previous site tampered with (the same size, its times put back) is not
// linked but written afresh, and the site is the clean build's.
func TestRebuildReadsEachFileOnce(t *testing.T) {
	cfg := fixture(t)
	clean := fixtureSite(t)
	c, _ := warmCache(t)
	cfg.Cache = c
	out := filepath.Join(t.TempDir(), "site")
	if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A run's page, which the rebuild links by its recorded hash, and a
	// board page, which it compares with the bytes rendered.
	const page, board = "runs/beta/q3.html", "index.html"
	tamper := func(rel string) os.FileInfo {
		p := filepath.Join(out, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 1
		if err := keepTimes(p, func() error { return os.WriteFile(p, data, 0o644) }); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	tampered := map[string]os.FileInfo{page: tamper(page), board: tamper(board)}
	before := buildcache.ReadBack.Load()
	if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := buildcache.ReadBack.Load() - before; n != 0 {
		t.Errorf("the rebuild read back %d of the files it put to describe them", n)
	}
	for rel, was := range tampered {
		st, err := os.Stat(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		if os.SameFile(st, was) {
			t.Errorf("%s: the tampered file of the previous site was linked", rel)
		}
	}
	n := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if want, ok := clean[filepath.ToSlash(rel)]; !ok || !bytes.Equal(data, want) {
			t.Errorf("%s differs from the clean build", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(clean) {
		t.Errorf("%d files, the clean build has %d", n, len(clean))
	}
	var progress strings.Builder
	cfg.Progress = &progress
	if err := Build(cfg, out, outdir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// (Files changed in the last tick of the clock before the record's
	// stamp are not described, and read: how many depends on the clock.)
	if !strings.Contains(progress.String(), fmt.Sprintf("the %d files of %s verified", len(clean), out)) {
		t.Errorf("the rebuild with nothing changed did not find the site as described:\n%s", progress.String())
	}
}
