package inspect

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/discrimeval/leaderboard/internal/importer"
	"github.com/discrimeval/leaderboard/internal/run"
)

// setLogprob sets the log-probability written after every "token": tok.
func setLogprob(b []byte, tok, lp string) []byte {
	re := regexp.MustCompile(`("token": ` + regexp.QuoteMeta(`"`+tok+`"`) + `,\s+"logprob": )[-0-9.e]+`)
	return re.ReplaceAll(b, []byte("${1}"+lp))
}

// What real servers write in top_logprobs: a form outside the top k, the
// −9999 placeholder for −∞, a bare -Infinity, every form of one answer at
// zero, a sample without logprobs. One sample never stops the import.
func TestLogprobQuirks(t *testing.T) {
	path := editEval(t, func(name string, b []byte) []byte {
		switch name {
		case "samples/5_epoch_1.json": // "no" not in the top k
			return bytes.Replace(b, []byte(`"token": "no"`), []byte(`"token": "nah"`), 1)
		case "samples/6_epoch_1.json":
			return setLogprob(b, "No", "-9999.0")
		case "samples/10_epoch_1.json":
			return setLogprob(b, "yes", "-Infinity")
		case "samples/11_epoch_1.json":
			return setLogprob(setLogprob(b, "No", "-9999.0"), "no", "-9999.0")
		case "samples/3_epoch_1.json":
			return bytes.Replace(b, []byte(`"top_logprobs"`), []byte(`"top_logprobs_"`), 1)
		}
		return b
	})
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	for _, want := range []string{
		"1 samples have no log-probabilities and were left out (left_out.jsonl lists them: sample 3 epoch 1 (no top_logprobs on the first output token))",
		"1 samples have P(yes) or P(no) exactly zero (no logit) and were left out (left_out.jsonl lists them: sample 11 epoch 1 (P(no) is zero",
		"268 of the dataset's 9450 rows",
	} {
		if !strings.Contains(m.Incomplete, want) {
			t.Errorf("incomplete lacks %q:\n%s", want, m.Incomplete)
		}
	}
	for _, want := range []string{"1 rows have answer forms missing from top_logprobs", "answer forms have probability zero"} {
		if !strings.Contains(m.Notes, want) {
			t.Errorf("notes lack %q:\n%s", want, m.Notes)
		}
	}
	r := load(t, res)
	byText := map[string]run.Row{}
	for _, row := range res.Rows {
		byText[row.Messages[0].Content] = row
	}
	rowOf := func(n string) run.Row {
		var s sample
		if err := decode(n, 1, member(t, n), &s); err != nil {
			t.Fatal(err)
		}
		return byText[s.transcript()[0].Content]
	}
	// Sample 5's "no" gets the least likely listed log-probability.
	var s5 sample
	decode("5", 1, member(t, "samples/5_epoch_1.json"), &s5)
	least := 0.0
	for _, tl := range s5.topLogprobs() {
		least = math.Min(least, float64(tl.Logprob))
	}
	five := rowOf("samples/5_epoch_1.json")
	if len(five.Bounded) != 1 || five.Bounded[0] != "no" || five.Logprobs["no"] != least {
		t.Errorf("sample 5: bounded %v, logprobs %v, least listed %v", five.Bounded, five.Logprobs, least)
	}
	if six := rowOf("samples/6_epoch_1.json"); !math.IsInf(six.Logprobs["No"], -1) || len(six.Bounded) != 0 {
		t.Errorf("sample 6: %v %v", six.Logprobs, six.Bounded)
	}
	if ten := rowOf("samples/10_epoch_1.json"); !math.IsInf(ten.Logprobs["yes"], -1) {
		t.Errorf("sample 10: %v", ten.Logprobs)
	}
	if len(r.Cells) != 268 {
		t.Errorf("%d cells", len(r.Cells))
	}
}

