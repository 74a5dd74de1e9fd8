package lmeval

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// The --limit 150 run written by testdata/make_fixtures.py: real rows,
// invented log-probabilities, a chat template, claimed numbers from
// statsmodels.
const (
	limStamp   = "2025-08-25T14-03-11.123456"
	limSamples = "testdata/limit150/samples_discrim_eval_explicit_" + limStamp + ".jsonl.gz"
	limResults = "testdata/limit150/results_" + limStamp + ".json"
)

func fixtureLines(t testing.TB) []string {
	t.Helper()
	src, err := importer.Open(limSamples)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var lines []string
	if err := src.Lines(func(_ int, b []byte) error { lines = append(lines, string(b)); return nil }); err != nil {
		t.Fatal(err)
	}
	return lines
}

// writeSamples writes lines as a plain samples file named as the harness
// names it, for the given task.
func writeSamples(t *testing.T, task string, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "samples_"+task+"_"+limStamp+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rehash recomputes a line's doc_hash after its doc was edited, as the
// harness would have for a doc that really said so.
func rehash(t *testing.T, line string) string {
	t.Helper()
	clean, rw := importer.Sanitize([]byte(line))
	v, err := importer.Parse(clean, rw)
	if err != nil {
		t.Fatal(err)
	}
	old := v.Get("doc_hash").Str
	return strings.Replace(line, old, importer.SHA256(string(importer.PyDumps(*v.Get("doc"), 2))), 1)
}

func TestImportLimitedRun(t *testing.T) {
	res, err := Import(limSamples, limResults)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	if m.Model.ID != "example-org/fixture-chat-8b" || m.Model.Name != "fixture-chat-8b" || m.Model.Provider != "example-org" || !m.Model.OpenWeights {
		t.Errorf("model %+v", m.Model)
	}
	if m.Model.Revision != "6063f927d90139f9011f1bef57fdc392dee376b3" {
		t.Errorf("revision %q: want model_sha", m.Model.Revision)
	}
	// date 1756130591.4213 is 2025-08-25 14:03 UTC; never the import's date.
	if m.RunDate != "2025-08-25" || m.Variant != run.Explicit || m.Scoring != run.Logprob {
		t.Errorf("run_date %s variant %s scoring %s", m.RunDate, m.Variant, m.Scoring)
	}
	if m.Harness != (run.Harness{Name: "lm-evaluation-harness", Version: "0.4.9.2", Commit: "8f3c2e1"}) {
		t.Errorf("harness %+v", m.Harness)
	}
	if !strings.Contains(m.Incomplete, "--limit 150") || !strings.Contains(m.Incomplete, "150 of 9450 documents") {
		t.Errorf("incomplete %q", m.Incomplete)
	}
	for _, want := range []string{"task hash: `4e35a376", "reproduced from the samples file", "version `1.0`",
		"### Chat template", "sha256 `815788849049db9a", "<|start_header_id|>", "no system instruction"} {
		if !strings.Contains(m.Notes, want) {
			t.Errorf("notes lack %q:\n%s", want, m.Notes)
		}
	}
	if !strings.HasPrefix(m.PromptTemplate, "{{filled_template}}\nPlease answer") || !strings.HasSuffix(m.PromptTemplate, `my answer would be "`) {
		t.Errorf("prompt_template %q", m.PromptTemplate)
	}
	// Claimed numbers are the results file's, without the ",none" filter.
	var raw struct {
		Results map[string]map[string]any `json:"results"`
	}
	b, _ := os.ReadFile(limResults)
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(m.Claimed) != 7 {
		t.Errorf("claimed %v", m.Claimed)
	}
	for k, v := range m.Claimed {
		if raw.Results["discrim_eval_explicit"][k+",none"] != v {
			t.Errorf("claimed %s = %v", k, v)
		}
	}

	// Rows keep the real text byte for byte and the exact prompt.
	q0, err := os.ReadFile("../../../testdata/explicit-excerpt-q0.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var first struct {
		FilledTemplate string `json:"filled_template"`
	}
	json.Unmarshal([]byte(strings.SplitN(string(q0), "\n", 2)[0]), &first)
	r0 := res.Rows[0]
	if len(res.Rows) != 150 || r0.FilledTemplate != first.FilledTemplate || *r0.Age != 20 || r0.Race != "white" {
		t.Fatalf("%d rows, first %+v", len(res.Rows), r0)
	}
	if !strings.HasPrefix(r0.Prompt, "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nThe patient is a 20-year-old") {
		t.Errorf("prompt %q", r0.Prompt[:80])
	}
	if r0.Logprobs["yes"] != -0.5282 || r0.Logprobs["Yes"] != -1.5136 || r0.Logprobs["no"] != -2.3301 || r0.Logprobs["No"] != -3.5305 {
		t.Errorf("logprobs %v", r0.Logprobs)
	}

	// The frozen run loads, and its logits are the harness's own.
	dir := t.TempDir()
	if err := run.WriteDir(filepath.Join(dir, "limited"), m, res.Rows, true, false); err != nil {
		t.Fatal(err)
	}
	loaded, err := run.Load(os.DirFS(dir), "runs", "limited")
	if err != nil {
		t.Fatal(err)
	}
	lines := fixtureLines(t)
	for i, c := range loaded.Cells {
		var l struct {
			BlackBias []any `json:"black_bias"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &l); err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(c.Logit - l.BlackBias[2].(float64)); d > 1e-9 {
			t.Fatalf("line %d: logit %v, harness %v", i+1, c.Logit, l.BlackBias[2])
		}
	}
	if loaded.Cells[149].Q != 1 || loaded.Cells[149].Cell != (design.Cell{Age: 20, Gender: design.NonBinary, Race: design.NativeAmerican}) {
		t.Errorf("last cell %+v", loaded.Cells[149])
	}
}

func TestMalformedSamples(t *testing.T) {
	const name = "samples_discrim_eval_explicit_" + limStamp + ".jsonl"
	cases := []struct {
		name string
		task string
		edit func(t *testing.T, lines []string) []string
		want string
	}{
		{"truncated line", "", func(t *testing.T, l []string) []string {
			l[149] = l[149][:len(l[149])/2]
			return l
		}, name + ":150: truncated JSON"},
		{"wrong task in the file name", "hellaswag", nil, `task "hellaswag" is not discrim_eval_explicit or discrim_eval_implicit`},
		{"task not in the results", "discrim_eval_implicit", nil, "results_" + limStamp + ".json: no results for task discrim_eval_implicit (it has: discrim_eval_explicit)"},
		{"missing choice", "", func(t *testing.T, l []string) []string {
			l[4] = editLine(t, l[4], func(v *importer.Value) {
				for _, k := range []string{"arguments", "resps", "filtered_resps"} {
					x := v.Get(k)
					x.Elems = x.Elems[:3]
					if x.Keys != nil {
						x.Keys = x.Keys[:3]
					}
				}
			})
			return l
		}, name + `:5: missing choice: no request for answer form "No"`},
		{"mixed variants", "", func(t *testing.T, l []string) []string {
			l[9] = rehash(t, strings.Replace(l[9], `"fill_type": "explicit"`, `"fill_type": "implicit"`, 1))
			return l
		}, name + `:10: doc fill_type "implicit" in a samples file of the explicit variant (mixed variants)`},
		{"doc_hash mismatch", "", func(t *testing.T, l []string) []string {
			l[2] = strings.Replace(l[2], "kidney disease", "kidney  disease", 1)
			return l
		}, name + ":3: doc_hash "},
		{"NaN log-likelihood", "", func(t *testing.T, l []string) []string {
			// str(float("nan")) is what the harness writes for a NaN response.
			l[6] = editLine(t, l[6], func(v *importer.Value) { v.Get("filtered_resps").Elems[0].Elems[0].Str = "nan" })
			return l
		}, name + `:7: log-likelihood of "yes" is NaN`},
		{"edited response", "", func(t *testing.T, l []string) []string {
			l[3] = editLine(t, l[3], func(v *importer.Value) { v.Get("filtered_resps").Elems[0].Elems[0].Str = "-0.01" })
			return l
		}, name + ":4: the responses give logit"},
		{"duplicate document", "", func(t *testing.T, l []string) []string { return append(l, l[0]) }, name + ":151: doc_id 0 is already on line 1"},
		{"empty line", "", func(t *testing.T, l []string) []string { return append(l[:3], append([]string{""}, l[3:]...)...) }, name + ":4: empty line"},
		{"not a samples file", "", func(t *testing.T, l []string) []string { l[0] = `{"hello": 1}`; return l }, name + ":1: no doc_id or doc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := fixtureLines(t)
			if tc.edit != nil {
				lines = tc.edit(t, lines)
			}
			task := tc.task
			if task == "" {
				task = "discrim_eval_explicit"
			}
			_, err := Import(writeSamples(t, task, lines), limResults)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// editLine edits a line as a tree and writes it back as Python would.
func editLine(t *testing.T, line string, edit func(v *importer.Value)) string {
	t.Helper()
	clean, rw := importer.Sanitize([]byte(line))
	v, err := importer.Parse(clean, rw)
	if err != nil {
		t.Fatal(err)
	}
	if string(importer.PyDumps(v, importer.Compact)) != line {
		t.Fatal("the line does not round-trip")
	}
	edit(&v)
	return string(importer.PyDumps(v, importer.Compact))
}

func TestNonFiniteHarnessLogitAccepted(t *testing.T) {
	// Where pnorm rounds to 1 the harness logs its logit as a bare
	// Infinity (and NaN where both probabilities underflow). Those are
	// Python's JSON, not errors; the log-likelihoods are what we keep.
	lines := fixtureLines(t)
	for i, tok := range []string{"Infinity", "NaN", "-Infinity"} {
		var l struct {
			BlackBias []any `json:"black_bias"`
		}
		json.Unmarshal([]byte(lines[i]), &l)
		lines[i] = strings.ReplaceAll(lines[i], importer.PyFloatRepr(l.BlackBias[2].(float64))+"]", tok+"]")
		if !strings.Contains(lines[i], `"age_bias", `+tok+`]`) {
			t.Fatalf("line %d: no %s written", i+1, tok)
		}
	}
	res, err := Import(writeSamples(t, "discrim_eval_explicit", lines), limResults)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 150 {
		t.Errorf("%d rows", len(res.Rows))
	}
}

func TestResultsErrors(t *testing.T) {
	b, err := os.ReadFile(limResults)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, from, to, want string }{
		{"truncated", "", "", ".json:"},
		{"chat template edited", `'<|eot_id|>'`, `'<|eot|>'`, "chat_template_sha is 815788849049db9a"},
		{"no date", `"date": 1756130591.4213,`, ``, "no date"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := string(b)
			if tc.from == "" {
				s = s[:len(s)/2]
			} else {
				s = strings.Replace(s, tc.from, tc.to, 1)
			}
			path := filepath.Join(t.TempDir(), "results_"+limStamp+".json")
			os.WriteFile(path, []byte(s), 0o644)
			_, err := Import(limSamples, path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
