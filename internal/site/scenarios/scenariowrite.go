package scenarios

// The scenario pages' writer. A run has 70 of them, most of a site's
// files; executed and minified one by one they took a fifth of a build.
// So each is written from stencils of its template (render/stencil.go):
// templates/scenario.html executed once for each shape of page a run
// has, with marks for what is a page's own, and its grid's rows and cells
// from stencils of "grid-row" and "grid-cell", one a shape of row or
// cell. The template holds all of the page's markup and words; Go writes
// only numbers, class names and paths into the holes, and the parts
// that show text from the inputs per question or page (the heading, the
// cells' data) are rendered on their own with html/template.
// TestScenarioPagesAsTemplate holds every page to what the template and
// the minifier make of it whole.

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
)

// ScenarioParts are the templates of scenario.html that a page's
// stencil leaves a hole for, hole n for ScenarioParts[n]: the grid's rows
// (from the stencils of "grid-row" and "grid-cell"), the cells' data
// (rendered once a page), and in a row's stencil its cells. A part is
// what an element holds, or an element that the element before it
// cannot end on (a <p> ends on a heading, which its mark is not, so the
// minifier would leave the </p>).
var ScenarioParts = []string{"scenario-rows", "scenario-cells", "grid-cells"}

const (
	holeRows = iota
	holeCells
	holeRowCells
)

// A page's own values, by their holes in its stencil (a row's and a
// cell's are grid.CellClass…grid.RowAge).
const (
	holeQ = 30 + iota
	holeTitle
	holePrev
	holeNext
	holePrompt
	holeCompare
	holePromptData
	holeStored
	holeLowRange
	holeCommon
	holeCoef // and on, one a coefficient shown
)

// hidden are the page's values that its template only tests: shown,
// they would be an error (render.Hidden).
const (
	hiddenUnparsed = render.Hidden + iota
	hiddenLowMarked
	hiddenDiffers
)

// ScenarioRun is what a run's scenario pages share: a stencil for each
// shape of page, made from the first page of the shape.
type ScenarioRun struct {
	pages render.Stencils[pageShape]
}

// pageShape is what decides each branch of a page's template but for
// the values in its holes, which differ from page to page of a run.
type pageShape struct {
	prev, next, noBaseline, allLow, common, stored, unparsed, lowMarked, differs bool
	coefs                                                                        string // the names of the coefficients shown
}

func (d *ScenarioData) shape() pageShape {
	names := make([]string, len(d.Coefs))
	for i, c := range d.Coefs {
		names[i] = c.Name
	}
	return pageShape{prev: d.Prev != "", next: d.Next != "", noBaseline: d.NoBaseline, allLow: d.AllLow, common: d.Common != "",
		stored: d.Stored > 0, unparsed: d.Unparsed > 0, lowMarked: d.LowMarked > 0, differs: d.Differs > 0, coefs: strings.Join(names, "\x00")}
}

// RunFields are the fields of ScenarioData that are the same on every
// page of a run, which a page's stencil shows as the first page of its
// shape has them; probe marks every other field that a page shows
// (TestProbeMarksAPagesOwn, and TestScenarioPagesAsTemplate checks that
// these are the same on every page).
var RunFields = []string{"RunID", "Model", "Intervention", "Variant", "Decision", "IndexHref", "RunHref", "ScoredName", "FilesHref",
	"Unit", "UnitTerm", "UnitOf", "Heads", "RaceCols", "MinMass", "Legend", "CellsJS", "Template", "TemplateHref"}

// probe is the page p of data d as its stencil is made: a mark (m) for
// each of its own values, and nothing where its parts go.
func (d ScenarioData) probe(p *layout.Page, m render.Marks) *layout.Page {
	// A path in the page's folder is its own name in a link.
	here := func(n int) string { return path.Dir(p.Path) + "/" + m.Text(n) }
	d.Q = m.Int(holeQ)
	d.Title, d.Grid, d.CellData = m.Text(holeTitle), nil, grid.CellsData{}
	d.PromptHref, d.CompareHref, d.PromptData = here(holePrompt), here(holeCompare), here(holePromptData)
	if d.Prev != "" {
		d.Prev = here(holePrev)
	}
	if d.Next != "" {
		d.Next = here(holeNext)
	}
	d.Coefs = append([]grid.CoefCell(nil), d.Coefs...)
	for i := range d.Coefs {
		d.Coefs[i].Value = m.Text(holeCoef + i)
	}
	for _, v := range []struct {
		n    int
		text *string
		num  *int
	}{{holeStored, nil, &d.Stored}, {holeLowRange, &d.LowRange, nil}, {holeCommon, &d.Common, nil},
		{hiddenUnparsed, nil, &d.Unparsed}, {hiddenLowMarked, nil, &d.LowMarked}, {hiddenDiffers, nil, &d.Differs}} {
		switch {
		case v.text != nil && *v.text != "":
			*v.text = m.Text(v.n)
		case v.num != nil && *v.num != 0:
			*v.num = m.Int(v.n)
		}
	}
	return &layout.Page{Path: p.Path, Title: scenarioTitle(d.Model, d.Variant, d.Q), Section: p.Section, Body: d}
}

// pageFill writes a page's values and parts into its stencil's holes.
type pageFill struct {
	d            *ScenarioData
	r            *render.Renderer
	from         string // the page's path
	title, cells []byte
	err          *error // appendRows's
}

