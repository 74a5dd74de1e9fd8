// Package gotest shows the output of go test -json as go test itself
// shows it, keeping the result of every test, and sums the results of
// the steps of make check (or make test) into the one line they end
// with: "N passed, N failed, N skipped", then each group of skipped
// tests, why it was skipped, and the command that runs it.
//
// A test is a test or subtest of a package; a test that several steps
// run (the race detector's step runs some tests of the plain step again,
// under -race -short, and skips others) is counted once: failed if it
// failed in any step, else passed if it passed in any, else skipped.
package gotest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// event is one line of go test -json (cmd/test2json's TestEvent; the
// build's own lines since Go 1.24).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string
	FailedBuild string
}

// Result is what one run of go test said of a test, or of a package
// that failed outside its tests (Test empty: a build failure, a panic in
// TestMain, a timeout).
type Result struct {
	Package string `json:"package"`
	Test    string `json:"test,omitempty"`
	// Status is "pass", "fail" or "skip".
	Status string `json:"status"`
	// Reason is a skipped test's message (its last t.Log line before it
	// skipped, without the file:line), or why a test that did not end
	// failed.
	Reason string `json:"reason,omitempty"`
}

// Filter reads go test -json from r and writes to w what go test would
// have written: with verbose, every line (go test -v); without it, the
// package lines (ok, FAIL, no test files), a failed test's output (a
// failed subtest's indented under its parent's) and the build's errors.
// It returns every test's result, in the order they ended. An input line
// that is not an event is written as it is.
func Filter(r io.Reader, w io.Writer, verbose bool) ([]Result, error) {
	f := filter{w: w, verbose: verbose, out: map[string]*strings.Builder{}, failedBelow: map[string]string{}, failed: map[string]bool{}, running: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		f.line(sc.Bytes())
	}
	// go test's own last line when a package failed.
	if f.anyFailed {
		io.WriteString(w, "FAIL\n")
	}
	return f.results, sc.Err()
}

type filter struct {
	w       io.Writer
	verbose bool
	results []Result
	// out is each running test's output so far, by package and test
	// (key pkg + " " + test), until the test ends.
	out map[string]*strings.Builder
	// failedBelow is the output of a test's failed subtests, shown under
	// it when it ends.
	failedBelow map[string]string
	// failed: packages with a failed test
	failed map[string]bool
	// running: tests started and not ended, by key
	running map[string]bool
	// anyFailed: a package failed
	anyFailed bool
}

func (f *filter) line(line []byte) {
	var e event
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
		fmt.Fprintf(f.w, "%s\n", line)
		return
	}
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "run":
		f.running[key] = true
	case e.Action == "build-output":
		io.WriteString(f.w, e.Output)
	case e.Action == "output" && e.Test == "":
		if strings.HasPrefix(e.Output, "FAIL\t") {
			f.failRunning(e.Package)
		}
		if f.verbose || e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
			io.WriteString(f.w, e.Output)
		}
	case e.Action == "output":
		if f.verbose {
			io.WriteString(f.w, e.Output)
			return
		}
		b := f.out[key]
		if b == nil {
			b = new(strings.Builder)
			f.out[key] = b
		}
		b.WriteString(e.Output)
	case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		out := ""
		if b := f.out[key]; b != nil {
			out = b.String()
			delete(f.out, key)
		}
		below := f.failedBelow[key]
		delete(f.failedBelow, key)
		delete(f.running, key)
		res := Result{Package: e.Package, Test: e.Test, Status: e.Action}
		switch e.Action {
		case "skip":
			res.Reason = skipReason(out)
		case "fail":
			f.failed[e.Package] = true
			if !f.verbose {
				f.showFailure(e.Package, e.Test, out, below)
			}
		}
		f.results = append(f.results, res)
	case e.Test == "" && e.Action == "fail":
		f.anyFailed = true
		f.failRunning(e.Package)
		if !f.failed[e.Package] {
			res := Result{Package: e.Package, Status: "fail"}
			if e.FailedBuild != "" {
				res.Reason = "its tests did not build"
			}
			f.results = append(f.results, res)
		}
	}
}

// failRunning fails the tests of pkg still running when it failed (a
// panic, a timeout), showing their output.
func (f *filter) failRunning(pkg string) {
	var running []string
	for k := range f.running {
		if p, test, _ := strings.Cut(k, " "); p == pkg {
			running = append(running, test)
		}
	}
	slices.Sort(running)
	for _, test := range running {
		k := pkg + " " + test
		if b := f.out[k]; b != nil && !f.verbose {
			io.WriteString(f.w, dropRunLines(b.String()))
		}
		delete(f.out, k)
		delete(f.running, k)
		f.results = append(f.results, Result{Package: pkg, Test: test, Status: "fail", Reason: "still running when its package failed"})
		f.failed[pkg] = true
	}
}

// showFailure shows a failed test as go test does: its "--- FAIL" line,
// its output, then its failed subtests' indented under it. A subtest's
// waits for its parent.
func (f *filter) showFailure(pkg, test, out, below string) {
	lines := strings.SplitAfter(dropRunLines(out), "\n")
	var block strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "--- FAIL: ") {
			block.WriteString(lines[i])
			lines = slices.Delete(lines, i, i+1)
			break
		}
	}
	for _, l := range lines {
		block.WriteString(l)
	}
	block.WriteString(below)
	// The parent: the longest running test whose name and a slash start
	// this one's (a subtest's own name may hold a slash).
	for parent := test; ; {
		i := strings.LastIndex(parent, "/")
		if i < 0 {
			break
		}
		parent = parent[:i]
		if f.running[pkg+" "+parent] {
			var indented strings.Builder
			for l := range strings.Lines(block.String()) {
				indented.WriteString("    " + l)
			}
			f.failedBelow[pkg+" "+parent] += indented.String()
			return
		}
	}
	io.WriteString(f.w, block.String())
}

// dropRunLines leaves out the "=== RUN" lines (and PAUSE, CONT, NAME),
// which go test shows only with -v.
func dropRunLines(out string) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(strings.TrimLeft(line, " "), "=== ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// logLine is a line of t.Log output: indented, file.go:N: message.
var logLine = regexp.MustCompile(`^\s+[^\s:]+\.go:\d+: (.*)$`)

// skipReason is the message of a skipped test: its last log line, with
// the lines that continue it.
func skipReason(out string) string {
	var reason []string
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\n")
		if m := logLine.FindStringSubmatch(line); m != nil {
			reason = []string{m[1]}
		} else if strings.HasPrefix(line, "        ") && reason != nil {
			reason = append(reason, strings.TrimSpace(line))
		} else if strings.HasPrefix(strings.TrimSpace(line), "--- ") {
			break
		}
	}
	return strings.Join(reason, " ")
}
