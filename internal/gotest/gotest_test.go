package gotest

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goTest runs the go command in testdata/mod, a module whose tests pass,
// fail, skip with a reason, have subtests and do not build, and returns
// its standard output.
func goTest(t *testing.T, args ...string) []byte {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = "testdata/mod"
	// The caller's GOFLAGS kept (.ci/run's compile flags): the standard
	// library this builds is then the one its go command compiled.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -buildvcs=false"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	// go test writes a build's errors on stderr, -json on stdout.
	return append(stderr.Bytes(), out...)
}

var seconds = regexp.MustCompile(`\d+\.\d+s`)

// TestFilterShowsWhatGoTestShows: the output of go test -json, filtered,
// is what go test itself prints, with and without -v (times aside),
// and the results are each test's.
func TestFilterShowsWhatGoTestShows(t *testing.T) {
	for _, pkg := range []string{"./a", "./broken", "./notests"} {
		for _, verbose := range []bool{false, true} {
			args := []string{pkg}
			if verbose {
				args = []string{"-v", pkg}
			}
			want := goTest(t, args...)
			var got bytes.Buffer
			if _, err := Filter(bytes.NewReader(goTest(t, append([]string{"-json"}, args...)...)), &got, verbose); err != nil {
				t.Fatal(err)
			}
			norm := func(b []byte) string { return seconds.ReplaceAllString(string(b), "Xs") }
			if diff := cmp.Diff(norm(want), norm(got.Bytes())); diff != "" {
				t.Errorf("go test %s: filtered -json differs from go test (-want +got):\n%s", strings.Join(args, " "), diff)
			}
		}
	}
}

func TestFilterResults(t *testing.T) {
	var out bytes.Buffer
	got, err := Filter(bytes.NewReader(goTest(t, "-json", "./...")), &out, false)
	if err != nil {
		t.Fatal(err)
	}
	const a = "example.com/mod/a"
	want := []Result{
		{Package: "example.com/mod/broken", Status: "fail", Reason: "its tests did not build"},
		{Package: a, Test: "TestPasses", Status: "pass"},
		{Package: a, Test: "TestFails", Status: "fail"},
		{Package: a, Test: "TestSkips", Status: "skip", Reason: "chromium is not installed: run apt-get install chromium"},
		{Package: a, Test: "TestParent/ok", Status: "pass"},
		{Package: a, Test: "TestParent/bad", Status: "fail"},
		{Package: a, Test: "TestParent/skipped", Status: "skip", Reason: "no java"},
		{Package: a, Test: "TestParent/skipped2", Status: "skip", Reason: "no java"},
		{Package: a, Test: "TestParent", Status: "fail"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// TestFilterPackageFailsMidTest: a test still running when its package
// fails (a panic, a timeout) fails, and so does a package that failed
// with no test failed.
func TestFilterPackageFailsMidTest(t *testing.T) {
	in := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestHangs"}
{"Action":"output","Package":"p","Test":"TestHangs","Output":"=== RUN   TestHangs\n"}
{"Action":"output","Package":"p","Test":"TestHangs","Output":"panic: test timed out after 1s\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t1.0s\n"}
{"Action":"fail","Package":"p","Elapsed":1}
{"Action":"start","Package":"q"}
{"Action":"output","Package":"q","Output":"FAIL\tq\t0.1s\n"}
{"Action":"fail","Package":"q","Elapsed":0.1}
not an event
`
	var out bytes.Buffer
	got, err := Filter(strings.NewReader(in), &out, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{Package: "p", Test: "TestHangs", Status: "fail", Reason: "still running when its package failed"},
		{Package: "q", Status: "fail"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	wantOut := "panic: test timed out after 1s\nFAIL\tp\t1.0s\nFAIL\tq\t0.1s\nnot an event\nFAIL\n"
	if diff := cmp.Diff(wantOut, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// TestSum: a test is counted once over the steps — failed in any, else
// passed in any, else skipped — and a step that failed outside its tests
// is a failure.
func TestSum(t *testing.T) {
	const m = "example.com/m"
	results := []StepResult{
		{"race", Result{Package: m + "/site", Test: "TestBig", Status: "skip", Reason: "builds whole sites: checked by the plain run"}},
		{"test", Result{Package: m + "/site", Test: "TestBig", Status: "pass"}},
		{"race", Result{Package: m + "/site", Test: "TestRacy", Status: "fail"}},
		{"test", Result{Package: m + "/site", Test: "TestRacy", Status: "pass"}},
		{"browser", Result{Package: m + "/browsertest", Test: "TestPages/375x667/index.html/axe", Status: "skip", Reason: "axe-core is not installed: run `npm ci --prefix .ci`"}},
		{"browser", Result{Package: m + "/browsertest", Test: "TestPages/375x667/runs.html/axe", Status: "skip", Reason: "axe-core is not installed: run `npm ci --prefix .ci`"}},
		{"browser", Result{Package: m + "/browsertest", Test: "TestPages", Status: "pass"}},
		{"browser", Result{Package: m + "/browsertest", Test: "TestVNU", Status: "skip", Reason: "java is not installed"}},
		{"test", Result{Package: m, Test: "TestA.B", Status: "skip", Reason: "java is not installed"}},
	}
	steps := []Step{{"vet", 1, 1, 1}, {"race", 1, 2, 2}, {"test", 0, 3, 3}, {"fmt", 0, 1, 1}}
	sum := Sum(results, steps)
	var out bytes.Buffer
	sum.Write(&out, m)
	want := `FAILED: TestRacy in ./site (the race step)
FAILED: the vet step (its output is above)
2 passed, 2 failed, 4 skipped
skipped: 1 test in . (TestA.B): java is not installed
  run them: go test -count=1 -run '^TestA\.B$' .
skipped: 2 tests in ./browsertest (TestPages/375x667/index.html/axe, TestPages/375x667/runs.html/axe): axe-core is not installed: run ` + "`npm ci --prefix .ci`" + `
  run them: go test -count=1 -run '^TestPages$' ./browsertest
skipped: 1 test in ./browsertest (TestVNU): java is not installed
  run them: go test -count=1 -run '^TestVNU$' ./browsertest
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if sum.OK() {
		t.Error("OK with failures")
	}

	// CI: a skip is a failure.
	sum = Sum(results[:2], nil)
	sum.NoSkips = true
	if !sum.OK() {
		t.Error("not OK with nothing failed or skipped")
	}
	sum = Sum(results[:1], nil)
	sum.NoSkips = true
	out.Reset()
	sum.Write(&out, m)
	if sum.OK() || !strings.Contains(out.String(), "FAILED: 1 tests skipped, and here nothing may be (CI skips nothing)\n0 passed, 1 failed, 1 skipped\n") {
		t.Errorf("OK %v with a skip under NoSkips:\n%s", sum.OK(), out.String())
	}
}

func TestCommandGroupsTopLevelTests(t *testing.T) {
	g := SkipGroup{Package: "m/p", Tests: []string{"TestA/x", "TestB", "TestA/y", "TestC/z/w"}}
	if got, want := Command("m", g), `go test -count=1 -run '^(TestA|TestB|TestC)$' ./p`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
