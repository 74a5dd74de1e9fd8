package gotest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Step is one step of make check as .ci/phase recorded it: its name,
// exit status, wall and CPU seconds.
type Step struct {
	Name      string
	Status    int
	Wall, CPU float64
}

// ReadSteps reads .ci/phase's file: a line "NAME STATUS WALL CPU" a step.
func ReadSteps(name string) ([]Step, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var steps []Step
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		var s Step
		var errs [3]error
		if len(f) == 4 {
			s.Name = f[0]
			s.Status, errs[0] = strconv.Atoi(f[1])
			s.Wall, errs[1] = strconv.ParseFloat(f[2], 64)
			s.CPU, errs[2] = strconv.ParseFloat(f[3], 64)
		}
		if len(f) != 4 || errs[0] != nil || errs[1] != nil || errs[2] != nil {
			return nil, fmt.Errorf("%s:%d: want NAME STATUS WALL CPU, got %q", name, i+1, line)
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// WriteResults writes results as JSON lines, each with its step.
func WriteResults(w io.Writer, step string, results []Result) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, r := range results {
		if err := enc.Encode(StepResult{step, r}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// StepResult is a Result with the step that ran it.
type StepResult struct {
	Step string `json:"step"`
	Result
}

// ReadResults reads a file WriteResults wrote.
func ReadResults(name string) ([]StepResult, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []StepResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var r StepResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// A Summary is the tests of every step counted once, with the failures
// and the groups of skipped tests.
type Summary struct {
	Passed int
	// Failed are the failed tests, then the steps that failed outside
	// any test (vet, gofmt, a build that failed).
	Failed  []Failure
	Skipped []SkipGroup
	// NoSkips makes a skipped test a failure too (CI skips nothing):
	// Write says so, and counts the skips as one failure.
	NoSkips bool
}

// OK says nothing failed and, with NoSkips, nothing was skipped.
func (s Summary) OK() bool {
	return len(s.Failed) == 0 && !(s.NoSkips && s.SkippedTests() > 0)
}

// A Failure is a failed test, or a step that failed outside its tests
// (Test empty).
type Failure struct {
	Step, Package, Test string
	// Reason is why a package failed outside its tests, when known.
	Reason string
}

// A SkipGroup is the tests of one package skipped for one reason.
type SkipGroup struct {
	Package, Reason string
	Tests           []string
}

// Sum counts each test once: failed if it failed in any step, else
// passed if it passed in any, else skipped (with its reason in the first
// step that skipped it). A failed step in which no test failed counts
// as one failure.
func Sum(results []StepResult, steps []Step) Summary {
	type key struct{ pkg, test string }
	type state struct {
		status string // fail > pass > skip
		step   string
		reason string
	}
	rank := map[string]int{"skip": 0, "pass": 1, "fail": 2}
	tests := map[key]*state{}
	var order []key
	failedIn := map[string]bool{}
	for _, r := range results {
		if r.Status == "fail" {
			failedIn[r.Step] = true
		}
		k := key{r.Package, r.Test}
		s := tests[k]
		if s == nil {
			s = &state{status: r.Status, step: r.Step, reason: r.Reason}
			tests[k] = s
			order = append(order, k)
			continue
		}
		if rank[r.Status] > rank[s.status] {
			*s = state{status: r.Status, step: r.Step, reason: r.Reason}
		}
	}
	var sum Summary
	groups := map[key]*SkipGroup{}
	for _, k := range order {
		s := tests[k]
		switch s.status {
		case "pass":
			sum.Passed++
		case "fail":
			sum.Failed = append(sum.Failed, Failure{s.step, k.pkg, k.test, s.reason})
		case "skip":
			g := groups[key{k.pkg, s.reason}]
			if g == nil {
				g = &SkipGroup{Package: k.pkg, Reason: s.reason}
				groups[key{k.pkg, s.reason}] = g
			}
			g.Tests = append(g.Tests, k.test)
		}
	}
	for _, g := range groups {
		sum.Skipped = append(sum.Skipped, *g)
	}
	slices.SortFunc(sum.Skipped, func(a, b SkipGroup) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Reason, b.Reason))
	})
	for _, s := range steps {
		if s.Status != 0 && !failedIn[s.Name] {
			sum.Failed = append(sum.Failed, Failure{Step: s.Name})
		}
	}
	return sum
}

// SkippedTests is the number of skipped tests.
func (s Summary) SkippedTests() int {
	n := 0
	for _, g := range s.Skipped {
		n += len(g.Tests)
	}
	return n
}

// Write writes the failures, the line "N passed, N failed, N skipped",
// then each group of skipped tests: how many, which, why, and the go
// test command that runs them. Packages are written relative to module
// (./internal/site) when they are in it.
func (s Summary) Write(w io.Writer, module string) {
	for _, f := range s.Failed {
		if f.Test == "" && f.Package == "" {
			fmt.Fprintf(w, "FAILED: the %s step (its output is above)\n", f.Step)
		} else if f.Test == "" {
			fmt.Fprintf(w, "FAILED: %s: %s (the %s step)\n", rel(module, f.Package), cmp.Or(f.Reason, "failed outside its tests"), f.Step)
		} else {
			fmt.Fprintf(w, "FAILED: %s in %s (the %s step)\n", f.Test, rel(module, f.Package), f.Step)
		}
	}
	failed := len(s.Failed)
	if s.NoSkips && s.SkippedTests() > 0 {
		fmt.Fprintf(w, "FAILED: %d tests skipped, and here nothing may be (CI skips nothing)\n", s.SkippedTests())
		failed++
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", s.Passed, failed, s.SkippedTests())
	for _, g := range s.Skipped {
		names := g.Tests
		more := ""
		if len(names) > 3 {
			more = fmt.Sprintf(" and %d more", len(names)-3)
			names = names[:3]
		}
		word := "tests"
		if len(g.Tests) == 1 {
			word = "test"
		}
		reason := g.Reason
		if reason == "" {
			reason = "no reason given"
		}
		fmt.Fprintf(w, "skipped: %d %s in %s (%s%s): %s\n", len(g.Tests), word, rel(module, g.Package), strings.Join(names, ", "), more, reason)
		fmt.Fprintf(w, "  run them: %s\n", Command(module, g))
	}
}

// Command is the go test command that runs a group's tests: their
// top-level tests, in their package, without -short.
func Command(module string, g SkipGroup) string {
	var top []string
	seen := map[string]bool{}
	for _, t := range g.Tests {
		name, _, _ := strings.Cut(t, "/")
		if !seen[name] {
			seen[name] = true
			top = append(top, regexp.QuoteMeta(name))
		}
	}
	run := top[0]
	if len(top) > 1 {
		run = "(" + strings.Join(top, "|") + ")"
	}
	return fmt.Sprintf("go test -count=1 -run '^%s$' %s", run, rel(module, g.Package))
}

func rel(module, pkg string) string {
	switch {
	case module == "":
		return pkg
	case pkg == module:
		return "."
	case strings.HasPrefix(pkg, module+"/"):
		return "./" + strings.TrimPrefix(pkg, module+"/")
	}
	return pkg
}

// WriteSteps writes the table of steps: each one's status, wall and CPU
// seconds, then the CPU of all of them.
func WriteSteps(w io.Writer, steps []Step) {
	fmt.Fprintln(w, "the steps (wall and CPU seconds; they overlap):")
	cpu := 0.0
	for _, s := range steps {
		status := "passed"
		if s.Status != 0 {
			status = fmt.Sprintf("FAILED %d", s.Status)
		}
		fmt.Fprintf(w, "  %-12s %-9s %8.1f s wall %8.1f s CPU\n", s.Name, status, s.Wall, s.CPU)
		cpu += s.CPU
	}
	fmt.Fprintf(w, "  %-12s %-9s %8s        %8.1f s CPU\n", "all steps", "", "", cpu)
}
