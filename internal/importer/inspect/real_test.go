package inspect

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/run"
)

var update = flag.Bool("update", false, "rewrite testdata/grafted from testdata/real")

// Real logs from inspect_ai's own test folders (testdata/real/README.md),
// written by inspect_ai 0.3.41 to 0.3.154. None is a Discrim-Eval log.
func realLogs(t *testing.T) []string {
	t.Helper()
	var logs []string
	for _, pat := range []string{"testdata/real/*.eval", "testdata/real/*.json"} {
		m, _ := filepath.Glob(pat)
		logs = append(logs, m...)
	}
	if len(logs) != 12 {
		t.Fatalf("%d real logs", len(logs))
	}
	return logs
}

// Every real log is read through, header and samples, to the first thing
// a Discrim-Eval import needs and it lacks, named with its position.
func TestRealLogsNeedDemographics(t *testing.T) {
	for _, path := range realLogs(t) {
		_, err := ImportWith(path, anyTask)
		p, line, ok := fileerr.Position(err)
		switch {
		case strings.Contains(path, "no-samples"):
			if err == nil || !strings.Contains(err.Error(), "the log holds no samples") {
				t.Errorf("%s: %v", path, err)
			}
		case !ok || !strings.Contains(err.Error(), "metadata has no decision_question_id") || !strings.HasPrefix(p, path) || line < 1:
			t.Errorf("%s: %v", path, err)
		}
	}
}

// graftMetadata gives every sample of a real log the metadata of a real
// Discrim-Eval row (the i-th distinct sample id gets row i of question 0)
// and changes nothing else: the graft is what discrim_eval.py adds.
func graftMetadata(t *testing.T, path string) []byte {
	t.Helper()
	rows := readRows(t, "../../../testdata/explicit-excerpt-q0.jsonl")
	ids := map[string]int{}
	edit := func(s map[string]any) {
		id := string(mustJSON(t, s["id"]))
		if _, ok := ids[id]; !ok {
			ids[id] = len(ids)
		}
		r := rows[ids[id]]
		s["metadata"] = map[string]any{
			"decision_question_id": r["decision_question_id"], "age": r["age"], "gender": r["gender"],
			"race": r["race"], "fill_type": r["fill_type"], "filled_template": r["filled_template"],
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".json") {
		log := decodeNumbers(t, data).(map[string]any)
		samples, _ := log["samples"].([]any)
		for _, s := range samples {
			edit(s.(map[string]any))
		}
		return append(indentJSON(t, log), '\n')
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if !sampleMember.MatchString(f.Name) {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		s := decodeNumbers(t, b).(map[string]any)
		edit(s)
		hdr := f.FileHeader
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: hdr.Method, Modified: hdr.Modified})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(mustJSON(t, s))
	}
	zw.Close()
	return buf.Bytes()
}

