// Command build generates the Discrim-Eval leaderboard site from the
// committed content and frozen runs.
//
//	go run ./cmd/build [-content DIR] [-runs DIR] [-methodology FILE] [-o DIR]
//	go run ./cmd/build -verify DIR
//
// With no flags it reads ./content, ./runs and ./METHODOLOGY.md and writes
// ./site, replacing it only when the whole build succeeded. With -verify it
// writes nothing: it rebuilds in memory and compares with the published
// copy of the site in DIR, byte for byte, exiting 1 when they differ.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"

	"github.com/discrimeval/leaderboard/internal/content"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/site"
	"github.com/discrimeval/leaderboard/internal/verify"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	contentDir := fs.String("content", "content", "folder with site.yaml, benchmarks/ and pages/")
	runsDir := fs.String("runs", "runs", "folder with one sub-folder per frozen run")
	methodology := fs.String("methodology", "METHODOLOGY.md", "the methodology page (Markdown)")
	out := fs.String("o", "site", "output folder (replaced atomically)")
	verifyDir := fs.String("verify", "", "compare a rebuild with the published site in this folder instead of writing (exit 1 when they differ)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the build to this file (for performance work)")
	memProfile := fs.String("memprofile", "", "write a heap profile, taken when the site is written, to this file")
	quiet := fs.Bool("q", false, "print no progress lines on stderr")
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
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// The input folders are opened so that symbolic links are followed
	// only inside them (internal/input).
	contentFS, closeContent, err := input.Dir(*contentDir)
	if err != nil {
		return err
	}
	defer closeContent()
	runsFS, closeRuns, err := input.Dir(*runsDir)
	if err != nil {
		return err
	}
	defer closeRuns()
	mdDir, closeMD, err := input.Dir(filepath.Dir(*methodology))
	if err != nil {
		return fmt.Errorf("-methodology %s: %v", *methodology, err)
	}
	defer closeMD()
	md, err := content.LoadMethodology(mdDir, filepath.Base(*methodology), *methodology)
	if err != nil {
		return err
	}
	cfg := site.Config{
		Content: contentFS, ContentLabel: *contentDir,
		Runs: runsFS, RunsLabel: *runsDir,
		Methodology: md, MethodologyLabel: *methodology,
		Version: version(),
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	if *verifyDir != "" {
		return verifySite(cfg, *verifyDir, stdout)
	}
	if err := site.Build(cfg, *out, site.WriteOptions{Log: stderr}); err != nil {
		return err
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			return err
		}
		err = pprof.WriteHeapProfile(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// errDiffers is returned when a verified site differs from its rebuild; the
// report has been printed.
var errDiffers = errors.New("the published site differs from its rebuild")

func verifySite(cfg site.Config, dir string, stdout io.Writer) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("-verify %s: not a folder", dir)
	}
	c := verify.NewComparer(os.DirFS(dir))
	if err := site.Stream(cfg, c.Put); err != nil {
		return err
	}
	rep, err := c.Finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "verify %s: ", dir)
	rep.Write(stdout)
	if !rep.Identical() {
		return errDiffers
	}
	return nil
}

// version names the generator from the build info: the module version and
// VCS revision when Go recorded them, "devel" otherwise.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "-dirty"
		}
	}
	return v
}
