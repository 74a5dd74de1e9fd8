// Command gotest runs the test steps of make check and make test, and
// sums them up at the end (package gotest):
//
//	gotest run [-v] [-step NAME] [-o FILE] go test -json ARG...
//
// runs the command, shows its output as go test would (every line with
// -v), writes each test's result to FILE and exits with the command's
// status (1 when a test failed and the command said nothing).
//
//	gotest report [-steps FILE] [-no-skips] [-since UNIX-SECONDS] DIR
//
// writes the table of steps (.ci/phase's file), the wall time since the
// given second, the failed tests and steps, the line "N passed, N failed,
// N skipped", and each group of skipped tests with why and the command
// that runs them, from the results in DIR/*.jsonl. It exits 1 when
// anything failed, or, with -no-skips (CI: CI skips nothing), when a test
// was skipped.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/discrimeval/leaderboard/internal/gotest"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var exit exitError
		if errors.As(err, &exit) {
			os.Exit(int(exit))
		}
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
}

// exitError is an exit status to leave with, its reason already shown.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: gotest run|report …")
	}
	switch args[0] {
	case "run":
		return runTests(args[1:], stdout, stderr)
	case "report":
		return report(args[1:], stdout)
	}
	return fmt.Errorf("unknown command %q: want run or report", args[0])
}

func runTests(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gotest run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "show every line, as go test -v does")
	step := fs.String("step", "test", "the step's name, kept with each result")
	out := fs.String("o", "", "write the results to this file (JSON lines)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("gotest run: no command")
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	lw := &lineFlusher{w}
	results, ferr := gotest.Filter(pipe, lw, *verbose)
	io.Copy(io.Discard, pipe)
	werr := cmd.Wait()
	w.Flush()
	if ferr != nil {
		return ferr
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		if err := gotest.WriteResults(f, *step, results); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	var exit *exec.ExitError
	if errors.As(werr, &exit) {
		return exitError(max(exit.ExitCode(), 1))
	}
	if werr != nil {
		return werr
	}
	for _, r := range results {
		if r.Status == "fail" {
			return exitError(1)
		}
	}
	return nil
}

// lineFlusher flushes after every write that ends a line, so that a
// step's lines show as they come.
type lineFlusher struct{ w *bufio.Writer }

func (l *lineFlusher) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err == nil && len(p) > 0 && p[len(p)-1] == '\n' {
		err = l.w.Flush()
	}
	return n, err
}

func report(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gotest report", flag.ContinueOnError)
	stepsFile := fs.String("steps", "", ".ci/phase's file of steps (NAME STATUS WALL CPU a line)")
	noSkips := fs.Bool("no-skips", false, "fail when a test was skipped (CI skips nothing)")
	since := fs.Int64("since", 0, "the Unix second the run started: its wall time is written")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("gotest report: want one folder of results")
	}
	var steps []gotest.Step
	if *stepsFile != "" {
		var err error
		if steps, err = gotest.ReadSteps(*stepsFile); err != nil {
			return err
		}
		gotest.WriteSteps(stdout, steps)
	}
	if *since > 0 {
		fmt.Fprintf(stdout, "%d s wall in all\n", time.Now().Unix()-*since)
	}
	files, err := filepath.Glob(filepath.Join(fs.Arg(0), "*.jsonl"))
	if err != nil {
		return err
	}
	var results []gotest.StepResult
	for _, f := range files {
		r, err := gotest.ReadResults(f)
		if err != nil {
			return err
		}
		results = append(results, r...)
	}
	sum := gotest.Sum(results, steps)
	sum.NoSkips = *noSkips
	sum.Write(stdout, module())
	if !sum.OK() {
		return exitError(1)
	}
	return nil
}

// module is the path of the module in the current folder, from go.mod.
func module() string {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}
