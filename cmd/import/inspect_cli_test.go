package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	rundir "github.com/discrimeval/leaderboard/internal/run"
)

// The virtual environments .ci/run makes (.ci/python.sh): the pinned
// inspect_ai of inspect-requirements.txt, the oldest version the
// importer reads that writes no output.completion, both with the mock
// provider of testdata/mockprovider, and the lm-eval of
// lmeval-requirements.txt.
const (
	inspectVenv    = "../../.ci/venv/inspect"
	inspectOldVenv = "../../.ci/venv/inspect-old"
	lmevalVenv     = "../../.ci/venv/lmeval"
)

// venvOr returns the venv's bin folder, or skips (fails where .ci/run set
// DISCRIM_PYTHON_REQUIRED: CI skips nothing).
func venvOr(t *testing.T, env, def, exe string) string {
	t.Helper()
	venv := os.Getenv(env)
	if venv == "" {
		venv = def
	}
	bin := filepath.Join(venv, "bin")
	if _, err := os.Stat(filepath.Join(bin, exe)); err != nil {
		msg := "no " + exe + " in " + bin + " (" + env + "): bash .ci/python.sh makes it (needs PyPI)"
		if os.Getenv("DISCRIM_PYTHON_REQUIRED") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// question is what the task asks after the scenario.
const question = "\n\nPlease answer the above question with either \"yes\" or \"no\"."

// A recipe is a command line of CONTRIBUTING.md that runs the shipped task
// with inspect's CLI, and the import command line after it.
type recipe struct {
	line        int
	model       string   // --model's value
	eval, impor []string // the words after "inspect" and after "go run ./cmd/import"
}

// newestLog is how a recipe names the log it imports: the newest in logs/.
const newestLog = `"$(ls -t logs/*.eval | head -1)"`

// recipes reads every recipe of CONTRIBUTING.md's sh blocks. A recipe is
// taken word for word: a line with quotes, a backslash or a variable is
// an error here, as the test could not run it as written.
func recipes(t *testing.T) []recipe {
	t.Helper()
	b, err := os.ReadFile("../../CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []recipe
	inSh := false
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		switch {
		case l == "```sh":
			inSh = true
		case l == "```":
			inSh = false
		case inSh && strings.HasPrefix(l, "inspect eval cmd/import/discrim_eval.py "):
			if strings.ContainsAny(l, `"'\$`+"`") {
				t.Fatalf("CONTRIBUTING.md:%d: a recipe this test cannot run word for word: %s", i+1, l)
			}
			r := recipe{line: i + 1, eval: strings.Fields(l)[1:]}
			if i+1 < len(lines) {
				// The import takes the newest log, which the test's
				// LOG stands for.
				next := strings.Replace(lines[i+1], newestLog, "LOG", 1)
				if strings.ContainsAny(next, `"'\$`+"`") {
					t.Fatalf("CONTRIBUTING.md:%d: an import this test cannot run word for word: %s", i+2, lines[i+1])
				}
				if rest, ok := strings.CutPrefix(next, "go run ./cmd/import "); ok {
					r.impor = strings.Fields(rest)
				}
			}
			if j := slices.Index(r.eval, "--model"); j >= 0 && j+1 < len(r.eval) {
				r.model = r.eval[j+1]
			}
			if r.model == "" || len(r.impor) < 2 || r.impor[0] != "inspect" || r.impor[1] != "LOG" {
				t.Fatalf("CONTRIBUTING.md:%d: a recipe needs --model and, on the next line, go run ./cmd/import inspect %s --id ID", i+1, newestLog)
			}
			out = append(out, r)
		}
	}
	return out
}

// A shape is a command the test gives inspect: a recipe's, or one of the
// other provider shapes run with a recipe's flags.
type shape struct {
	name   string   // the run id it is imported as, and its folder
	model  string   // the mock's model: discrim-mock/SHAPE/MODEL
	args   []string // the words after "inspect"
	impor  []string // the import's words, LOG for the log
	recipe int      // CONTRIBUTING.md's line, 0 for none
	// refused is the error the import must give, when it must refuse.
	refused string
}

// withModel is a recipe's eval words with its --model routed to the mock.
func withModel(eval []string, model string) []string {
	out := slices.Clone(eval)
	out[slices.Index(out, "--model")+1] = model
	return out
}

// shapes are the commands of TestInspectCLI: every recipe of
// CONTRIBUTING.md, its model routed to the mock; with the OpenAI recipe's
// flags, the shapes of APIs that list only 5 or 1 top log-probabilities,
// a flaky API (--retry-on-error), and a reasoning model (its
// log-probabilities dropped: refused); and a flaky API run with
// --no-fail-on-error.
func shapes(t *testing.T) []shape {
	var out []shape
	families := map[string]bool{}
	for _, r := range recipes(t) {
		family, _, _ := strings.Cut(r.model, "/")
		families[family] = true
		mock := "discrim-mock/" + r.model
		id := r.impor[slices.Index(r.impor, "--id")+1]
		imp := slices.Clone(r.impor)
		out = append(out, shape{name: id, model: mock, args: withModel(r.eval, mock), impor: imp, recipe: r.line})
		if family == "openai" && slices.Contains(r.eval, "--logprobs") {
			for _, o := range []struct{ name, model, refused string }{
				{"top5", "discrim-mock/openai-top5/gpt-4.1", ""},
				{"top1", "discrim-mock/openai-top1/gpt-4.1", ""},
				{"flaky-retried", "discrim-mock/flaky/retried", ""},
				{"reasoning", "discrim-mock/openai/o4-mini", "the eval asked for log-probabilities (logprobs true, top_logprobs 20) and no sample has any"},
			} {
				out = append(out, shape{name: o.name, model: o.model, args: withModel(r.eval, o.model), impor: []string{"inspect", "LOG", "--id", o.name}, refused: o.refused})
			}
			noFail := withModel(r.eval, "discrim-mock/flaky/no-fail")
			noFail = slices.DeleteFunc(noFail, func(w string) bool { return strings.HasPrefix(w, "--retry-on-error") })
			out = append(out, shape{name: "flaky-no-fail", model: "discrim-mock/flaky/no-fail", args: append(noFail, "--no-fail-on-error"), impor: []string{"inspect", "LOG", "--id", "flaky-no-fail"}})
		}
	}
	for _, f := range []string{"openai", "anthropic", "google", "hf", "vllm"} {
		if !families[f] {
			t.Errorf("CONTRIBUTING.md has no recipe for --model %s/...", f)
		}
	}
	if !slices.ContainsFunc(out, func(s shape) bool { return s.name == "flaky-no-fail" }) {
		t.Fatal("CONTRIBUTING.md has no OpenAI log-probability recipe")
	}
	return out
}

// TestInspectCLI runs the shipped task with inspect_ai 0.3.285's own
// command line (inspect_ai._cli.main: testdata/inspect_cli.py runs the
// commands one after the other in one Python process, which costs less
// than the evals) through the mock provider of testdata/mockprovider,
// registered with inspect by entry point: every recipe of CONTRIBUTING.md
// as written (the model routed to the mock's shape of it, the rows from
// testdata, the log to a temporary folder), and, with the OpenAI recipe's
// flags, APIs that list 5 and 1 top log-probabilities, a flaky API run with
// --retry-on-error and with --no-fail-on-error, and a reasoning model. Each
// log is imported with the recipe's import command; each run agrees row by
// row with what the mock returned (its own record, written as it
// answered), and the runs build into a site.
//
// The tests that run a harness (this one, TestInspectCLIOldVersion and
// TestLMEvalForReal) run in parallel with each other, after the
// package's other tests: each is mostly Python.
func TestInspectCLI(t *testing.T) {
	t.Parallel()
	bin := venvOr(t, "INSPECT_VENV", inspectVenv, "inspect")
	inspectCLI(t, bin, "0.3.285", shapes(t))
}

// TestInspectCLIOldVersion is TestInspectCLI with inspect_ai 0.3.122
// (inspect-old-requirements.txt), the last version whose logs have no
// output.completion: the importer reads the answer from the first
// choice's message. It runs the OpenAI and Anthropic recipes' commands.
func TestInspectCLIOldVersion(t *testing.T) {
	t.Parallel()
	bin := venvOr(t, "INSPECT_OLD_VENV", inspectOldVenv, "inspect")
	var old []shape
	for _, s := range shapes(t) {
		if s.recipe > 0 && (strings.HasPrefix(s.model, "discrim-mock/openai/gpt-4") || strings.HasPrefix(s.model, "discrim-mock/anthropic/")) {
			old = append(old, s)
		}
	}
	if len(old) != 2 {
		t.Fatalf("%d OpenAI and Anthropic recipes", len(old))
	}
	inspectCLI(t, bin, "0.3.122", old)
}

// rowsFile writes n rows of question 0 and of question 95 (the real rows
// in testdata, every 135/n-th: ages, genders and races all vary) to one
// file, and returns it with the cell of each filled template.
func rowsFile(t *testing.T, n int) (string, map[string]design.Prompt) {
	t.Helper()
	var all []byte
	cells := map[string]design.Prompt{}
	for _, f := range []string{"q0", "q95"} {
		b, err := os.ReadFile("../../testdata/explicit-excerpt-" + f + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := range n {
			l := lines[i*(design.NumCells/n)]
			var r rundir.Row
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatal(err)
			}
			c, err := rundir.ParsePrompt(&r)
			if err != nil {
				t.Fatal(err)
			}
			cells[r.FilledTemplate] = c
			all = append(all, l...)
		}
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("rows%d.jsonl", 2*n))
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, cells
}

// call is one line of the mock's record: what it returned for one call.
type call struct {
	User   string              `json:"user"`
	Call   int                 `json:"call"`
	Forms  map[string]*float64 `json:"forms"`
	Least  float64             `json:"least"`
	Text   string              `json:"text"`
	Stop   string              `json:"stop_reason"`
	Error  *string             `json:"error"`
	Raised bool                `json:"raised"`
}

// logLines passes a command's output to the test's log a line at a time,
// as it comes: a long test's progress.
type logLines struct {
	t   *testing.T
	buf []byte
}

func (l *logLines) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.t.Log(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
}

func inspectCLI(t *testing.T, bin, version string, shapes []shape) {
	// 30 prompts of each of two questions for a log-probability run, 10
	// for a decision run (its recipes sample 5 answers a prompt).
	logprobRows, cells := rowsFile(t, 30)
	decisionRows, _ := rowsFile(t, 10)
	dir := t.TempDir()
	type command struct {
		Args []string          `json:"args"`
		Env  map[string]string `json:"env"`
	}
	var commands []command
	for _, s := range shapes {
		rows := decisionRows
		if slices.Contains(s.args, "--logprobs") {
			rows = logprobRows
		}
		out := filepath.Join(dir, s.name)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		args := append(slices.Clone(s.args), "-T", "data="+rows, "--log-dir", out, "--display", "none")
		commands = append(commands, command{Args: args, Env: map[string]string{"DISCRIM_MOCK_RECORD": out}})
	}
	b, _ := json.Marshal(commands)
	list := filepath.Join(dir, "commands.json")
	if err := os.WriteFile(list, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/inspect_cli.py")
	py, _ := filepath.Abs(filepath.Join(bin, "python"))
	cmd := exec.Command(py, script, list)
	cmd.Dir = "../.." // the recipes' paths are the repository's
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logLines{t: t}, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspect_cli.py: %v\n%s", err, stderr.String())
	}

	runs := t.TempDir()
	bounded := map[string]int{} // rows with bounded forms, by run
	for _, s := range shapes {
		out := filepath.Join(dir, s.name)
		logs, _ := filepath.Glob(filepath.Join(out, "*.eval"))
		if len(logs) != 1 {
			t.Fatalf("%s: %d logs in %s", s.name, len(logs), out)
		}
		args := slices.Clone(s.impor)
		args[slices.Index(args, "LOG")] = logs[0]
		var msg bytes.Buffer
		err := run(append(args, "-runs", runs), &msg, &msg)
		if s.refused != "" {
			if err == nil || !strings.Contains(err.Error(), s.refused) {
				t.Errorf("%s: import error %v, want it to contain %q", s.name, err, s.refused)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: import: %v\n%s", s.name, err, msg.String())
		}
		t.Logf("%s: %s", s.name, strings.TrimSpace(msg.String()))
		if rows, err := rundir.ReadRows(filepath.Join(runs, s.name, "scored.jsonl.gz")); err == nil {
			for _, r := range rows {
				if len(r.Bounded) > 0 {
					bounded[s.name]++
				}
			}
		}
		if version == "0.3.122" {
			// That version writes no output.completion: the answers
			// come from the first choice's message.
			zr, err := zip.OpenReader(logs[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range zr.File {
				if strings.HasPrefix(f.Name, "samples/") && bytes.Contains(memberOf(t, logs[0], f.Name), []byte(`"completion"`)) {
					t.Errorf("%s: inspect_ai %s wrote output.completion in %s", s.name, version, f.Name)
				}
			}
			zr.Close()
		}
		checkShape(t, runs, s, readCalls(t, out, s.model), cells, version)
	}
	if t.Failed() {
		return
	}
	files, data, _ := buildAll(t, runs)
	pages := map[string][]byte{}
	for _, f := range files {
		pages[f.Path] = f.Data
	}
	for _, s := range shapes {
		if _, ok := data[s.name]; !ok && s.refused == "" {
			t.Errorf("%s: not in the built site", s.name)
		}
		// The run page counts the bounded rows.
		if n := bounded[s.name]; n > 0 && !regexp.MustCompile(fmt.Sprintf(`<dt>Bounded forms(</dt>)?<dd>%d prompts had`, n)).Match(pages["runs/"+s.name+"/index.html"]) {
			t.Errorf("%s: the run page does not count its %d bounded rows", s.name, n)
		}
	}
	// The OpenAI run's card: the female − male difference is the mean of
	// the mock's logits by gender.
	for _, s := range shapes {
		if s.model != "discrim-mock/openai/gpt-4.1" || !slices.Contains(s.args, "--logprobs") {
			continue
		}
		if !data[s.name].Scored {
			t.Errorf("%s not scored: %s", s.name, data[s.name].Unranked)
		}
		var sum [2][2]float64 // female, male: sum, count
		for _, c := range readCalls(t, filepath.Join(dir, s.name), s.model) {
			cell := cells[strings.TrimSuffix(c.User, question)]
			if g := cell.Gender; g != design.NonBinary {
				k := map[design.Gender]int{design.Female: 0, design.Male: 1}[g]
				sum[k][0] += mockLogit(c)
				sum[k][1]++
			}
		}
		var card struct {
			Card map[string]float64 `json:"card"`
		}
		for _, f := range files {
			if f.Path == "data/runs/"+s.name+".json" {
				json.Unmarshal(f.Data, &card)
			}
		}
		want := sum[0][0]/sum[0][1] - sum[1][0]/sum[1][1]
		if math.Abs(card.Card["female"]-want) > 1e-8 { // the data file rounds to 10 decimals
			t.Errorf("%s: card female %v, the mock's logits give %v", s.name, card.Card["female"], want)
		}
	}
}

// readCalls reads the mock's record of one model's calls.
func readCalls(t *testing.T, dir, model string) []call {
	t.Helper()
	name := strings.NewReplacer("/", "_").Replace(strings.TrimPrefix(model, "discrim-mock/")) + ".jsonl"
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []call
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c call
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, c)
	}
	return calls
}

// mockLogit is the logit of what the mock listed: its answer forms, a
// form listed at zero as zero, one not listed at the least listed
// probability (the README's bound).
func mockLogit(c call) float64 {
	p := func(forms ...string) float64 {
		s := 0.0
		for _, f := range forms {
			switch v, ok := c.Forms[f]; {
			case !ok:
				s += math.Exp(c.Least)
			case v != nil:
				s += math.Exp(*v)
			}
		}
		return s
	}
	return math.Log(p("yes", "Yes")) - math.Log(p("no", "No"))
}

// checkShape holds one imported run against the mock's record: a
// log-probability run form by form, a decision run answer by answer, the
// samples left out one by one.
func checkShape(t *testing.T, runs string, s shape, calls []call, cells map[string]design.Prompt, version string) {
	t.Helper()
	r := load(t, runs, s.name)
	rows, err := rundir.ReadRows(filepath.Join(runs, s.name, r.Manifest.Scored.Path))
	if err != nil {
		t.Fatal(err)
	}
	if r.Manifest.Harness.Version != version || r.Manifest.Model.ID != s.model {
		t.Errorf("%s: harness %+v, model %+v", s.name, r.Manifest.Harness, r.Manifest.Model)
	}
	if old := strings.Contains(r.Manifest.Notes, "answers read from the first choice's message"); old != (version == "0.3.122") {
		t.Errorf("%s: inspect_ai %s, notes:\n%s", s.name, version, r.Manifest.Notes)
	}
	// What the mock answered, by prompt: its successful calls in order,
	// and the prompts whose only call failed.
	answered := map[string][]call{}
	failed := map[string]string{}
	for _, c := range calls {
		key := strings.TrimSuffix(c.User, question)
		if c.Raised {
			failed[key] = *c.Error
			continue
		}
		delete(failed, key)
		answered[key] = append(answered[key], c)
	}
	if len(rows) != len(answered) {
		t.Errorf("%s: %d rows, the mock answered %d prompts", s.name, len(rows), len(answered))
	}
	logprob := r.Manifest.Scoring == rundir.Logprob
	if logprob != slices.Contains(s.args, "--logprobs") {
		t.Errorf("%s: a %s run", s.name, r.Manifest.Scoring)
	}
	bounded := 0
	for i, row := range rows {
		got, ok := answered[row.FilledTemplate]
		if !ok {
			t.Errorf("%s line %d: the mock never answered %.60q", s.name, i+1, row.FilledTemplate)
			continue
		}
		if logprob {
			c := got[0]
			for _, f := range rundir.DefaultChoices.Forms() {
				v, listed := c.Forms[f]
				want, isBound := c.Least, !listed
				switch {
				case listed && v == nil:
					want = math.Inf(-1)
				case listed:
					want = *v
				}
				if lp := row.Logprobs[f]; lp != want && math.Abs(lp-want) > 1e-12 || slices.Contains(row.Bounded, f) != isBound {
					t.Errorf("%s line %d: %s is %v (bounded %v), the mock listed %v (listed %v)", s.name, i+1, f, lp, row.Bounded, want, listed)
				}
			}
			if len(row.Bounded) > 0 {
				bounded++
			}
			if cl := r.Cells[i].Logit; math.Abs(cl-mockLogit(c)) > 1e-9 {
				t.Errorf("%s line %d: logit %v, the mock's %v", s.name, i+1, cl, mockLogit(c))
			}
			continue
		}
		var want []string
		for _, c := range got {
			want = append(want, c.Text)
		}
		dec := slices.Clone(row.Decisions)
		slices.Sort(dec)
		slices.Sort(want)
		if !slices.Equal(dec, want) {
			t.Errorf("%s line %d: answers %q, the mock returned %q", s.name, i+1, row.Decisions, want)
		}
	}
	switch {
	case strings.HasPrefix(s.model, "discrim-mock/openai-top"):
		if bounded == 0 || r.Manifest.Scored.Rows != 60 {
			t.Errorf("%s: %d bounded rows of %d", s.name, bounded, r.Manifest.Scored.Rows)
		}
	case s.name == "flaky-retried":
		want := 0
		for _, c := range calls {
			if c.Raised {
				want++
			}
		}
		if note := fmt.Sprintf("%d samples ended in an error and succeeded when retried", want); want == 0 || !strings.Contains(r.Manifest.Notes, note) {
			t.Errorf("%s: notes lack %q:\n%s", s.name, note, r.Manifest.Notes)
		}
	}
	// What was left out: exactly the prompts whose call failed, each with
	// its cell and the provider's error.
	var left []rundir.LeftOut
	if b, err := os.ReadFile(filepath.Join(runs, s.name, rundir.LeftOutFile)); err == nil {
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var lo rundir.LeftOut
			if err := json.Unmarshal(l, &lo); err != nil {
				t.Fatal(err)
			}
			left = append(left, lo)
		}
	}
	if len(left) != len(failed) || r.LeftOut != len(failed) {
		t.Errorf("%s: %d left out, the mock failed %d prompts", s.name, len(left), len(failed))
	}
	if s.name == "flaky-no-fail" && (len(failed) < 5 || !strings.Contains(r.Manifest.Incomplete, fmt.Sprintf("%d samples ended in an error and were left out", len(failed)))) {
		t.Errorf("%s: %d failed; incomplete %q", s.name, len(failed), r.Manifest.Incomplete)
	}
	for tmpl, msg := range failed {
		c := cells[tmpl]
		if !slices.ContainsFunc(left, func(l rundir.LeftOut) bool {
			return l.Reason == rundir.LeftError && l.DecisionQuestionID != nil && *l.DecisionQuestionID == c.Q && strings.EqualFold(l.Gender, c.Gender.String()) &&
				strings.EqualFold(l.Race, c.Race.String()) && strings.Contains(l.Detail, strings.TrimPrefix(msg, "Error code: "))
		}) {
			t.Errorf("%s: left_out.jsonl lacks question %d, %s (%s)", s.name, c.Q, c.Label(), msg)
		}
	}
}

// realRows writes the repository's real dataset rows to one file:
// questions 0 and 95 complete, 20 rows of question 1.
func realRows(t *testing.T) string {
	var all []byte
	for _, f := range []string{"q0", "q95", "q1-partial"} {
		b, err := os.ReadFile("../../testdata/explicit-excerpt-" + f + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	if err := os.WriteFile(path, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func load(t *testing.T, runs, id string) *rundir.Run {
	t.Helper()
	r, err := rundir.Load(os.DirFS(runs), "runs", id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
