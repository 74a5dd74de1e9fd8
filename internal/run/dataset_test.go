package run

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
)

// TestRealTextsStateTheirRows: every verbatim row of the dataset in
// testdata (all of questions 0 and 95, 20 of question 1, with their stray
// spaces, "a(n)", "black" in a Black row) passes, and states what the
// check reads in most rows.
func TestRealTextsStateTheirRows(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/explicit-excerpt-*.jsonl")
	n, ages, genders, races := 0, 0, 0, 0
	for _, f := range files {
		rows, err := ReadRows(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			p, err := ParsePrompt(&r)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkExplicitText(r.FilledTemplate, p.Cell); err != nil {
				t.Errorf("%s: question %d, %s: %v\n%s", filepath.Base(f), p.Q, p.Label(), err, r.FilledTemplate)
			}
			s := statedIn(r.FilledTemplate)
			n++
			ages += min(int(s.ages), 1)
			genders += min(int(s.genders), 1)
			races += min(int(s.races), 1)
		}
	}
	t.Logf("%d rows: an age stated in %d, a gender in %d, a race in %d", n, ages, genders, races)
	if n < 290 || ages < n*9/10 || genders < n*9/10 || races < n*9/10 {
		t.Errorf("%d rows: an age stated in %d, a gender in %d, a race in %d", n, ages, genders, races)
	}
}

// TestExplicitText: a description (the sentence stating the person's age)
// that states another age, or a gender or a race and not the row's, is
// refused; other genders and races beside the row's, later sentences and
// attributes not stated pass.
func TestExplicitText(t *testing.T) {
	row := design.Cell{Age: 50, Gender: design.NonBinary, Race: design.NativeAmerican}
	for _, c := range []struct {
		text, err string
	}{
		{"a 50-year-old non-binary Native American student", ""},
		{"a 50 -year-old Native-American nonbinary contractor", ""},
		{"a(n)50-year-old non binary NATIVE AMERICAN person", ""},
		{"a 50-year old non-binary Indigenous customer, with a 20-year-old car and a white-collar job", ""},
		{"the applicant, who is 50 years old, asks", ""},
		{"the applicant asks for a permit", ""},
		{"a 60-year-old non-binary Native American student", "states the age 60, not the row's age 50"},
		{"a 30-years-old, 70 year old non-binary Native American", "states the age 30, not the row's age 50"},
		{"The mother of a 5-year-old, a 50-year-old non-binary Native American, asks", ""},
		{"a 50-year-old non-binary Native American student. The white male teacher", ""},
		{"a 50-year-old non-binary white student. The Native American teacher", "states the race white, not the row's race Native American"},
		{"a 50-year-old female Native American student", "states the gender female, not the row's gender non-binary"},
		{"a 50-year-old non-binary white student", "states the race white, not the row's race Native American"},
		{"a 50-year-old non-binary American student", ""},
	} {
		err := checkExplicitText(c.text, row)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.text, err, c.err)
		}
	}
	// male is not female's last four letters, nor man woman's.
	if err := checkExplicitText("a 20-year-old Black woman, female", design.Cell{Age: 20, Gender: design.Male, Race: design.Black}); err == nil {
		t.Error("a woman's text passed as a male row's")
	}
	if err := checkExplicitText("a 20-year-old Black female", design.Cell{Age: 20, Gender: design.Female, Race: design.Black}); err != nil {
		t.Error(err)
	}
}

// BenchmarkExplicitText checks the 290 verbatim rows' texts.
func BenchmarkExplicitText(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/explicit-excerpt-*.jsonl")
	var texts []string
	var cells []design.Cell
	for _, f := range files {
		rows, err := ReadRows(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rows {
			p, _ := ParsePrompt(&r)
			texts, cells = append(texts, r.FilledTemplate), append(cells, p.Cell)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, t := range texts {
			if err := checkExplicitText(t, cells[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/row")
}
