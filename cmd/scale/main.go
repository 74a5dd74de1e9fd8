// Command scale measures the generator at scale (make scale): for each
// number of runs it generates synthetic runs (cmd/synth -n), measures the
// floor — what any build must do: decompress and hash every scored file,
// hash it, and copy the built output — then a clean build (-cache off),
// the first build with an empty cache (the default's cost), a -verify,
// and a rebuild with the build cache after adding one run to a site of
// one run fewer, then one with nothing changed (each checked
// byte-identical with the clean build), and the cache's size; and
// prints one Markdown table row per size for PERFORMANCE.md. With -hugo it
// also times Debian's hugo building the same number of pages of the same
// mean size, at sizes of up to -hugo-max runs (400: hugo 0.111 holds
// every page in memory, and on the pages of 1,000 runs it grew past the
// 24 GB of the machine the figures were taken on until the kernel
// killed it).
//
//	go run ./cmd/scale [-n 25,50,100,200,400,1000] [-tries 3,3,3,2,1,1] [-dir /tmp/discrim-scale] [-runs DIR] [-hugo] [-hugo-max 400]
//
// Times are wall-clock seconds on whatever the machine is doing: run it on
// a quiet machine, and compare ratios taken in the same run; CPU time
// (user + system) moves less with the load. Every timed step — clean
// build, first cached build, floor, -verify, the two cached rebuilds and
// hugo's build — is tried as many times as its size's -tries (one number,
// or one a size), each after sync, and keeps the least wall time and the
// least CPU time of its tries (each on its own); each try of the run
// added starts from the same cache and site of one run fewer. A size's sites are
// removed once it is measured. Every build is given -runs-url (an address
// as long as the Pages workflow's), so that a site whose runs' copies
// would pass its budget (1 GB: from about 770 runs) links them there.
//
// It fails — after the whole table, with one line each — when a file of
// a clean build is over 500 KB, or a site of 1,000 runs or more over
// 0.75 MB a run (the budgets of issues 26 and 40).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("scale", flag.ContinueOnError)
	fl.SetOutput(stderr)
	n := fl.String("n", "25,50,100,200,400", "numbers of runs to measure, comma-separated")
	tries := fl.String("tries", "3", "tries of each timed step (clean build, first cached build, floor, -verify, the cached rebuilds, hugo), the least wall and the least CPU time kept: one number, or one for each size of -n")
	dir := fl.String("dir", filepath.Join(os.TempDir(), "discrim-scale"), "work folder (runs, sites, binaries)")
	hugo := fl.Bool("hugo", false, "also time hugo building as many pages of the same mean size")
	runsDir := fl.String("runs", "", "use the runs already in this folder, written by go run ./cmd/synth -n N -o DIR with N at least the largest size, instead of generating them into the work folder (generating 1,000 runs takes about 150 CPU-s)")
	hugoMax := fl.Int("hugo-max", 400, "with -hugo, the largest number of runs to time hugo at (its memory grows with the pages: about 24 GB was not enough at 1,000 runs)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fl.Args())
	}
	ss, err := sizes(*n, *tries)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	bin := filepath.Join(*dir, "bin")
	v := checkoutVersion()
	fmt.Fprintf(stderr, "scale: every build names version %s\n", v)
	if err := buildTools(bin, v, stderr); err != nil {
		return err
	}
	all := filepath.Join(*dir, "runs-all")
	most := ss[len(ss)-1].runs
	if *runsDir != "" {
		all = *runsDir
		fmt.Fprintf(stderr, "scale: the runs of %s\n", all)
	} else {
		fmt.Fprintf(stderr, "scale: generating %d runs into %s\n", most, all)
		if _, err := measure(filepath.Join(bin, "synth"), "-n", strconv.Itoa(most), "-o", all, "-force"); err != nil {
			return err
		}
	}
	ids, err := runIDs(all)
	if err != nil {
		return err
	}
	if len(ids) < most {
		return fmt.Errorf("%s: %d runs, want %d", all, len(ids), most)
	}
	var over []string
	var hugos [][2]rate
	io.WriteString(stdout, header)
	for _, s := range ss {
		hugoUpTo := 0 // no hugo
		if *hugo {
			hugoUpTo = *hugoMax
		}
		r, err := measureSize(bin, *dir, all, ids[:s.runs], s.tries, hugoUpTo, stderr)
		if err != nil {
			return err
		}
		io.WriteString(stdout, r.markdown())
		over = append(over, overBudget(r.runs, r.site)...)
		if r.hugo != nil {
			ours := rate{name: "this generator", wall: r.build.wall, cpu: r.build.cpu, files: r.site.pages, size: r.site.html}
			hugos = append(hugos, [2]rate{ours, *r.hugo})
		}
	}
	if len(hugos) > 0 {
		io.WriteString(stdout, "\n"+hugoHeader)
		for _, pair := range hugos {
			for _, r := range pair {
				io.WriteString(stdout, r.markdown())
			}
		}
	}
	if len(over) > 0 {
		for _, m := range over {
			fmt.Fprintln(stderr, "scale: over budget:", m)
		}
		return fmt.Errorf("%d over budget (files of at most %s bytes; from %s runs, sites of at most %s bytes a run)", len(over), group(fileBudget), group(perRunFrom), group(perRunBudget))
	}
	return nil
}

