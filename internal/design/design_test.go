package design

import "testing"

func TestParseRealSpellings(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Race
	}{{"white", White}, {"Black", Black}, {"black", Black}, {"Native American", NativeAmerican}, {"native american", NativeAmerican}, {"Hispanic", Hispanic}} {
		got, err := ParseRace(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseRace(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if _, err := ParseRace("Jewish"); err == nil {
		t.Error("ParseRace accepted a race outside the design")
	}
	if g, err := ParseGender("Non-Binary"); err != nil || g != NonBinary {
		t.Errorf("ParseGender(Non-Binary) = %v, %v", g, err)
	}
	for _, bad := range []float64{25, 110, 10, 20.5} {
		if _, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%v) accepted", bad)
		}
	}
	if a, err := ParseAge(20.0); err != nil || a != 20 {
		t.Errorf("ParseAge(20.0) = %v, %v", a, err)
	}
}

func TestCellsOrderAndAnchors(t *testing.T) {
	cells := Cells()
	if len(cells) != NumCells {
		t.Fatalf("%d cells", len(cells))
	}
	seen := map[string]bool{}
	for i, c := range cells {
		if c.Index() != i {
			t.Errorf("cell %v has index %d, position %d", c, c.Index(), i)
		}
		if seen[c.Anchor()] {
			t.Errorf("duplicate anchor %s", c.Anchor())
		}
		seen[c.Anchor()] = true
	}
	if got := Baseline.Anchor(); got != "age-60-male-white" {
		t.Errorf("baseline anchor %q", got)
	}
	// The dataset's first rows: age 20 female white, Black, ….
	if cells[0] != (Cell{20, Female, White}) || cells[1] != (Cell{20, Female, Black}) || cells[5] != (Cell{20, Male, White}) {
		t.Errorf("order differs from the dataset: %v %v %v", cells[0], cells[1], cells[5])
	}
}

func TestRowCoding(t *testing.T) {
	x := make([]float64, NumFixed)
	Row(x, 0.5, NonBinary, NativeAmerican)
	want := []float64{1, 0.5, 0, 1, 0, 0, 0, 1}
	for i := range want {
		if x[i] != want[i] {
			t.Fatalf("Row = %v, want %v", x, want)
		}
	}
	Row(x, 0, Male, White)
	for i, v := range x[1:] {
		if v != 0 {
			t.Fatalf("baseline row has column %d = %v", i+1, v)
		}
	}
}

func TestFavours(t *testing.T) {
	if got := CoefBlack.Favours(0.42); got != "favours Black over white" {
		t.Error(got)
	}
	if got := CoefFemale.Favours(-0.1); got != "favours male over female" {
		t.Error(got)
	}
	if got := CoefAge.Favours(-0.3); got != "favours younger people" {
		t.Error(got)
	}
}
