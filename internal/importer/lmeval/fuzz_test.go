package lmeval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/fileerr"
)

// go test ./internal/importer/lmeval -run '^$' -fuzz FuzzLMEvalLine -fuzztime 1m
//
// One line of a samples file: any bytes give a row or an error, never a
// panic, and a row is one the loader accepts the demographics of.
func FuzzLMEvalLine(f *testing.F) {
	lines := seedLines(f)
	for _, l := range lines {
		f.Add([]byte(l))
	}
	f.Add([]byte(strings.Replace(lines[0], `"decision_question_id": 0`, `"decision_question_id": 1e40`, 1)))
	f.Add([]byte(strings.Replace(lines[1], `"-`, `"-Infinity`, 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseLine(b, "explicit")
		if err != nil {
			return
		}
		if p.row.DecisionQuestionID == nil || *p.row.DecisionQuestionID < 0 || p.row.FillType != "explicit" || len(p.row.Logprobs) != 4 {
			t.Errorf("accepted row %+v", p.row)
		}
	})
}

// go test ./internal/importer/lmeval -run '^$' -fuzz FuzzLMEvalSamplesFile -fuzztime 1m
//
// A whole samples file imported with the fixture's results file: an
// import or a fileerr error naming the samples or results file.
func FuzzLMEvalSamplesFile(f *testing.F) {
	lines := seedLines(f)
	f.Add([]byte(strings.Join(lines[:3], "\n") + "\n"))
	f.Add([]byte(lines[0] + "\r\n\n" + lines[1]))
	dir := f.TempDir()
	path := filepath.Join(dir, "samples_discrim_eval_explicit_"+limStamp+".jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Import(path, limResults)
		if err != nil {
			if p, _, ok := fileerr.Position(err); !ok || (p != path && p != limResults) {
				t.Errorf("error without the file: %v", err)
			}
			return
		}
		if len(res.Rows) == 0 || res.Manifest.Variant != "explicit" {
			t.Errorf("result %+v", res.Manifest)
		}
	})
}

func seedLines(f *testing.F) []string { return fixtureLines(f)[:5] }
