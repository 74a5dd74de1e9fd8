// Command build generates the Discrim-Eval leaderboard site from the
// committed content and frozen runs.
//
//	go run ./cmd/build [-content DIR] [-runs DIR] [-methodology FILE] [-o DIR] [-runs-url URL] [-annotate]
//	go run ./cmd/build -verify DIR [-verify-runs RUNS_DIR]
//	go run ./cmd/build -diff SITE_OR_COMMIT [-format text|markdown] [-diff-label NAME]
//
// With no flags it reads ./content, ./runs and ./METHODOLOGY.md and writes
// ./site, replacing it only when the whole build succeeded. With -verify it
// writes nothing: it rebuilds in memory and compares with the published
// copy of the site in DIR, byte for byte, exiting 1 when they differ; it
// never uses the build cache, whose pages it would otherwise be checking
// against themselves. A site past its pages_budget with its runs' files
// copied links them instead, where the runs folder is published
// (-runs-url, else site.yaml's runs_url); with -verify-runs, -verify also
// checks every file it links against RUNS_DIR, what is published there.
//
// With -diff it writes nothing either: it compares this build with another
// site — a built site's folder, or a git commit whose inputs it builds with
// this generator — and prints what changed: site files, runs added,
// removed and changed, per board the rank moves and score changes (marking
// those beyond their interval, and those caused only by runs added or
// removed), and the checks of every new or changed run. It is the Changes
// page's comparison (internal/changes), as terminal text or as Markdown for
// a pull request's job summary; it exits 0 whatever the differences.
//
// With -annotate, a build error is also printed on standard output as a
// GitHub Actions annotation (::error file=…,line=…::…), which a pull
// request shows on the line of its diff.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/site"
	"github.com/discrimeval/leaderboard/internal/sitedata"
	"github.com/discrimeval/leaderboard/internal/verify"
)

// memoryLimit is the build's soft memory limit (GOMEMLIMIT overrides it).
// Go's collector otherwise lets the heap grow to twice what is live between
// collections: at 1,000 runs that took the build to 520 × 10⁶ bytes of
// resident memory. Near the limit it collects more often instead, which
// costs CPU only on boards large enough to reach it; a build whose live data
// exceed it still completes (the runtime caps the collector's share of CPU).
const memoryLimit = 400 << 20

// gcPercent is the build's GOGC (GOGC overrides it): below the memory
// limit the heap may grow to three times what is live between collections
// instead of twice, so that a small site's build collects half as often
// (100 runs: 5-7% less CPU, 120 → 170 MB of resident memory); the limit
// still holds a large one (1,000 runs: the same 426 MB, 1.6% less CPU).
const gcPercent = 200

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	content, runs, methodology, out string
	verify, verifyRuns, runsURL     string
	diff, diffLabel, format         string
	annotate, quiet, printVersion   bool
	cache                           string
	cpuProfile, memProfile          string
}

func run(args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.content, "content", "content", "folder with site.yaml, benchmarks/ and pages/")
	fs.StringVar(&o.runs, "runs", "runs", "folder with one sub-folder per frozen run")
	fs.StringVar(&o.methodology, "methodology", "METHODOLOGY.md", "the methodology page (Markdown)")
	fs.StringVar(&o.out, "o", "site", "output folder (replaced atomically)")
	fs.StringVar(&o.verify, "verify", "", "compare a rebuild with the published site in this folder instead of writing (exit 1 when they differ); everything is computed again, without the cache")
	fs.StringVar(&o.verifyRuns, "verify-runs", "", "with -verify: also check the runs' files that the site links instead of copying (past its pages_budget) against this folder, what is published at the runs folder's address: the runs folder at the published commit, or a download of it")
	fs.StringVar(&o.runsURL, "runs-url", "", "where the runs folder is published (an https address ending in /), in place of site.yaml's runs_url: the runs' files are linked there when their copies would take the site past its pages_budget (the Pages workflow gives the repository's raw files at the commit it publishes)")
	fs.StringVar(&o.diff, "diff", "", "compare this build with another site (a built site's folder, or a git commit to build) instead of writing, and print the changes")
	fs.StringVar(&o.format, "format", "text", "with -diff: text or markdown")
	fs.StringVar(&o.diffLabel, "diff-label", "", "with -diff: how the report names the other site (default: as given)")
	fs.BoolVar(&o.annotate, "annotate", false, "also print a build error as a GitHub Actions annotation (::error file=…,line=…::…) on standard output")
	fs.BoolVar(&o.quiet, "q", false, "print no progress lines on stderr")
	fs.BoolVar(&o.printVersion, "version", false, "print the generator's version, which the site names, and exit")
	fs.StringVar(&o.cache, "cache", defaultCache(), `folder of the build cache (each run's scores and pages, keyed by their inputs; "off" for none)`)
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file (for performance work)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile, taken when the site is written, to this file")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: build [flags]\n\nBuilds the leaderboard site from frozen runs; every score is recomputed.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.printVersion {
		fmt.Fprintln(stdout, version())
		return nil
	}
	if o.verifyRuns != "" && o.verify == "" {
		return errors.New("-verify-runs: only with -verify (the published site it checks the linked files of)")
	}
	if o.format != "text" && o.format != "markdown" {
		return fmt.Errorf("-format %q: want text or markdown", o.format)
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	err := build(o, stdout, stderr)
	if err != nil && o.annotate && !errors.Is(err, errDiffers) {
		fmt.Fprintln(stdout, fileerr.Annotation(err))
	}
	return err
}

