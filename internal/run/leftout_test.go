package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeftOutFile: a run written with the samples an import left out
// loads with the list as one of its files, checked line by line.
func TestLeftOutFile(t *testing.T) {
	q, age := 3, 40.0
	left := []LeftOut{
		{ID: "explicit-q3-40-female-asian", Epoch: 1, DecisionQuestionID: &q, Age: &age, Gender: "female", Race: "Asian", Reason: LeftError, Detail: "RateLimitError: 429"},
		{ID: "17", Reason: LeftZero, Detail: "P(no) is zero"},
	}
	runs := t.TempDir()
	if err := WriteDirLeftOut(filepath.Join(runs, "r"), testManifest(), realRows(t), left, true, false); err != nil {
		t.Fatal(err)
	}
	r, err := Load(os.DirFS(runs), "runs", "r")
	if err != nil {
		t.Fatal(err)
	}
	if r.LeftOut != 2 || len(r.Files) != 3 || r.Files[1].Path != "r/"+LeftOutFile || len(r.Files[1].SHA256) != 64 || len(r.Cells) != 135 {
		t.Fatalf("left out %d, files %+v", r.LeftOut, r.Files)
	}
	data, _ := os.ReadFile(filepath.Join(runs, "r", LeftOutFile))
	if want := `{"id":"17","reason":"zero probability","detail":"P(no) is zero"}`; !strings.Contains(string(data), want+"\n") {
		t.Errorf("%s:\n%s", LeftOutFile, data)
	}

	// Without the file: no such entry, as before.
	if err := WriteDir(filepath.Join(runs, "plain"), testManifest(), realRows(t), true, false); err != nil {
		t.Fatal(err)
	}
	if r, err := Load(os.DirFS(runs), "runs", "plain"); err != nil || len(r.Files) != 2 || r.LeftOut != 0 {
		t.Errorf("plain run: %v %+v", err, r)
	}

	for line, want := range map[string]string{
		`{"id":"a","reason":"error","extra":1}`:                `unknown object member name "extra"`,
		`{"id":"a","reason":"tired"}`:                          `reason "tired": want one of`,
		`{"reason":"error"}`:                                   "missing id",
		`{"id":"a","reason":"error","decision_question_id":3}`: "give all of decision_question_id, age, gender and race, or none",
		`{"id":"a","reason":"error","decision_question_id":3,"age":41,"gender":"female","race":"asian"}`: "age",
		`{"id":"a","reason":"error","epoch":-1}`:                                                         "epoch -1",
		`{"id":"a","reason":"error","detail":"` + strings.Repeat("x", 1001) + `"}`:                       "detail",
		`not json`: "invalid character",
	} {
		dir := filepath.Join(runs, "plain")
		if err := os.WriteFile(filepath.Join(dir, LeftOutFile), []byte(`{"id":"ok","reason":"error"}`+"\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(os.DirFS(runs), "runs", "plain")
		if err == nil || !strings.Contains(err.Error(), "runs/plain/"+LeftOutFile+":2: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it at line 2 and to contain %q", line, err, want)
		}
	}
	if _, err := EncodeLeftOut([]LeftOut{{ID: "a", Reason: "tired"}}); err == nil {
		t.Error("EncodeLeftOut wrote a reason the loader refuses")
	}
}
