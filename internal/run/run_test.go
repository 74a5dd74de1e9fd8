package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/discrimeval/leaderboard/internal/design"
)

// realRows reads the verbatim dataset rows of question 0 and gives each
// invented log-probabilities.
func realRows(t *testing.T) []Row {
	t.Helper()
	f, err := os.Open("../../testdata/explicit-excerpt-q0.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for i := 0; sc.Scan(); i++ {
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		lp := -1.0 - float64(i%7)*0.2
		r.Logprobs = map[string]float64{"yes": lp, "Yes": lp - 2, "no": -1.2, "No": -3}
		rows = append(rows, r)
	}
	return rows
}

func testManifest() *Manifest {
	return &Manifest{
		Model:        Model{Name: "Test Model", ID: "test/model", Provider: "Test"},
		Benchmark:    "discrim_eval",
		Variant:      Explicit,
		Intervention: "default",
		Scoring:      Logprob,
		Choices:      DefaultChoices,
		Harness:      Harness{Name: "test"},
		Dataset:      Dataset{Name: "Anthropic/discrim-eval"},
		RunDate:      "2026-11-01",
	}
}

func mapFS(t *testing.T, id string, m *Manifest, rows []Row, gz bool) fstest.MapFS {
	t.Helper()
	man, scored, err := Freeze(m, rows, gz)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		id + "/manifest.yaml":    {Data: man},
		id + "/" + m.Scored.Path: {Data: scored},
		"README.md":              {Data: []byte("not a run")},
	}
}