func build(o options, stdout, stderr io.Writer) (err error) {
	in := inputs{o.content, o.runs, o.methodology}
	if o.diff != "" {
		// A report of a build that fails says why, so that a pull request's
		// summary is never empty.
		defer func() {
			if err != nil {
				writeFailure(stdout, err, o.format)
			}
		}()
	}
	cfg, closeInputs, err := config(in, in)
	if err != nil {
		return err
	}
	defer closeInputs()
	if !o.quiet {
		cfg.Progress = stderr
	}
	cfg.Warnings = stderr
	cfg.RunsURL = o.runsURL
	// -verify proves that the published site is what the inputs make, so
	// it computes everything again: a page the cache kept wrongly would be
	// on both sides of the comparison (the cache is neither read nor
	// written).
	if o.cache != "off" && o.cache != "" && o.verify == "" {
		if cfg.Cache, err = cache.Open(o.cache); err != nil {
			return err
		}
		// Files not used for a month go, checked at most once a day.
		defer cfg.Cache.Trim(30*24*time.Hour, 24*time.Hour)
	}
	switch {
	case o.verify != "":
		return verifySite(cfg, o.verify, o.verifyRuns, stdout)
	case o.diff != "":
		r, err := diffReport(cfg, in, o.diff, o.diffLabel)
		if err != nil {
			return err
		}
		return writeReport(stdout, r, o.format)
	}
	if err := site.Build(cfg, o.out, site.WriteOptions{Log: stderr}); err != nil {
		return err
	}
	if o.memProfile != "" {
		f, err := os.Create(o.memProfile)
		if err != nil {
			return err
		}
		err = pprof.WriteHeapProfile(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", o.out)
	return nil
}

// inputs are the paths of a build's inputs.
type inputs struct {
	content, runs, methodology string
}

// config opens the inputs at paths as the build reads them (folders with
// symbolic links followed only inside them, internal/input; the methodology
// checked as text), naming them by labels in messages.
func config(paths, labels inputs) (site.Config, func(), error) {
	var closers []func() error
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	open := func(dir string) (fs.FS, error) {
		fsys, c, err := input.Dir(dir)
		if err == nil {
			closers = append(closers, c)
		}
		return fsys, err
	}
	contentFS, err := open(paths.content)
	if err != nil {
		return site.Config{}, nil, err
	}
	runsFS, err := open(paths.runs)
	if err != nil {
		closeAll()
		return site.Config{}, nil, err
	}
	mdDir, err := open(filepath.Dir(paths.methodology))
	if err != nil {
		closeAll()
		return site.Config{}, nil, fmt.Errorf("-methodology %s: %v", labels.methodology, err)
	}
	md, err := content.LoadMethodology(mdDir, filepath.Base(paths.methodology), labels.methodology)
	if err != nil {
		closeAll()
		return site.Config{}, nil, err
	}
	return site.Config{
		Content: contentFS, ContentLabel: labels.content,
		Runs: runsFS, RunsLabel: labels.runs,
		Methodology: md, MethodologyLabel: labels.methodology,
		Version: version(),
	}, closeAll, nil
}

// errDiffers is returned when a verified site differs from its rebuild; the
// report has been printed.
var errDiffers = errors.New("the published site differs from its rebuild")

func verifySite(cfg site.Config, dir, runsDir string, stdout io.Writer) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("-verify %s: not a folder", dir)
	}
	// The published copy is read as every input is (internal/input).
	published, closePublished, err := input.Dir(dir)
	if err != nil {
		return fmt.Errorf("-verify %s: %w", dir, err)
	}
	defer closePublished()
	c := verify.NewComparer(published, dir)
	// The runs' files the rebuilt site links, from each run's data file.
	var mu sync.Mutex
	var linked []sitedata.File
	put := func(p string, data []byte) error {
		if runsDir != "" && sitedata.IsRunFile(p) {
			var r sitedata.Run
			if err := json.Unmarshal(data, &r); err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
			mu.Lock()
			for _, f := range r.Files {
				if strings.HasPrefix(f.Download, "https://") {
					linked = append(linked, f)
				}
			}
			mu.Unlock()
		}
		return c.Put(p, data)
	}
	if err := site.Stream(cfg, put); err != nil {
		return err
	}
	rep, err := c.Finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "verify %s: ", dir)
	rep.Write(stdout)
	ok := rep.Identical()
	if runsDir != "" {
		if ok, err = verifyLinked(runsDir, linked, stdout); err != nil {
			return err
		}
		ok = ok && rep.Identical()
	}
	if !ok {
		return errDiffers
	}
	return nil
}

