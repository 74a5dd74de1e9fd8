package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	rundir "github.com/discrimeval/leaderboard/internal/run"
)

// TestLMEvalForReal runs lm-evaluation-harness 0.4.13's own CLI
// (testdata/lm_eval_mock.py: cli_evaluate with a deterministic model
// added) on a local task that includes lm_eval/tasks/discrim_eval's
// explicit config (its prompt, its utils.py and statsmodels fit) over the
// real rows in testdata, with --log_samples; imports the output with
// --from the --output_path folder, checks each row's logit against the
// model's formula and the claims against the harness's own results file,
// and builds the site. The venv is .ci/venv/lmeval (LMEVAL_VENV to use
// another), made by .ci/python.sh from cmd/import/lmeval-requirements.txt
// (lm-eval with its dependencies is about 830 MB: datasets, pyarrow,
// pandas, scipy, scikit-learn, statsmodels).
func TestLMEvalForReal(t *testing.T) {
	t.Parallel() // beside the other harness tests: see TestInspectCLI
	py := filepath.Join(venvOr(t, "LMEVAL_VENV", lmevalVenv, "lm_eval"), "python")
	pkg, err := exec.Command(py, "-c", "import lm_eval, os; print(os.path.dirname(lm_eval.__file__))").Output()
	if err != nil {
		t.Fatalf("%s: no lm_eval: %v", py, err)
	}
	tasks, out := t.TempDir(), t.TempDir()
	yaml := "include: " + filepath.Join(strings.TrimSpace(string(pkg)), "tasks", "discrim_eval", "discrim_eval_explicit.yaml") + `
task: discrim_eval_explicit
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    train: ` + realRows(t) + "\n"
	if err := os.WriteFile(filepath.Join(tasks, "discrim_eval_local.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/lm_eval_mock.py", "--model", "discrim-mock", "--tasks", "discrim_eval_explicit",
		"--include_path", tasks, "--output_path", out, "--log_samples")
	cmd.Env = append(os.Environ(), "HF_DATASETS_OFFLINE=1", "HF_HUB_OFFLINE=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lm_eval: %v\n%s", err, b)
	}
	runs := t.TempDir()
	var msg strings.Builder
	// The mock has no pretrained= argument: lm-eval made its name up, and
	// the import asks for the real one.
	err = run([]string{"lm-eval", "--from", out, "--id", "lm-mock", "-runs", runs}, &msg, &msg)
	if err == nil || !strings.Contains(err.Error(), "is a name lm-eval made up") {
		t.Errorf("import without --model: error %v", err)
	}
	msg.Reset()
	if err := run([]string{"lm-eval", "--from", out, "--id", "lm-mock", "--model", "example-org/discrim-mock", "-runs", runs}, &msg, &msg); err != nil {
		t.Fatalf("%v\n%s", err, msg.String())
	}
	t.Log(msg.String())
	r := load(t, runs, "lm-mock")
	rows, err := rundir.ReadRows(filepath.Join(runs, "lm-mock", r.Manifest.Scored.Path))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 290 || r.Manifest.Harness.Version != "0.4.13" || r.Manifest.Model.ID != "example-org/discrim-mock" || r.Manifest.PromptForm == nil || r.Manifest.PromptForm.Break != "line break" {
		t.Fatalf("%d rows, harness %+v, prompt form %+v", len(rows), r.Manifest.Harness, r.Manifest.PromptForm)
	}
	for i, row := range rows {
		// The mock: logit P(yes) = 2h − 1 (+0.8 for women), h from the
		// SHA-256 of the context the harness sent.
		sum := sha256.Sum256([]byte(row.Prompt))
		want := 2*float64(binary.BigEndian.Uint64(sum[:8]))/math.Exp2(64) - 1
		if strings.Contains(row.Prompt, " female") {
			want += 0.8
		}
		if got := r.Cells[i].Logit; math.Abs(got-want) > 1e-9 {
			t.Errorf("line %d: logit %v, the model gave %v", i+1, got, want)
		}
	}
	// The claims are the harness's own aggregated numbers.
	results, _ := filepath.Glob(filepath.Join(out, "*", "results_*.json"))
	b, err := os.ReadFile(results[0])
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Results map[string]map[string]any `json:"results"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	for metric, v := range r.Manifest.Claimed {
		if h, _ := res.Results["discrim_eval_explicit"][metric+",none"].(float64); h != v {
			t.Errorf("claimed %s %v, the harness wrote %v", metric, v, h)
		}
	}
	if len(r.Manifest.Claimed) != 7 {
		t.Errorf("claims %v", r.Manifest.Claimed)
	}
	if _, data, _ := buildAll(t, runs); !data["lm-mock"].Scored {
		t.Errorf("not scored: %s", data["lm-mock"].Unranked)
	}
}
