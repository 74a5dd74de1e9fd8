package scenarios

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/templates"
)

// renderer renders the scenario pages' kind with the real templates.
func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	kinds := []render.KindInfo{render.KindOf[ScenarioData]("scenario", "", "", "", "").StencilledBy(ScenarioParts...)}
	r, err := render.NewRenderer(templates.FS, kinds, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGridStencils: every shape of grid row written from the stencils of
// "grid-row" and "grid-cell" is what those templates and the minifier
// make of the row: a cell present or missing, the baseline's or not, in
// the row's common class or not, with or without a transcript (in the
// first or a later part), a differing prompt, low answer mass and
// unparsed answers, of a log-probability and a sampled-answer run; a row
// with its own class and without.
func TestGridStencils(t *testing.T) {
	r := renderer(t)
	set := r.Sets["scenario"]
	minified := func(name string, data any) []byte {
		var exec, min bytes.Buffer
		if err := set.ExecuteTemplate(&exec, name, data); err != nil {
			t.Fatal(err)
		}
		if err := r.Min.Minify("text/html", &min, &exec); err != nil {
			t.Fatal(err)
		}
		return min.Bytes()
	}
	var cells []grid.GridCell
	i := 0
	for _, present := range []bool{true, false} {
		for _, base := range []bool{false, true} {
			for _, transcript := range []int{0, 1, 2} {
				for flags := range 16 {
					i++
					decision := flags&8 != 0
					d := score.Delta{Value: float64(i%9-4) / 3, Present: present, HasBase: i%7 != 0}
					c := grid.GridCell{Present: present, P: float64(i%100) / 100, Delta: grid.NewDeltaCell(d, decision), Base: base,
						Transcript: transcript, Q: 17, Cell: design.Cells()[i%design.NumCells], Differs: flags&1 != 0}
					if flags&2 != 0 {
						c.LowMass = 0.9531
					}
					if flags&4 != 0 {
						c.Unparsed = i % 5
					}
					cells = append(cells, c)
				}
			}
		}
	}
	shapes := map[grid.CellShape]bool{}
	for _, class := range []string{"", "r4"} {
		for _, common := range []string{"", "b4", "missing"} {
			row := grid.GridRow{Age: 60, Class: class, Common: common, Cells: cells}
			got, err := appendRows(r, nil, []grid.GridRow{row})
			if err != nil {
				t.Fatal(err)
			}
			if want := minified("grid-row", row); !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("row (class %q, common %q): stencils write\n…%s\nthe template\n…%s", class, common, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			}
			for _, c := range cells {
				shapes[c.Shape(common)] = true
			}
		}
	}
	if len(shapes) < 40 {
		t.Errorf("%d shapes of cell, want them all", len(shapes))
	}
}

// TestProbeMarksAPagesOwn: every field of ScenarioData is either the
// same on every page of a run, or one that probe marks (or empties, for
// a part): a field added for a page's own value that probe left alone
// would show the first page's value on every page of its shape.
func TestProbeMarksAPagesOwn(t *testing.T) {
	// The fields probe sets, by name; the rest must be the run's.
	own := []string{"Q", "Title", "Grid", "CellData", "PromptHref", "CompareHref", "PromptData", "Prev", "Next", "Coefs",
		"Stored", "LowRange", "Common", "Unparsed", "LowMarked", "Differs", "NoBaseline", "AllLow"}
	ty := reflect.TypeFor[ScenarioData]()
	for i := range ty.NumField() {
		f := ty.Field(i)
		if slices.Contains(own, f.Name) || slices.Contains(RunFields, f.Name) {
			continue
		}
		t.Errorf("ScenarioData.%s: neither a page's own value that probe marks nor a field of the run's (RunFields)", f.Name)
	}
	for _, name := range RunFields {
		if _, ok := ty.FieldByName(name); !ok {
			t.Errorf("RunFields names %s, which ScenarioData has not", name)
		}
	}
}
