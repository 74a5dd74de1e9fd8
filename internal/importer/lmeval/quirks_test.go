package lmeval

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// setLL gives a line new log-likelihoods for yes, Yes, no, No, and the
// harness's logit that goes with them, as the harness would have written.
func setLL(t *testing.T, line string, lls [4]float64) string {
	t.Helper()
	return editLine(t, line, func(v *importer.Value) {
		for i, ll := range lls {
			s := importer.PyFloatRepr(ll)
			v.Get("filtered_resps").Elems[i].Elems[0].Str = s
			v.Get("resps").Elems[i].Elems[0].Elems[0].Str = s
		}
		yes, no := math.Exp(lls[0])+math.Exp(lls[1]), math.Exp(lls[2])+math.Exp(lls[3])
		p := yes / (yes + no)
		logit := importer.Value{Kind: importer.Number, Num: importer.PyFloatRepr(math.Log(p) - math.Log1p(-p))}
		if math.IsInf(math.Log(p)-math.Log1p(-p), 0) || math.IsNaN(p) {
			logit = importer.Value{Kind: importer.NonFinite, Float: math.Log(p) - math.Log1p(-p)}
		}
		for _, m := range metricNames {
			v.Get(m).Elems[2] = logit
		}
	})
}

// writeResults writes a copy of the limit150 results file with edits.
func writeResults(t *testing.T, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(limResults)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if from != "" {
		if !strings.Contains(s, from) {
			t.Fatalf("results lack %q", from)
		}
		s = strings.Replace(s, from, to, 1)
	}
	path := filepath.Join(t.TempDir(), "results_"+limStamp+".json")
	os.WriteFile(path, []byte(s), 0o644)
	return path
}

// −Infinity log-likelihoods (probability zero) and bf16 rounding: the run
// imports, and what it wrote loads.
func TestLogLikelihoodQuirks(t *testing.T) {
	lines := fixtureLines(t)
	inf := math.Inf(-1)
	lines[1] = setLL(t, lines[1], [4]float64{-0.5, inf, -1.5, -2.5})                                              // Yes at zero
	lines[2] = setLL(t, lines[2], [4]float64{inf, inf, -0.01, -5})                                                // P(yes) zero: no logit
	lines[3] = setLL(t, lines[3], [4]float64{math.Log(0.70002), math.Log(0.1), math.Log(0.2), math.Log(0.00002)}) // sums to 1.00004
	res, err := Import(writeSamples(t, "discrim_eval_explicit", lines), limResults)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Manifest.Incomplete, "1 documents have P(yes) or P(no) exactly zero (no logit) and were left out (left_out.jsonl lists them: doc_id 2 (P(yes) is zero") {
		t.Errorf("incomplete %q", res.Manifest.Incomplete)
	}
	if !strings.Contains(res.Manifest.Notes, "1 answer forms have log-likelihood -Infinity") {
		t.Errorf("notes:\n%s", res.Manifest.Notes)
	}
	if len(res.Rows) != 149 || !math.IsInf(res.Rows[1].Logprobs["Yes"], -1) {
		t.Fatalf("%d rows, row 2 %v", len(res.Rows), res.Rows[1].Logprobs)
	}
	dir := t.TempDir()
	if err := run.WriteDir(filepath.Join(dir, "r"), res.Manifest, res.Rows, true, false); err != nil {
		t.Fatal(err)
	}
	r, err := run.Load(os.DirFS(dir), "runs", "r")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cells[2].Normalized || r.Cells[2].Mass != 1 {
		t.Errorf("cell %+v", r.Cells[2])
	}
}

// The harness hashes samples in the order it writes them (gathered from
// every process); a file reordered afterwards is explained, and a hash
// that matches no order is not called a difference in samples.
func TestTaskHashOrder(t *testing.T) {
	lines := fixtureLines(t)
	// Two processes: rank 0 wrote the even documents, rank 1 the odd ones.
	var gathered []string
	for rank := 0; rank < 2; rank++ {
		for i := rank; i < len(lines); i += 2 {
			gathered = append(gathered, lines[i])
		}
	}
	var concat strings.Builder
	for _, l := range gathered {
		clean, rw := importer.Sanitize([]byte(l))
		v, _ := importer.Parse(clean, rw)
		concat.WriteString(v.Get("doc_hash").Str + v.Get("prompt_hash").Str + v.Get("target_hash").Str)
	}
	const orig = "4e35a376a9d3e99d4fb0bec6fa89e64ad94d83aa9b8963f64e96441a8e784627"
	samples := writeSamples(t, "discrim_eval_explicit", gathered)
	inOrder, err := Import(limSamples, limResults)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ hash, want string }{
		{importer.SHA256(concat.String()), ", reproduced from the samples file\n"},
		{orig, "reproduced from the samples file in doc_id order (the lines were reordered after the run)"},
		{strings.Repeat("0", 64), "not reproduced from the samples file. Every line's own doc_hash, prompt_hash and target_hash were checked"},
	} {
		res, err := Import(samples, writeResults(t, orig, tc.hash))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Manifest.Notes, tc.want) || strings.Contains(res.Manifest.Notes, "samples differ") {
			t.Errorf("hash %s: notes\n%s", tc.hash, res.Manifest.Notes)
		}
		for i := range res.Rows {
			if res.Rows[i].Prompt != inOrder.Rows[i].Prompt {
				t.Fatalf("row %d is not in doc_id order", i+1)
			}
		}
	}
}

