package run

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
)

// seedLines returns lines of the real dataset rows (testdata/, verbatim
// from Anthropic/discrim-eval) and of the synthetic reference run, for
// seeding the fuzzers.
func seedLines(f testing.TB) [][]byte {
	f.Helper()
	var lines [][]byte
	files, _ := filepath.Glob("../../testdata/explicit-excerpt-*.jsonl")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for i := 0; sc.Scan(); i++ {
			if i%20 == 0 { // a handful of each file, with its quirks
				lines = append(lines, append([]byte(nil), sc.Bytes()...))
			}
		}
	}
	rows, err := ReadRows("../../testdata/complete-seed7.jsonl.gz")
	if err != nil {
		f.Fatal(err)
	}
	enc, err := EncodeScored(rows[:5], false)
	if err != nil {
		f.Fatal(err)
	}
	lines = append(lines, bytes.Split(bytes.TrimSpace(enc), []byte("\n"))...)
	if len(lines) < 10 {
		f.Fatalf("only %d seed lines", len(lines))
	}
	return lines
}

// FuzzScoredRow feeds one scored file (seeded with real rows, alone and
// in pairs) to the streaming reader and the row checks of a logprob and a
// decision run: no input may panic, and every error names the file and a
// line within it.
func FuzzScoredRow(f *testing.F) {
	lines := seedLines(f)
	for i, l := range lines {
		f.Add(append(append([]byte(nil), l...), '\n'))
		if i > 0 {
			f.Add(bytes.Join([][]byte{lines[i-1], l, nil}, []byte("\n")))
		}
	}
	f.Add([]byte(`{"decision_question_id": 1e40, "age": NaN}`))
	// A row of no question of the dataset, and rows with their texts
	// exchanged (each refused).
	f.Add(bytes.Replace(lines[0], []byte(`"decision_question_id": 0,`), []byte(`"decision_question_id": 500,`), 1))
	f.Add(bytes.Replace(lines[0], []byte(`20-year-old`), []byte(`30-year-old`), 1))
	f.Add([]byte("{\"filled_template\": \"caf\xe9\"}\n"))
	logprob := testManifest()
	decision := testManifest()
	decision.Scoring = Decision
	f.Fuzz(func(t *testing.T, data []byte) {
		nlines := bytes.Count(data, []byte("\n")) + 1
		for _, m := range []*Manifest{logprob, decision} {
			fsys := fstest.MapFS{"s.jsonl": {Data: data}}
			var qs []int
			_, _, rows, err := EachRow(fsys, "s.jsonl", "runs/x/s.jsonl", func(line int, r *Row) error {
				c, err := m.ToCell(line, r)
				qs = append(qs, c.Q)
				return err
			})
			if err == nil {
				if rows < 1 || rows > nlines {
					t.Fatalf("%d rows from %d lines", rows, nlines)
				}
				for _, q := range qs {
					if q < 0 || q > design.LastQuestionID {
						t.Fatalf("accepted decision_question_id %d", q)
					}
				}
				continue
			}
			path, line, ok := fileerr.Position(err)
			if !ok || path != "runs/x/s.jsonl" || line > nlines {
				t.Fatalf("error without a position in the file (%q, %d): %v", path, line, err)
			}
		}
	})
}

// FuzzManifest feeds manifest.yaml texts (seeded with a frozen real one and
// the committed demo runs' manifests) to ParseManifest: no panic, errors
// name the file, and an accepted manifest has a row count within the limit.
func FuzzManifest(f *testing.F) {
	good, _, err := Freeze(testManifest(), nil, false)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(bytes.Replace(good, []byte("rows: 0"), []byte("rows: 9450"), 1))
	f.Add(bytes.Replace(good, []byte("rows: 0"), []byte("rows: 9223372036854775807"), 1))
	f.Add(append(append([]byte(nil), good...), "---\nmodel: x\n"...))
	// YAML's other spellings, each refused (testdata/bad has them too).
	for _, q := range [][2]string{
		{"model:\n", "model:\n  <<: {name: Merged}\n"},
		{"scoring: logprob", "scoring: logprob\nnotes: !!binary aGVsbG8="},
		{"rows: 0", "rows: 0x10E"},
		{"rows: 0", "rows: 270.0"},
		{"open_weights: false", "open_weights: no"},
		{"model:", "\uFEFFmodel:"},
		{"provider: ", "provider: \"De\\0mo\"\n  x: "},
		{"run_date: ", "run_date: \"0000-01-01\"\nx: "},
		// The model's facts, written as a person would and otherwise.
		{"open_weights: false", "open_weights: false\n  release_date: 2024-07-23\n  parameters: 8030000000\n  license: llama3.1"},
		{"open_weights: false", "open_weights: false\n  parameters: undisclosed"},
		{"open_weights: false", "open_weights: false\n  parameters: 7B"},
		{"open_weights: false", "open_weights: false\n  parameters: \"7000000000\""},
		{"open_weights: false", "open_weights: false\n  release_date: 2017-12-31"},
		{"  open_weights: false\n", ""},
	} {
		f.Add(bytes.Replace(good, []byte(q[0]), []byte(q[1]), 1))
	}
	mans, _ := filepath.Glob("../../runs/*/manifest.yaml")
	for _, p := range mans {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("runs/x/manifest.yaml", data)
		if err != nil {
			if p, _, ok := fileerr.Position(err); !ok || p != "runs/x/manifest.yaml" {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if m.Scored.Rows < 1 || m.Scored.Rows > input.MaxRows {
			t.Fatalf("accepted scored.rows %d", m.Scored.Rows)
		}
		if !strings.HasPrefix(m.Scored.Path, "scored.jsonl") {
			t.Fatalf("accepted scored.path %q", m.Scored.Path)
		}
		if m.RunDate < input.FirstDate {
			t.Fatalf("accepted run_date %q", m.RunDate)
		}
		if d := m.Model.ReleaseDate; d != "" && (d < FirstModelDate || input.Date(d) != nil) {
			t.Fatalf("accepted release_date %q", d)
		}
		if p := m.Model.Parameters; p != "" && p != Undisclosed {
			if n, ok := p.Count(); !ok || n < MinParameters || n > MaxParameters || ParametersOf(n) != p {
				t.Fatalf("accepted parameters %q", p)
			}
		}
		for _, s := range []string{m.Model.Name, m.Model.ID, m.Model.Provider, m.Model.Revision, m.Model.License, m.Intervention, m.InterventionText,
			m.Harness.Name, m.Harness.Version, m.Dataset.Name, m.Notes, m.Incomplete, m.PromptTemplate} {
			if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }); i >= 0 {
				t.Fatalf("accepted a control character in %q", s)
			}
		}
	})
}