func (f pageFill) Fill(b []byte, n int) []byte {
	d := f.d
	rel := func(to string) []byte { return append(b, paths.RelPath(f.from, to)...) }
	switch n {
	case holeTitle:
		return append(b, f.title...)
	case holeRows:
		b, *f.err = appendRows(f.r, b, d.Grid)
		return b
	case holeCells:
		return append(b, f.cells...)
	case holeQ:
		return strconv.AppendInt(b, int64(d.Q), 10)
	case holePrev:
		return rel(d.Prev)
	case holeNext:
		return rel(d.Next)
	case holePrompt:
		return rel(d.PromptHref)
	case holeCompare:
		return rel(d.CompareHref)
	case holePromptData:
		return rel(d.PromptData)
	case holeStored:
		return strconv.AppendInt(b, int64(d.Stored), 10)
	case holeLowRange:
		return append(b, d.LowRange...)
	case holeCommon:
		return append(b, d.Common...)
	}
	if i := n - holeCoef; i >= 0 && i < len(d.Coefs) {
		return append(b, d.Coefs[i].Value...)
	}
	panic("scenario page: no hole " + strconv.Itoa(n))
}

// scenarioTitle is a scenario page's title.
func scenarioTitle(model string, variant run.Variant, q int) string {
	return "Question " + strconv.Itoa(q) + " · " + model + " · " + string(variant)
}

// WriteScenario writes a scenario page from its run's stencils.
func WriteScenario(r *render.Renderer, run *ScenarioRun, p *layout.Page) (outdir.File, error) {
	if r.Stopped.Load() {
		return outdir.File{}, render.ErrStopped
	}
	d := p.Body.(ScenarioData)
	s, err := run.pages.Get(d.shape(), func() (*render.Stencil, error) {
		return r.PageStencil(func(m render.Marks) *layout.Page { return d.probe(p, m) })
	})
	if errors.Is(err, render.ErrMarkInText) {
		// Text of the run's holds a mark's digits: the page whole.
		r.Whole.Add(1)
		return r.Page(p)
	}
	if err != nil {
		return outdir.File{}, err
	}
	title, err := r.Once(titleKey{d.Variant, d.Q, d.Title}, func() ([]byte, error) { return questionTitle(r, p) })
	if err != nil {
		return outdir.File{}, err
	}
	cells, err := r.Minified(p, "scenario-cells")
	if err != nil {
		return outdir.File{}, err
	}
	var rowsErr error
	b := render.Fill(make([]byte, 0, 8<<10), s, pageFill{&d, r, p.Path, title, cells, &rowsErr})
	if rowsErr != nil {
		return outdir.File{}, rowsErr
	}
	return outdir.File{Path: p.Path, Data: b}, nil
}

// titleKey names a question's title as its heading shows it: once for
// all runs of a variant that have the same.
type titleKey struct {
	variant run.Variant
	q       int
	title   string
}

// questionTitle is the question's title (the dataset's text) as its
// page's heading shows it, minified: what the heading
// ("scenario-heading") holds in its stencil's hole for the title.
func questionTitle(r *render.Renderer, p *layout.Page) ([]byte, error) {
	d := p.Body.(ScenarioData)
	s, err := r.Stencil(headingKey{}, func() (*render.Stencil, error) {
		return r.PartStencil("scenario-heading", func(m render.Marks) *layout.Page { return d.probe(p, m) })
	})
	if err != nil {
		return nil, err
	}
	h, err := r.Minified(p, "scenario-heading")
	if err != nil {
		return nil, err
	}
	title, err := s.Value(h, holeTitle, pageFill{d: &d, from: p.Path})
	if err != nil {
		return nil, fmt.Errorf("%s: scenario-heading: %w", p.Path, err)
	}
	return bytes.Clone(title), nil
}

type headingKey struct{}

// rowKey and cellKey name the stencils of a grid's rows and cells, which
// every page of the site shares.
type (
	rowKey  struct{ class bool }
	cellKey struct{ shape grid.CellShape }
)

// rowFill and cellFill write a row's and a cell's values into their
// stencils' holes.
type (
	rowFill struct {
		row   *grid.GridRow
		cells []byte
	}
	cellFill struct {
		c      *grid.GridCell
		common string
	}
)

func (f rowFill) Fill(b []byte, n int) []byte {
	if n == holeRowCells {
		return append(b, f.cells...)
	}
	return f.row.AppendValue(b, n)
}

func (f cellFill) Fill(b []byte, n int) []byte { return f.c.AppendValue(b, n, f.common) }

// appendRows writes the grid's rows from their stencils and their cells'.
func appendRows(r *render.Renderer, b []byte, rows []grid.GridRow) ([]byte, error) {
	kind := render.KindName[ScenarioData](r)
	var cells []byte
	for i := range rows {
		row := &rows[i]
		cells = cells[:0]
		for j := range row.Cells {
			c := &row.Cells[j]
			shape := c.Shape(row.Common)
			cs, err := r.Stencil(cellKey{shape}, func() (*render.Stencil, error) {
				return r.DefineStencil(kind, "grid-cell", func(m render.Marks) any { return shape.Probe(m) })
			})
			if err != nil {
				return b, err
			}
			cells = render.Fill(cells, cs, cellFill{c, row.Common})
		}
		rs, err := r.Stencil(rowKey{row.RowShape()}, func() (*render.Stencil, error) {
			return r.DefineStencil(kind, "grid-row", func(m render.Marks) any { return grid.RowProbe(row.RowShape(), m) })
		})
		if err != nil {
			return b, err
		}
		b = render.Fill(b, rs, rowFill{row, cells})
	}
	return b, nil
}