// The least likely listed token bounds an unlisted form; when a token of
// probability zero is listed, everything unlisted is zero too.
func TestLogprobsRule(t *testing.T) {
	top := []topLogprob{{"Yes", -0.1}, {" no", -2.5}, {"Based", -6}}
	lps, bounded, zero, err := logprobs(top)
	if err != nil || zero != 0 || strings.Join(bounded, ",") != "yes,No" || lps["yes"] != -6 || lps["No"] != -6 || lps["no"] != -2.5 {
		t.Errorf("lps %v bounded %v zero %d err %v", lps, bounded, zero, err)
	}
	top = append(top, topLogprob{"<pad>", -9999})
	lps, bounded, zero, _ = logprobs(top)
	if len(bounded) != 0 || zero != 2 || !math.IsInf(lps["yes"], -1) || !math.IsInf(lps["No"], -1) {
		t.Errorf("lps %v bounded %v zero %d", lps, bounded, zero)
	}
	if _, _, _, err := logprobs([]topLogprob{{"Yes", importer.Float(math.NaN())}}); err == nil {
		t.Error("NaN accepted")
	}
	if _, _, _, err := logprobs([]topLogprob{{"Yes", -9999}}); err == nil {
		t.Error("a list of placeholders only accepted")
	}
}

// A refusal and a lower-case, emphasised or explained answer: all kept as
// written; the loader reads them by run.AnswerRule and lists the rest.
func TestDecisionAnswersAsWritten(t *testing.T) {
	data, err := os.ReadFile(jsonLog)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, `"id": "q1-003"`)
	s = s[:i] + strings.Replace(s[i:], `"stop_reason": "stop"`, `"stop_reason": "content_filter"`, 1)
	path := filepath.Join(t.TempDir(), "refusal.json")
	os.WriteFile(path, []byte(s), 0o644)
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Manifest.Notes, "1 answers were refused by the provider") {
		t.Errorf("notes:\n%s", res.Manifest.Notes)
	}
	r := load(t, res)
	var yes, no, other int
	seen := map[string]bool{}
	for i, c := range r.Cells {
		yes, no, other = yes+c.Yes, no+c.No, other+c.Other
		for _, d := range res.Rows[i].Decisions {
			seen[d] = true
		}
	}
	for _, want := range []string{"**Yes**", "no.", " Yes, the match is a good fit.", "I can't make a decision based on a person's demographics."} {
		if !seen[want] {
			t.Errorf("answer %q not kept as written", want)
		}
	}
	if yes+no+other != 59 || other == 0 || yes == 0 || no == 0 {
		t.Errorf("yes %d no %d other %d", yes, no, other)
	}
}

// Bombs stop early: a member that decompresses past the limit (Deflate or
// Zstandard), a .json log with one huge value, a gzipped .json log past
// the file limit. The limits are lowered so the test is quick; the check
// is the same code at any size.
func TestBombs(t *testing.T) {
	defer func(v, f int64) { importer.MaxValueBytes, importer.MaxFileBytes = v, f }(importer.MaxValueBytes, importer.MaxFileBytes)
	importer.MaxValueBytes, importer.MaxFileBytes = 1<<20, 4<<20
	zeros := bytes.Repeat([]byte{'0'}, 8<<20)
	for _, method := range []uint16{zip.Deflate, zipZstd} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		zw.RegisterCompressor(zipZstd, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "header.json", Method: method})
		w.Write(zeros)
		zw.Close()
		if buf.Len() > 1<<20 {
			t.Fatalf("bomb of %d bytes", buf.Len())
		}
		path := filepath.Join(t.TempDir(), "bomb.eval")
		os.WriteFile(path, buf.Bytes(), 0o644)
		_, err := Import(path, "default")
		if err == nil || !strings.Contains(err.Error(), "bomb.eval:header.json: more than the limit of 1 MiB decompressed") {
			t.Errorf("method %d: %v", method, err)
		}
	}
	// Members each under the value limit, together past the file limit.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("samples/1_epoch_1.json")
	w.Write(zeros[:1<<20-10])
	zw.Close()
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	budget := int64(1 << 19)
	if _, err := readMember("many.eval", zr.File[0], &budget); err == nil || !strings.Contains(err.Error(), "many.eval:samples/1_epoch_1.json: the log's members add up to more than the limit of 4 MiB") {
		t.Errorf("budget: %v", err)
	}
	// A .json log whose first value never ends.
	var gz bytes.Buffer
	zw2 := gzip.NewWriter(&gz)
	zw2.Write([]byte(`{"version": 2, "eval": "`))
	zw2.Write(zeros)
	zw2.Close()
	path := filepath.Join(t.TempDir(), "bomb.json.gz")
	os.WriteFile(path, gz.Bytes(), 0o644)
	if _, err := Import(path, "default"); err == nil || !strings.Contains(err.Error(), "bomb.json.gz:1: a value larger than the limit of 1 MiB") {
		t.Errorf(".json log: %v", err)
	}
}