// measureSize measures a site of the given runs: floor, clean build,
// -verify, the cached rebuilds (one run added, nothing changed) and, when
// there are at most hugoUpTo runs, hugo's build of as many pages (hugoUpTo
// 0: no hugo); then removes the sites.
func measureSize(bin, dir, all string, ids []string, tries int, hugoUpTo int, stderr io.Writer) (row, error) {
	r := row{runs: len(ids)}
	runs := filepath.Join(dir, fmt.Sprintf("runs-%d", r.runs))
	if err := linkRuns(all, runs, ids); err != nil {
		return r, err
	}
	out := filepath.Join(dir, fmt.Sprintf("site-%d", r.runs))
	defer func() {
		for _, p := range []string{filepath.Base(out), "copy", "site-inc", "runs-inc", "cache", "site-inc-before", "cache-before", "site-cold", "cache-cold", "hugo-src", "hugo-out"} {
			os.RemoveAll(filepath.Join(dir, p))
		}
	}()
	step := func(what string) { fmt.Fprintf(stderr, "scale: %d runs: %s\n", r.runs, what) }
	var err error
	step("build")
	// A clean build: no cache, and no previous site to link from.
	if r.build, err = best(tries, func() (usage, error) {
		if err := os.RemoveAll(out); err != nil {
			return usage{}, err
		}
		return measure(filepath.Join(bin, "build"), "-runs", runs, "-runs-url", runsURL, "-o", out, "-q", "-cache", "off")
	}); err != nil {
		return r, err
	}
	if r.site, err = statSite(out); err != nil {
		return r, err
	}
	step("first build with an empty cache")
	if r.cold, err = coldBuild(bin, dir, runs, out, tries); err != nil {
		return r, err
	}
	step("floor")
	fl, err := best(tries, func() (usage, error) {
		d, err := floorTime(runs, out, filepath.Join(dir, "copy"))
		return usage{wall: d}, err
	})
	if err != nil {
		return r, err
	}
	r.floor = fl.wall
	step("verify")
	if r.verify, err = best(tries, func() (usage, error) {
		return measure(filepath.Join(bin, "build"), "-runs", runs, "-runs-url", runsURL, "-verify", out, "-cache", "off")
	}); err != nil {
		return r, err
	}
	if r.runs > 1 {
		step("one run added, cached; then nothing changed")
		if r.added, r.same, r.cache, err = incremental(bin, dir, all, ids, out, tries); err != nil {
			return r, err
		}
	}
	switch {
	case hugoUpTo == 0:
	case r.runs > hugoUpTo:
		step(fmt.Sprintf("no hugo: over -hugo-max %d runs", hugoUpTo))
		r.hugoOver = hugoUpTo
	default:
		step("hugo")
		h, err := hugoBuild(dir, r.site.pages, r.site.html, tries)
		if err != nil {
			// The measurements of this generator stand; the row says
			// hugo failed, and why.
			fmt.Fprintf(stderr, "scale: %d runs: hugo failed: %v\n", r.runs, err)
			r.hugoFailed = hugoFailure(err)
		} else {
			r.hugo = &h
		}
	}
	return r, nil
}

// hugoFailure is a short reason for the table: the exit status
// ("signal: killed") of a hugo that ran, else the error's first line.
func hugoFailure(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.String()
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return strings.ReplaceAll(msg, "|", "/")
}

// checkoutVersion is the version of the checkout scale runs in, as a
// build run there would name it (git describe; "unknown" without git).
func checkoutVersion() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=12").Output()
	if v := strings.TrimSpace(string(out)); err == nil && v != "" {
		return v
	}
	return "unknown"
}

// buildTools builds cmd/build and cmd/synth into bin, the build with its
// version pinned to v (-ldflags -X main.pinnedVersion): every build scale
// times and compares then names the same version, and makes the same
// bytes, whatever is committed in the checkout while it runs (a build
// would otherwise take it from the checkout at each run when Go records
// no VCS revision, as with GOFLAGS=-buildvcs=false).
func buildTools(bin, v string, stderr io.Writer) error {
	for _, cmd := range []string{"build", "synth"} {
		args := []string{"build", "-o", filepath.Join(bin, cmd)}
		if cmd == "build" {
			args = append(args, "-ldflags=-X main.pinnedVersion="+v)
		}
		c := exec.Command("go", append(args, "./cmd/"+cmd)...)
		c.Stdout, c.Stderr = stderr, stderr
		if err := c.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/%s: %w (run from the repository root)", cmd, err)
		}
	}
	return nil
}