// Claims from a partial run are kept but marked as not comparable.
func TestClaimsOnPartialRunNotComparable(t *testing.T) {
	res, err := Import(limSamples, limResults)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	if len(m.Claimed) != 7 || !strings.Contains(m.ClaimedNotComparable, "unbalanced run (run with --limit 150; 150 of 9450 documents") {
		t.Errorf("claimed %v, not comparable %q", m.Claimed, m.ClaimedNotComparable)
	}
}

// lm-eval 0.4.10 writes config.model_args as a JSON object.
func TestModelArgsObject(t *testing.T) {
	results := writeResults(t, `"model_args": "pretrained=example-org/fixture-chat-8b,dtype=bfloat16"`,
		"\"model_args\": {\n      \"pretrained\": \"example-org/fixture-chat-8b\",\n      \"dtype\": \"bfloat16\"\n    }")
	res, err := Import(limSamples, results)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Manifest.Notes, "with `{\"pretrained\":\"example-org/fixture-chat-8b\",\"dtype\":\"bfloat16\"}`") {
		t.Errorf("notes:\n%s", res.Manifest.Notes)
	}
}

func TestBadNumbersAndText(t *testing.T) {
	const name = "samples_discrim_eval_explicit_" + limStamp + ".jsonl"
	for _, tc := range []struct {
		name string
		edit func(l []string)
		want string
	}{
		{"question id 1e40", func(l []string) {
			l[5] = rehash(t, strings.Replace(l[5], `"decision_question_id": 0`, `"decision_question_id": 1e40`, 1))
		}, name + ":6: doc: decision_question_id 1e40 is not a whole number from 0 to 1000000"},
		{"negative question id", func(l []string) {
			l[5] = rehash(t, strings.Replace(l[5], `"decision_question_id": 0`, `"decision_question_id": -3`, 1))
		}, name + ":6: doc: decision_question_id -3 is not a whole number"},
		{"age 1e400", func(l []string) {
			l[7] = rehash(t, strings.Replace(l[7], `"age": 20.0`, `"age": 1e400`, 1))
		}, name + ":8: "},
		{"doc twice", func(l []string) {
			// encoding/json would read the second doc; the hash covers the first.
			l[9] = strings.Replace(l[9], `"doc": {`, `"doc": {"decision_question_id": 5}, "doc": {`, 1)
		}, name + `:10: key "doc" and "doc": a key twice`},
		{"invalid UTF-8", func(l []string) { l[8] = strings.Replace(l[8], "kidney", "kid\xffney", 1) }, name + ":9: invalid UTF-8 at byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := fixtureLines(t)
			tc.edit(lines)
			_, err := Import(writeSamples(t, "discrim_eval_explicit", lines), limResults)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	touch := func(names ...string) {
		for _, n := range names {
			os.WriteFile(filepath.Join(dir, n), nil, 0o644)
		}
	}
	touch("results_2025-08-25T14-03-11.123456.json", "samples_discrim_eval_explicit_2025-08-25T14-03-11.123456.jsonl",
		"results_2025-09-01T10-00-00.000001.json", "samples_hellaswag_2025-09-01T10-00-00.000001.jsonl",
		"samples_discrim_eval_explicit_2025-07-01T10-00-00.000001.jsonl")
	s, r, err := Find(dir, "")
	if err != nil || filepath.Base(s) != "samples_discrim_eval_explicit_2025-08-25T14-03-11.123456.jsonl" || filepath.Base(r) != "results_2025-08-25T14-03-11.123456.json" {
		t.Errorf("%s %s %v", s, r, err)
	}
	touch("results_2025-10-01T10-00-00.000001.json", "samples_discrim_eval_explicit_2025-10-01T10-00-00.000001.jsonl.gz",
		"samples_discrim_eval_implicit_2025-10-01T10-00-00.000001.jsonl")
	if _, _, err := Find(dir, ""); err == nil || !strings.Contains(err.Error(), "say which with --task") {
		t.Errorf("both tasks: %v", err)
	}
	if s, _, err := Find(dir, "discrim_eval_implicit"); err != nil || filepath.Base(s) != "samples_discrim_eval_implicit_2025-10-01T10-00-00.000001.jsonl" {
		t.Errorf("%s %v", s, err)
	}
	if _, _, err := Find(t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "no results_<date>.json") {
		t.Errorf("empty: %v", err)
	}
}

// The layouts lm-eval 0.4.13's EvaluationTracker writes: --output_path OUT
// (OUT/ORG__MODEL/results_<date>.json) and --output_path OUT/NAME.json
// (OUT/NAME_<date>.json beside the samples file).
func TestFindLayouts(t *testing.T) {
	const stamp = "2025-08-25T14-03-11.123456"
	samples := "samples_discrim_eval_explicit_" + stamp + ".jsonl"
	touch := func(dir string, names ...string) {
		os.MkdirAll(dir, 0o755)
		for _, n := range names {
			os.WriteFile(filepath.Join(dir, n), nil, 0o644)
		}
	}
	out := t.TempDir()
	touch(filepath.Join(out, "org__model"), "results_"+stamp+".json", samples)
	touch(filepath.Join(out, "other"), "notes.txt")
	named := t.TempDir()
	touch(named, "mine_"+stamp+".json", samples)
	for _, tc := range []struct{ from, samples, results string }{
		{out, filepath.Join(out, "org__model", samples), filepath.Join(out, "org__model", "results_"+stamp+".json")},
		{filepath.Join(out, "org__model"), filepath.Join(out, "org__model", samples), filepath.Join(out, "org__model", "results_"+stamp+".json")},
		{filepath.Join(named, "mine.json"), filepath.Join(named, samples), filepath.Join(named, "mine_"+stamp+".json")},
		{filepath.Join(named, "mine_"+stamp+".json"), filepath.Join(named, samples), filepath.Join(named, "mine_"+stamp+".json")},
	} {
		s, r, err := Find(tc.from, "")
		if err != nil || s != tc.samples || r != tc.results {
			t.Errorf("Find(%s): %s %s %v", tc.from, s, r, err)
		}
	}
	touch(filepath.Join(out, "org__model2"), "results_"+stamp+".json", samples)
	if _, _, err := Find(out, ""); err == nil || !strings.Contains(err.Error(), "runs of 2 models (org__model, org__model2): give the model's folder") {
		t.Errorf("two models: %v", err)
	}
	if _, _, err := Find(filepath.Join(named, "theirs.json"), ""); err == nil || !strings.Contains(err.Error(), "no theirs_<date>.json with a samples_<task>_<date>.jsonl") {
		t.Errorf("no such run: %v", err)
	}
}

// A model without pretrained= gets a name lm-eval made up (eight random
// letters and digits); a model loaded from a folder is named by its path.
// Neither is a model's name: the import asks for it (--model), and no
// local path reaches the manifest.
func TestModelNames(t *testing.T) {
	results := func(args, name string) string {
		p := writeResults(t, `"model_args": "pretrained=example-org/fixture-chat-8b,dtype=bfloat16"`, `"model_args": `+strconv.Quote(args))
		b, _ := os.ReadFile(p)
		os.WriteFile(p, bytes.Replace(b, []byte(`"model_name": "example-org/fixture-chat-8b"`), []byte(`"model_name": `+strconv.Quote(name)), 1), 0o644)
		return p
	}
	for _, tc := range []struct{ args, name, want string }{
		{"dtype=bfloat16,base_url=http://localhost:8000/v1", "qdpv68r5", `model_name "qdpv68r5" is a name lm-eval made up (its model_args ` + "`dtype=bfloat16,base_url=http://localhost:8000/v1`" + ` have none of peft=, delta=, pretrained=, model=, path=, engine=, so it picked eight random letters and digits): give the model's name with --model ORG/NAME`},
		{"pretrained=/home/me/models/llama-3-8b,dtype=bfloat16", "/home/me/models/llama-3-8b", `model_name "…/llama-3-8b" is a local path`},
	} {
		_, err := Import(limSamples, results(tc.args, tc.name))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "/home/me") {
			t.Errorf("%s: error %v\nwant it to contain %q", tc.name, err, tc.want)
		}
		res, err := ImportWith(limSamples, results(tc.args, tc.name), Options{Model: "example-org/llama-3-8b"})
		if err != nil {
			t.Fatal(err)
		}
		m := res.Manifest
		if m.Model.ID != "example-org/llama-3-8b" || m.Model.Name != "llama-3-8b" || !strings.Contains(m.Notes, "given to the import (--model)") || strings.Contains(m.Notes, "/home/me") {
			t.Errorf("model %+v, notes:\n%s", m.Model, m.Notes)
		}
	}
	// A real name of eight letters and digits, taken from model_args, is a name.
	if res, err := Import(limSamples, results("pretrained=gpt2xl12", "gpt2xl12")); err != nil || res.Manifest.Model.ID != "gpt2xl12" {
		t.Errorf("gpt2xl12: %v", err)
	}
}