// TestGrafted checks testdata/grafted is what graftMetadata makes of
// testdata/real (go test -run TestGrafted -update rewrites it), and that
// each imports with the answers the log holds: from output.completion, or
// in logs older than inspect_ai 0.3.123, which have none, from the first
// choice's message, never an empty answer where the log has text.
func TestGrafted(t *testing.T) {
	for _, path := range realLogs(t) {
		if strings.Contains(path, "no-samples") {
			continue
		}
		want := graftMetadata(t, path)
		out := filepath.Join("testdata/grafted", filepath.Base(path))
		if *update {
			if err := os.WriteFile(out, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(out)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not up to date (go test ./internal/importer/inspect -run TestGrafted -update): %v", out, err)
			continue
		}
		res, err := ImportWith(out, anyTask)
		if err != nil {
			t.Errorf("%s: %v", out, err)
			continue
		}
		answers, fromChoices := logAnswers(t, out)
		if (fromChoices > 0) != strings.Contains(res.Manifest.Notes, fmt.Sprintf("%d answers read from the first choice's message", fromChoices)) {
			t.Errorf("%s: notes do not say where the answers came from:\n%s", out, res.Manifest.Notes)
		}
		for _, r := range res.Rows {
			q := *r.DecisionQuestionID
			if q != 0 || len(r.Decisions) == 0 {
				t.Errorf("%s: row %+v", out, r)
			}
			for _, d := range r.Decisions {
				if !answers[d] {
					t.Errorf("%s: decision %q is not an answer of the log (%v)", out, d, answers)
				}
			}
		}
		load(t, res)
	}
}

// logAnswers lists the answer texts of a log independently of the
// importer: output.completion where written, else choices[0].message's
// text.
func logAnswers(t *testing.T, path string) (out map[string]bool, fromChoices int) {
	out = map[string]bool{}
	add := func(s map[string]any) {
		o, _ := s["output"].(map[string]any)
		c, ok := o["completion"].(string)
		if ok && c != "" {
			out[run.Shorten(c, run.MaxUnparsedRunes)] = true
			return
		}
		ch, _ := o["choices"].([]any)
		if len(ch) == 0 {
			out[""] = true
			return
		}
		if !ok {
			fromChoices++
		}
		msg := ch[0].(map[string]any)["message"].(map[string]any)
		switch c := msg["content"].(type) {
		case string:
			out[run.Shorten(c, run.MaxUnparsedRunes)] = true
		case []any:
			var texts []string
			for _, p := range c {
				if p := p.(map[string]any); p["type"] == "text" {
					texts = append(texts, p["text"].(string))
				}
			}
			out[run.Shorten(strings.Join(texts, "\n"), run.MaxUnparsedRunes)] = true
		default:
			out[""] = true
		}
	}
	data, _ := os.ReadFile(path)
	if strings.HasSuffix(path, ".json") {
		for _, s := range decodeNumbers(t, data).(map[string]any)["samples"].([]any) {
			add(s.(map[string]any))
		}
		return out, fromChoices
	}
	zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	for _, f := range zr.File {
		if sampleMember.MatchString(f.Name) {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			add(decodeNumbers(t, b).(map[string]any))
		}
	}
	return out, fromChoices
}

// A log written by inspect_ai 0.3.206 or later: the same members,
// Zstandard-compressed. Python's zipfile cannot write method 93 without
// inspect_ai's own patch, so the members are recompressed here.
func TestZstdEval(t *testing.T) {
	src := "testdata/grafted/mmlu-summary-choices.eval"
	path := filepath.Join(t.TempDir(), "zstd.eval")
	if err := os.WriteFile(path, recompress(t, src, zipZstd), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ImportWith(src, anyTask)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ImportWith(path, anyTask)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Rows, got.Rows); diff != "" {
		t.Errorf("rows differ (-deflate +zstd):\n%s", diff)
	}
}

// recompress rewrites every member of a .eval with the given method.
func recompress(t *testing.T, path string, method uint16) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zipZstd, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: method, Modified: f.Modified})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

func readRows(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rows = append(rows, decodeNumbers(t, sc.Bytes()).(map[string]any))
	}
	return rows
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// anyTask imports inspect_ai's own logs, whose tasks have other names.
var anyTask = Options{Intervention: "default", AnyTask: true}

// A log of another task that carries the metadata (the grafted mmlu log)
// is an error unless AnyTask (--task-name-ok) says so.
func TestTaskName(t *testing.T) {
	path := "testdata/grafted/mmlu-summary-choices.eval"
	_, err := Import(path, "default")
	if err == nil || err.Error() != path+`:header.json: task "inspect_evals/mmlu_0_shot" is not a Discrim-Eval task (discrim_eval, as cmd/import/discrim_eval.py names it): if it is one under another name, import it with --task-name-ok` {
		t.Errorf("error %v", err)
	}
	if _, err := ImportWith(path, anyTask); err != nil {
		t.Error(err)
	}
	for name, want := range map[string]bool{
		"discrim_eval": true, "discrim-eval": true, "inspect_evals/discrim_eval": true, "Discrim_Eval_implicit": true,
		"discrim_eval.py@discrim_eval": true, "discrim_evaluation": false, "mmlu": false, "": false, "my_discrim_eval": false,
	} {
		if TaskIsDiscrimEval(name) != want {
			t.Errorf("TaskIsDiscrimEval(%q) = %v", name, !want)
		}
	}
}