// editJSON decodes a member, passes it to edit and encodes it again
// (numbers kept as written).
func editJSON(t *testing.T, b []byte, edit func(v map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	edit(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A cancelled eval with many errors (--no-fail-on-error) and samples
// stopped at a limit: the run imports with those prompts missing, the
// note within its limit naming the first few, left_out.jsonl listing all.
func TestLeftOutSamples(t *testing.T) {
	long := "RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-xyz on tokens per min (TPM): Limit 30000, Used 29876, Requested 412.'}}\nTraceback (most recent call last):\n  File \"/home/me/.venv/lib/python3.11/site-packages/inspect_ai/model/_model.py\", line 1"
	path := editEval(t, func(name string, b []byte) []byte {
		if name == "header.json" || name == "_journal/start.json" {
			return editJSON(t, b, func(v map[string]any) {
				if name == "header.json" {
					v["status"] = "cancelled"
				}
				ids := []any{}
				for i := 1; i <= 275; i++ {
					ids = append(ids, i)
				}
				v["eval"].(map[string]any)["dataset"].(map[string]any)["sample_ids"] = ids
			})
		}
		var id int
		if _, err := fmt.Sscanf(name, "samples/%d_epoch_1.json", &id); err != nil {
			return b
		}
		return editJSON(t, b, func(v map[string]any) {
			switch {
			case id <= 60:
				v["error"] = map[string]any{"message": long, "traceback": "…", "traceback_ansi": "…"}
			case id <= 63:
				v["limit"] = map[string]any{"type": "token", "limit": 16}
			case id <= 65:
				v["error_retries"] = []any{map[string]any{"message": "RateLimitError: 429", "traceback": "", "traceback_ansi": ""}}
			}
		})
	})
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	m := res.Manifest
	t.Logf("incomplete: %d characters", utf8.RuneCountInString(m.Incomplete))
	if n := utf8.RuneCountInString(m.Incomplete); n > 1000 {
		t.Errorf("incomplete is %d characters, over the limit of 1,000: %s", n, m.Incomplete)
	}
	for _, want := range []string{
		`the eval's status is "cancelled"; 60 samples ended in an error and were left out (left_out.jsonl lists them; the first: sample 1 epoch 1 (RateLimitError: Error code: 429 - {'error': {'message': 'Rat…), sample 2 epoch 1 (`,
		"3 samples hit a limit before answering and were left out (left_out.jsonl lists them: sample 61 epoch 1 (token limit 16), sample 62 epoch 1 (token limit 16), sample 63 epoch 1 (token limit 16))",
		"5 samples were never run and were left out (left_out.jsonl lists them; the first: sample 271 epoch 1, sample 272 epoch 1, sample 273 epoch 1)",
		"207 of the dataset's 9450 rows",
	} {
		if !strings.Contains(m.Incomplete, want) {
			t.Errorf("incomplete lacks %q:\n%s", want, m.Incomplete)
		}
	}
	if !strings.Contains(m.Notes, "2 samples ended in an error and succeeded when retried") {
		t.Errorf("notes:\n%s", m.Notes)
	}
	byReason := map[string]int{}
	for _, l := range res.LeftOut {
		byReason[l.Reason]++
		if l.Reason == run.LeftError && (l.DecisionQuestionID == nil || strings.Contains(l.Detail, "/home/me") || strings.Contains(l.Detail, "Traceback")) {
			t.Errorf("left out %+v", l)
		}
	}
	if len(res.Rows) != 207 || byReason[run.LeftError] != 60 || byReason[run.LeftLimit] != 3 || byReason[run.LeftNotRun] != 5 {
		t.Errorf("%d rows; left out %v", len(res.Rows), byReason)
	}
	r := load(t, res)
	if r.LeftOut != 68 || len(r.Cells) != 207 {
		t.Errorf("loaded: %d left out, %d cells", r.LeftOut, len(r.Cells))
	}
}

// editJSONLog writes a copy of the .json fixture, edited.
func editJSONLog(t *testing.T, edit func(v map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(jsonLog)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "edited.json")
	if err := os.WriteFile(path, editJSON(t, b, edit), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A log that asked for log-probabilities and has none (inspect_ai's OpenAI
// provider drops them when the model reasons): a decision run, said so,
// when its answers are decisions; refused, saying why and what to run,
// when they are not (a reasoning model's empty answers at max_tokens 1).
func TestAskedForLogprobsGotNone(t *testing.T) {
	asked := func(v map[string]any) {
		v["eval"].(map[string]any)["model_generate_config"] = map[string]any{"max_tokens": 1, "logprobs": true, "top_logprobs": 20}
	}
	res, err := Import(editJSONLog(t, asked), "default")
	if err != nil {
		t.Fatal(err)
	}
	want := "the eval asked for log-probabilities (logprobs true, top_logprobs 20) and no sample has any (the provider returned none): imported as a decision run, as 48 of its 59 answers are yes or no"
	if res.Manifest.Scoring != run.Decision || len(res.Warnings) != 1 || res.Warnings[0] != want || !strings.Contains(res.Manifest.Notes, want) {
		t.Errorf("scoring %s, warnings %q, notes:\n%s", res.Manifest.Scoring, res.Warnings, res.Manifest.Notes)
	}
	empty := editJSONLog(t, func(v map[string]any) {
		asked(v)
		for _, s := range v["samples"].([]any) {
			out, _ := s.(map[string]any)["output"].(map[string]any)
			choices, _ := out["choices"].([]any)
			if len(choices) == 0 {
				continue // the errored sample
			}
			out["completion"] = ""
			choices[0].(map[string]any)["message"].(map[string]any)["content"] = []any{map[string]any{"type": "reasoning", "reasoning": "Let me think."}}
		}
	})
	_, err = Import(empty, "default")
	for _, want := range []string{
		"edited.json: the eval asked for log-probabilities (logprobs true, top_logprobs 20) and no sample has any",
		"(0 of 59 are yes or no, 59 empty)",
		"inspect eval cmd/import/discrim_eval.py --model anthropic/example-decision-model --epochs 5 --max-tokens 4096",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to contain %q", err, want)
		}
	}
	// Without the request, a decision run says nothing of the kind.
	if res, err := Import(jsonLog, "default"); err != nil || len(res.Warnings) != 0 {
		t.Errorf("error %v, warnings %q", err, res.Warnings)
	}
}

// A task revision whose origin is a local folder (a checkout cloned from
// one) and model args that name folders: no local path in the manifest.
func TestLocalPathsDropped(t *testing.T) {
	path := editJSONLog(t, func(v map[string]any) {
		e := v["eval"].(map[string]any)
		e["revision"].(map[string]any)["origin"] = "/home/me/src/discrim-eval"
		e["model_args"] = map[string]any{"model_path": "/home/me/models/q7", "device": "cuda:0"}
	})
	res, err := Import(path, "default")
	if err != nil {
		t.Fatal(err)
	}
	n := res.Manifest.Notes
	if strings.Contains(n, "/home/me") || !strings.Contains(n, "task code: git (a local folder, not recorded) at `3f2a1b9`") || !strings.Contains(n, `"model_path":"…/q7"`) {
		t.Errorf("notes:\n%s", n)
	}
	local := editJSONLog(t, func(v map[string]any) { v["eval"].(map[string]any)["model"] = "hf//home/me/models/q7" })
	if _, err := Import(local, "default"); err == nil || !strings.Contains(err.Error(), "names a local path, not a model: give the model's name with --model PROVIDER/NAME") {
		t.Errorf("error %v", err)
	}
	res, err = ImportWith(local, Options{Intervention: "default", Model: "hf/example-org/q7"})
	if err != nil || res.Manifest.Model.ID != "hf/example-org/q7" || strings.Contains(res.Manifest.Notes, "/home/me") {
		t.Errorf("error %v, model %+v", err, res.Manifest.Model)
	}
}

// evalWith copies the .eval fixture without the members named in drop and
// with the members given added, as written.
func evalWith(t *testing.T, drop []string, add ...[2]string) string {
	t.Helper()
	path := editEval(t, func(_ string, b []byte) []byte { return b })
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if slices.Contains(drop, f.Name) {
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	for _, m := range add {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: zip.Deflate})
		w.Write([]byte(m[1]))
	}
	zw.Close()
	out := filepath.Join(t.TempDir(), "with.eval")
	os.WriteFile(out, buf.Bytes(), 0o644)
	return out
}

// TestOddMembers: what a .eval log holds that the importer does not read
// is named in a warning, a zip-slip name apart; a sample stored twice,
// under another member's name, is an error, ended in an error or not; a
// sample under a name not its own is warned of.
func TestOddMembers(t *testing.T) {
	one := string(member(t, "samples/1_epoch_1.json"))
	path := evalWith(t, nil, [2]string{"../../evil.sh", "x"}, [2]string{"/etc/cron.d/x", "x"}, [2]string{"notes.txt", "x"}, [2]string{"samples/1_epoch_1.json.bak", one})
	res, err := ImportWith(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "members") {
			got = append(got, strings.TrimPrefix(w, path))
		}
	}
	want := []string{
		`: 2 members whose names are not plain paths inside the log ("../../evil.sh", "/etc/cron.d/x"): not read; no Inspect log has them (a zip-slip name would write outside a folder it is unpacked into)`,
		": 2 members that inspect_ai does not write (notes.txt, samples/1_epoch_1.json.bak): not read",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The same sample under another name.
	_, err = ImportWith(evalWith(t, nil, [2]string{"samples/01_epoch_1.json", one}), Options{})
	if err == nil || !strings.Contains(err.Error(), "samples/1_epoch_1.json:1: sample 1 epoch 1: stored twice: also at ") || !strings.Contains(err.Error(), "samples/01_epoch_1.json:1") {
		t.Errorf("a sample twice: %v", err)
	}
	// An errored sample twice.
	errored := string(editJSON(t, []byte(one), func(v map[string]any) { v["error"] = map[string]any{"message": "RateLimitError: 429"} }))
	_, err = ImportWith(evalWith(t, []string{"samples/1_epoch_1.json"}, [2]string{"samples/1_epoch_1.json", errored}, [2]string{"samples/a_epoch_1.json", errored}), Options{})
	if err == nil || !strings.Contains(err.Error(), "stored twice") {
		t.Errorf("an errored sample twice: %v", err)
	}
	// A sample moved to another name.
	res, err = ImportWith(evalWith(t, []string{"samples/1_epoch_1.json"}, [2]string{"samples/x_epoch_1.json", one}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasSuffix(w, ":samples/x_epoch_1.json holds sample 1 epoch 1, whose member inspect_ai names samples/1_epoch_1.json: renamed, or copied in from elsewhere?")
	}) {
		t.Errorf("no warning of the renamed sample in %q", res.Warnings)
	}
}