func TestLoadRealRows(t *testing.T) {
	rows := realRows(t)
	for _, gz := range []bool{false, true} {
		fsys := mapFS(t, "real-q0", testManifest(), rows, gz)
		runs, err := LoadAll(fsys, "runs")
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || len(runs[0].Cells) != 135 {
			t.Fatalf("got %d runs", len(runs))
		}
		r := runs[0]
		if r.Cells[0].Age != 20 || r.Cells[0].Gender != design.Female || r.Cells[0].Race != design.White {
			t.Errorf("first cell %+v", r.Cells[0])
		}
		want := math.Log(math.Exp(-1.0)+math.Exp(-3.0)) - math.Log(math.Exp(-1.2)+math.Exp(-3))
		if d := math.Abs(r.Cells[0].Logit - want); d > 1e-12 {
			t.Errorf("logit %v, want %v", r.Cells[0].Logit, want)
		}
		if len(r.Files) != 2 || r.Files[1].SHA256 != r.Manifest.Scored.SHA256 {
			t.Errorf("files %+v", r.Files)
		}
	}
	// The text survives a freeze byte for byte (newlines, tags, curly quotes).
	_, scored, err := Freeze(testManifest(), rows, false)
	if err != nil {
		t.Fatal(err)
	}
	var back []Row
	if _, _, _, err := EachRow(fstest.MapFS{"s.jsonl": {Data: scored}}, "s.jsonl", "s", func(_ int, r *Row) error {
		back = append(back, r.Clone()) // EachRow reuses the row
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if back[i].FilledTemplate != rows[i].FilledTemplate {
			t.Fatalf("row %d text changed", i)
		}
	}
}

func TestQuirkyRowsLoad(t *testing.T) {
	// Question 95 holds a row writing "black" and one with literal newlines
	// and a stray closing tag.
	data, err := os.ReadFile("../../testdata/explicit-excerpt-q95.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r Row
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		r.Logprobs = map[string]float64{"yes": -0.9, "Yes": -3, "no": -1, "No": -4}
		rows = append(rows, r)
	}
	runs, err := LoadAll(mapFS(t, "q95", testManifest(), rows, true), "runs")
	if err != nil {
		t.Fatal(err)
	}
	var newline bool
	for _, r := range rows {
		newline = newline || strings.Contains(r.FilledTemplate, "\n</filled_template >")
	}
	if !newline || len(runs[0].Cells) != 135 {
		t.Errorf("quirky rows: newline=%v cells=%d", newline, len(runs[0].Cells))
	}
}

func TestLoadErrors(t *testing.T) {
	base := realRows(t)[:10]
	cases := []struct {
		name   string
		mutate func(m *Manifest, rows []Row) []Row
		raw    func(fs fstest.MapFS) // applied after freezing
		want   string
	}{
		{"unknown race", func(m *Manifest, r []Row) []Row { r[3].Race = "Martian"; return r }, nil, "runs/x/scored.jsonl:4: unknown race \"Martian\""},
		{"positive logprob", func(m *Manifest, r []Row) []Row { r[1].Logprobs["no"] = 0.2; return r }, nil, "scored.jsonl:2: log-probability of \"no\" is 0.2"},
		{"missing choice", func(m *Manifest, r []Row) []Row { delete(r[0].Logprobs, "No"); return r }, nil, "scored.jsonl:1: logprobs has no entry for answer form \"No\""},
		{"duplicate cell", func(m *Manifest, r []Row) []Row { return append(r, r[2]) }, nil, "scored.jsonl:11: duplicate cell: question 0, 20, female, Asian already on line 3"},
		{"mixed variants", func(m *Manifest, r []Row) []Row { r[5].FillType = "implicit"; return r }, nil, "scored.jsonl:6: fill_type \"implicit\""},
		{"bad age", func(m *Manifest, r []Row) []Row { a := 25.0; r[0].Age = &a; return r }, nil, "scored.jsonl:1: unknown age 25"},
		{"sha mismatch", nil, func(fs fstest.MapFS) {
			d := fs["x/scored.jsonl"].Data
			i := bytes.Index(d, []byte("patient"))
			d[i] = 'P'
		}, "runs/x/manifest.yaml:24: scored.sha256 is ffc53d"},
		{"unknown field", nil, func(fs fstest.MapFS) {
			fs["x/scored.jsonl"].Data = append(fs["x/scored.jsonl"].Data, []byte(`{"decision_question_id": 1, "colour": "red"}`+"\n")...)
		}, `scored.jsonl:11: unknown field "colour"`},
		{"NaN", nil, func(fs fstest.MapFS) {
			fs["x/scored.jsonl"].Data = append(fs["x/scored.jsonl"].Data, []byte(`{"decision_question_id": 1, "logprobs": {"yes": NaN}}`+"\n")...)
		}, "scored.jsonl:11: not JSON: invalid character 'N'"},
		{"truncated", nil, func(fs fstest.MapFS) {
			fs["x/scored.jsonl"].Data = append(fs["x/scored.jsonl"].Data, []byte(`{"decision_question_id": 1, "age": 2`)...)
		}, "scored.jsonl:11: truncated JSON object"},
		{"bad variant", func(m *Manifest, r []Row) []Row { m.Variant = "both"; return r }, nil, "runs/x/manifest.yaml:7: variant \"both\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows := make([]Row, len(base))
			for i, r := range base {
				r.Logprobs = map[string]float64{}
				for k, v := range base[i].Logprobs {
					r.Logprobs[k] = v
				}
				rows[i] = r
			}
			m := testManifest()
			if tc.mutate != nil {
				rows = tc.mutate(m, rows)
			}
			man, scored, err := Freeze(m, rows, false)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{"x/manifest.yaml": {Data: man}, "x/scored.jsonl": {Data: scored}}
			if tc.raw != nil {
				tc.raw(fsys)
			}
			_, err = LoadAll(fsys, "runs")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestManifestErrors(t *testing.T) {
	good, _, err := Freeze(testManifest(), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, yaml, want string }{
		{"unknown field", string(good) + "colour: red\n", "m.yaml:26: field colour not found"},
		{"missing model id", strings.Replace(string(good), "  id: test/model\n", "", 1), "m.yaml:1: missing required field model.id"},
		{"bad date", strings.Replace(string(good), "2026-11-01", "yesterday", 1), "m.yaml:21: run_date \"yesterday\""},
		{"wrong type", strings.Replace(string(good), "open_weights: false", "open_weights: [1]", 1), "m.yaml:5: cannot unmarshal"},
		{"not yaml", "model: [\n", "m.yaml:1: did not find"},
	}
	for _, tc := range cases {
		_, err := ParseManifest("m.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant it to contain %q\n%s", tc.name, err, tc.want, tc.yaml)
		}
	}
}

func TestBadRunID(t *testing.T) {
	fsys := mapFS(t, "Bad Name", testManifest(), realRows(t)[:2], false)
	if _, err := LoadAll(fsys, "runs"); err == nil || !strings.Contains(err.Error(), "not a plain folder name") {
		t.Errorf("error %v", err)
	}
}

func TestDecisionRun(t *testing.T) {
	rows := realRows(t)[:3]
	for i := range rows {
		rows[i].Logprobs = nil
		rows[i].Decisions = []string{"yes", "No", "I cannot decide"}
	}
	m := testManifest()
	m.Scoring = Decision
	runs, err := LoadAll(mapFS(t, "d", m, rows, false), "runs")
	if err != nil {
		t.Fatal(err)
	}
	c := runs[0].Cells[0]
	if c.Yes != 1 || c.No != 1 || c.Other != 1 {
		t.Errorf("counts %+v", c)
	}
}

func TestUnquotedYesNoKeys(t *testing.T) {
	good, _, err := Freeze(testManifest(), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(good), "rows: 0", "rows: 1", 1)
	s = strings.Replace(s, "choices:\n  \"yes\":\n    - \"yes\"\n    - \"Yes\"\n  \"no\":\n    - \"no\"\n    - \"No\"\n", "choices:\n  yes: [yes, Y]\n  no: [no, N]\n", 1)
	m, err := ParseManifest("m.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Choices.Yes, ",") != "yes,Y" || strings.Join(m.Choices.No, ",") != "no,N" {
		t.Errorf("choices %+v from\n%s", m.Choices, s)
	}
}

// TestLoadRowsBorrowed: LoadRowsBorrowed's hook sees each row as
// LoadRows' does — texts with and without escapes, in every field that is
// borrowed — and the run's cells are the same.
func TestLoadRowsBorrowed(t *testing.T) {
	rows := realRows(t)
	for i := range rows {
		switch i % 4 {
		case 1:
			rows[i].Prompt = "Human: " + rows[i].FilledTemplate + "\n\nAssistant: \"quoted\""
			rows[i].Response = "Yes, plainly"
		case 2:
			rows[i].Messages = []Message{{Role: "user", Content: "plain " + rows[i].FilledTemplate}, {Role: "assistant", Content: "é \"escaped\"\ttab"}}
			rows[i].Response = "No.\n"
		case 3:
			rows[i].FilledTemplate += " \u2028 <b>&</b> \\"
		}
	}
	for _, gz := range []bool{false, true} {
		fsys := mapFS(t, "borrowed", testManifest(), rows, gz)
		load := func(borrow bool) (*Run, []Row) {
			r, err := LoadManifest(fsys, "runs", "borrowed")
			if err != nil {
				t.Fatal(err)
			}
			var seen []Row
			hook := func(_ *Run, _ Cell, row *Row) {
				c := row.Clone()
				c.FilledTemplate, c.Prompt, c.Response = strings.Clone(c.FilledTemplate), strings.Clone(c.Prompt), strings.Clone(c.Response)
				for i := range c.Messages {
					c.Messages[i].Content = strings.Clone(c.Messages[i].Content)
				}
				seen = append(seen, c)
			}
			if borrow {
				err = r.LoadRowsBorrowed(fsys, "runs", hook)
			} else {
				err = r.LoadRows(fsys, "runs", hook)
			}
			if err != nil {
				t.Fatal(err)
			}
			return r, seen
		}
		r1, rows1 := load(false)
		r2, rows2 := load(true)
		if len(rows1) != len(rows) || len(rows2) != len(rows) {
			t.Fatalf("gz %v: hooks saw %d and %d rows, want %d", gz, len(rows1), len(rows2), len(rows))
		}
		for i := range rows1 {
			if !sameRow(rows1[i], rows2[i]) || rows2[i].FilledTemplate != rows[i].FilledTemplate {
				t.Errorf("gz %v: row %d borrowed %+v, want %+v", gz, i, rows2[i], rows1[i])
			}
		}
		if !reflect.DeepEqual(r1.Cells, r2.Cells) || !reflect.DeepEqual(r1.Files, r2.Files) {
			t.Errorf("gz %v: the run's cells or files differ", gz)
		}
	}
}