// verifyLinked checks the linked runs' files against the folder dir,
// printing one line, or one a file that differs.
func verifyLinked(dir string, linked []sitedata.File, stdout io.Writer) (bool, error) {
	if len(linked) == 0 {
		fmt.Fprintf(stdout, "verify-runs %s: the site copies the runs' files (compared above), and links none\n", dir)
		return true, nil
	}
	runs, closeRuns, err := input.Dir(dir)
	if err != nil {
		return false, fmt.Errorf("-verify-runs %s: %w", dir, err)
	}
	defer closeRuns()
	slices.SortFunc(linked, func(a, b sitedata.File) int { return strings.Compare(a.Path, b.Path) })
	problems, err := verify.Linked(runs, dir, linked)
	if err != nil {
		return false, err
	}
	if len(problems) == 0 {
		fmt.Fprintf(stdout, "verify-runs %s: identical: the %d files the site links\n", dir, len(linked))
		return true, nil
	}
	fmt.Fprintf(stdout, "verify-runs %s: %d of the %d files the site links differ:\n", dir, len(problems), len(linked))
	for _, p := range problems {
		fmt.Fprintf(stdout, "  %s\n", p)
	}
	return false, nil
}

// version names the generator: the module version when it has one, and
// the VCS revision (12 digits, "-dirty" for uncommitted changes) that
// `go build` records in the build info. `go run` records none, so the
// revision then comes from `git describe --always --dirty` in the working
// directory. With neither it is "unknown": a build never needs git, and
// never publishes "devel". A version set when the executable is linked
// (pinnedVersion) comes before all of these.
func version() string {
	if pinnedVersion != "" {
		return pinnedVersion
	}
	return versionFrom(debug.ReadBuildInfo, gitDescribe)
}

// pinnedVersion is the version when set at link time, go build -ldflags
// "-X main.pinnedVersion=V": cmd/scale sets it, so that all the builds it
// times and compares name one version whatever is committed in the
// checkout meanwhile (a build without VCS stamping, GOFLAGS=-buildvcs=false,
// would take it from git describe at each run).
var pinnedVersion string

func versionFrom(read func() (*debug.BuildInfo, bool), describe func() string) string {
	var v, rev string
	dirty := false
	if bi, ok := read(); ok {
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			v = mv
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				rev = s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = true
			}
		}
	}
	if rev != "" {
		if dirty {
			rev += "-dirty"
		}
	} else {
		rev = describe()
	}
	switch {
	case v != "" && rev != "":
		return v + "+" + rev
	case v != "":
		return v
	case rev != "":
		return rev
	}
	return "unknown"
}

// gitDescribe is `git describe --always --dirty --abbrev=12` in the
// working directory, or "" when git or the repository is missing.
func gitDescribe() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=12").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// defaultCache is the cache folder in the user's cache directory, or none
// when there is no such directory.
func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "off"
	}
	return filepath.Join(dir, "discrim-eval-leaderboard")
}
