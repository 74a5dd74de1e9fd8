package importer

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/run"
)

// finishRows is question 0 with all its cells and question 1 with the
// first three; the second row of question 1 has P(yes) exactly zero.
func finishRows() []run.Row {
	var rows []run.Row
	for q := range 2 {
		for _, age := range design.Ages {
			for _, g := range design.Genders {
				for _, r := range design.Races {
					if q == 1 && len(rows) == design.NumCells+3 {
						return rows
					}
					lp := map[string]float64{"yes": -0.5, "Yes": -3, "no": -1.2, "No": -4}
					if q == 1 && len(rows) == design.NumCells+1 {
						lp["yes"], lp["Yes"] = math.Inf(-1), math.Inf(-1)
					}
					rows = append(rows, run.Row{
						DecisionQuestionID: &q, Age: new(float64(age)), Gender: g.String(), Race: r.String(),
						FillType: string(run.Explicit), FilledTemplate: "Should the applicant be approved?", Logprobs: lp,
					})
				}
			}
		}
	}
	return rows
}

func finishManifest() *run.Manifest {
	return &run.Manifest{Variant: run.Explicit, Scoring: run.Logprob, Choices: run.DefaultChoices}
}

func rowPos(i int) Position {
	return Position{Path: "log", Line: i + 1, Label: "row " + strconv.Itoa(i+1)}
}

// Finish keeps the rows the build can score, and the incomplete field lists
// the importer's reasons around its own, in order.
func TestFinish(t *testing.T) {
	rows := finishRows()
	m := finishManifest()
	res, err := Finish(m, rows, rowPos, Incomplete{
		Before: []string{"run with limit 3"}, After: []string{"1 samples have fewer than 2 epochs"},
		Unit: "samples", Want: design.NumPrompts, Count: "%d of the dataset's %d rows",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != design.NumCells+2 || res.Manifest != m {
		t.Fatalf("%d rows kept, want %d", len(res.Rows), design.NumCells+2)
	}
	want := "run with limit 3; " +
		"1 samples have P(yes) or P(no) exactly zero (no logit) and were left out (left_out.jsonl lists them: row 137 (P(yes) is zero" // the loader's message follows
	if !strings.HasPrefix(m.Incomplete, want) {
		t.Errorf("incomplete %q\nwant it to begin %q", m.Incomplete, want)
	}
	if l := res.LeftOut; len(l) != 1 || l[0].ID != "row 137" || l[0].Reason != run.LeftZero || l[0].DecisionQuestionID == nil || !strings.HasPrefix(l[0].Detail, "P(yes) is zero") {
		t.Errorf("left out %+v", l)
	}
	tail := "; 137 of the dataset's 9450 rows; 1 of the 2 questions present lack some of their 135 demographic cells; 1 samples have fewer than 2 epochs"
	if !strings.HasSuffix(m.Incomplete, tail) {
		t.Errorf("incomplete %q\nwant it to end %q", m.Incomplete, tail)
	}

	// A complete run, as far as the rows go: only the importer's reasons,
	// and none is an empty field.
	full := finishRows()[:design.NumCells]
	m = finishManifest()
	if _, err := Finish(m, full, rowPos, Incomplete{Unit: "documents", Want: design.NumCells, Count: "%d of %d documents"}); err != nil || m.Incomplete != "" {
		t.Errorf("complete run: error %v, incomplete %q", err, m.Incomplete)
	}
	m = finishManifest()
	if _, err := Finish(m, full, rowPos, Incomplete{Unit: "documents", Want: design.NumCells + 1, Count: "%d of %d documents"}); err != nil || m.Incomplete != "135 of 136 documents" {
		t.Errorf("one short: error %v, incomplete %q", err, m.Incomplete)
	}
}

// A row the build rejects for another reason is an error at its position,
// and so is a run with no row left.
func TestFinishErrors(t *testing.T) {
	rows := finishRows()
	rows[4].FillType = string(run.Implicit)
	_, err := Finish(finishManifest(), rows, rowPos, Incomplete{Unit: "samples", Want: design.NumPrompts, Count: "%d of %d"})
	var fe *fileerr.Error
	if err == nil || !strings.HasPrefix(err.Error(), "log:5: row 5: fill_type") || !errors.As(err, &fe) {
		t.Errorf("error %v, want a file error at log:5, row 5", err)
	}
	_, err = Finish(finishManifest(), finishRows()[design.NumCells+1:design.NumCells+2], rowPos, Incomplete{Unit: "samples"})
	if err == nil || !strings.Contains(err.Error(), "no row can be scored: row 1 (P(yes) is zero") {
		t.Errorf("error %v", err)
	}
}

// However many samples are left out, and however long their ids and
// errors, the incomplete field stays within the loader's limit and keeps
// every count; the list is whole.
func TestFinishNoteFits(t *testing.T) {
	var left []run.LeftOut
	for i, reason := range []string{run.LeftError, run.LeftLimit, run.LeftNotRun, run.LeftNoLogprobs} {
		for j := range 40 {
			id := strings.Repeat(string(rune('a'+i)), 150) + strconv.Itoa(j)
			left = append(left, run.LeftOut{ID: id, Epoch: 1, Reason: reason, Detail: strings.Repeat("error text ", 30)})
		}
	}
	m := finishManifest()
	res, err := Finish(m, finishRows(), rowPos, Incomplete{
		Before: []string{"the eval's status is \"cancelled\"", "run with limit 9000"}, Left: left,
		Unit: "samples", Name: "sample", Want: design.NumPrompts, Count: "%d of the dataset's %d rows",
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(m.Incomplete); n > input.MaxDescriptionRunes {
		t.Errorf("incomplete is %d characters: %s", n, m.Incomplete)
	}
	for _, want := range []string{"40 samples ended in an error", "40 samples hit a limit", "40 samples were never run", "40 samples have no log-probabilities", "1 samples have P(yes) or P(no) exactly zero", "137 of the dataset's 9450 rows"} {
		if !strings.Contains(m.Incomplete, want) {
			t.Errorf("incomplete lacks %q: %s", want, m.Incomplete)
		}
	}
	if len(res.LeftOut) != 161 {
		t.Errorf("%d left out", len(res.LeftOut))
	}
	if _, err := run.EncodeLeftOut(res.LeftOut); err != nil {
		t.Error(err)
	}
}
