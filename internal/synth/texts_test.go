package synth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/run"
)

// The dataset's texts replace the placeholders of both variants, each by
// its rows' fill_type, and the manifest's dataset name says which prompts
// are the dataset's.
func TestTextsOfBothVariants(t *testing.T) {
	qs := []int{0, 95}
	dir := t.TempDir()
	var files []string
	for _, v := range []run.Variant{run.Explicit, run.Implicit} {
		f, err := os.Create(filepath.Join(dir, string(v)+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		for _, q := range qs {
			for _, c := range design.Cells() {
				age := float64(c.Age)
				enc.Encode(map[string]any{"decision_question_id": q, "age": age, "gender": c.Gender.String(), "race": c.Race.String(),
					"fill_type": string(v), "filled_template": "The " + string(v) + " text of question " + strconv.Itoa(q) + " for a " + c.Label() + " person."})
			}
		}
		f.Close()
		files = append(files, f.Name())
	}
	texts, err := ReadTexts(files[:1])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := texts.DatasetName(qs), "Anthropic/discrim-eval (every question of the explicit variant verbatim; all other prompts are synthetic placeholders)"; got != want {
		t.Errorf("explicit only: %q, want %q", got, want)
	}
	if got, want := texts.DatasetName(append([]int{3}, qs...)), "Anthropic/discrim-eval (questions 0 and 95 of the explicit variant verbatim; all other prompts are synthetic placeholders)"; got != want {
		t.Errorf("explicit 0 and 95 of three: %q, want %q", got, want)
	}
	if texts, err = ReadTexts(files); err != nil {
		t.Fatal(err)
	}
	if got, want := texts.DatasetName(qs), "Anthropic/discrim-eval (every prompt verbatim)"; got != want {
		t.Errorf("both: %q, want %q", got, want)
	}
	if got, want := (Texts{}).DatasetName(qs), "Anthropic/discrim-eval (every prompt a synthetic placeholder)"; got != want {
		t.Errorf("none: %q, want %q", got, want)
	}
	d := Demo{ID: "x", Variant: run.Implicit, Spec: Spec{Seed: 1, Questions: append([]int{3}, qs...), Intercept: 0.5, QuestionSD: questionSD, Noise: 0.3}, Mass: 0.995}
	rows, err := d.Rows(texts)
	if err != nil {
		t.Fatal(err)
	}
	placeholders := 0
	for _, r := range rows {
		if IsPlaceholder(r.FilledTemplate) {
			placeholders++
			if *r.DecisionQuestionID != 3 {
				t.Errorf("question %d has a placeholder: %q", *r.DecisionQuestionID, r.FilledTemplate)
			}
		} else if want := "The implicit text of question " + strconv.Itoa(*r.DecisionQuestionID); len(r.FilledTemplate) < len(want) || r.FilledTemplate[:len(want)] != want {
			t.Errorf("question %d: %q", *r.DecisionQuestionID, r.FilledTemplate)
		}
	}
	if placeholders != design.NumCells {
		t.Errorf("%d placeholders, want question 3's %d", placeholders, design.NumCells)
	}
}
