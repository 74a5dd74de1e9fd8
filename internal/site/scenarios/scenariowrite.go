package scenarios

// The scenario pages' writer. A run has 70 of them, most of a site's
// files: they are written in Go, minified as the minifier would leave them,
// instead of executed from a template and minified one by one; the parts
// that show text from the inputs are still html/template's
// (templates/scenario.html), rendered once a run or a question.
// TestScenarioPagesAsTemplate holds the pages to what the page's template
// and the minifier made of them.

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/discrimeval/leaderboard/internal/run"
	"github.com/discrimeval/leaderboard/internal/site/grid"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/render"
)

// scenarioParts are the templates of scenario.html that a scenario page's
// writer renders on their own, with the page's data (checked as the
// kind's template is: TestTemplatesTypeCheck). Each shows only what a
// run's pages share, but for the question's number (found by rendering
// questions 1 and 2), the heading (rendered for each question) and the
// cells (for each page).
var ScenarioParts = []string{"scenario-crumbs", "scenario-heading", "scenario-nobase", "scenario-caption", "scenario-legend", "scenario-files", "scenario-cells"}

// scenarioRun is what a run's scenario pages share, made by the first of
// them to be rendered: minified HTML, each part rendered with
// html/template as the page's template once was, with the page's data.
// Text from the inputs (the model's name, its manifest's, the site's,
// the dataset's) reaches the page only through these parts. A page is, in
// order (* marks what Go writes):
//
//	before     the layout up to main's mark: head, title, header,
//	           navigation, banner
//	crumbs     "scenario-crumbs"
//	heading    "scenario-heading", once a question (scenarioHeading)
//	*          the links to the next and previous questions, prompts
//	           and compare pages; the question's coefficients
//	nobase     "scenario-nobase", on a question without the baseline
//	*          the note on answer mass, the table
//	caption    "scenario-caption", then * its notes, the grid
//	legend     "scenario-legend"
//	*          the count of transcripts
//	files      "scenario-files", from after its "<p>"
//	*          the cell view's box
//	cells      "scenario-cells", the page's own
//	after      the layout after main's mark: footer, scripts
//
// before, crumbs and after hold the question's number, in qText.
type ScenarioRun struct {
	once                           sync.Once
	err                            error
	before, crumbs, after          qText
	nobase, caption, legend, files []byte
}

// get makes the run's parts from one of its pages, the first time.
func (s *ScenarioRun) Get(r *render.Renderer, p *layout.Page) (*ScenarioRun, error) {
	s.once.Do(func() { s.err = s.make(r, p) })
	return s, s.err
}

// scenarioMain is main's mark in the layout as the minifier writes it;
// it stands where a page's body starts (a <p>, as the crumbs) and leaves
// the minified layout around it as it is around the body.
const scenarioMain = "<p id=scenario-main>"

func (s *ScenarioRun) make(r *render.Renderer, p *layout.Page) error {
	// The question's number: each part that shows it rendered for
	// questions 1 and 2, which differ only there.
	var frames, crumbs [2][]byte
	for i := range 2 {
		q := i + 1
		d := p.Body.(ScenarioData)
		d.Q, d.PromptData = q, grid.PromptDataPath(d.Variant, q)
		pq := &layout.Page{Path: p.Path, Title: scenarioTitle(d.Model, d.Variant, q), Section: p.Section, Body: d}
		var err error
		if frames[i], err = r.Minified(pq, ""); err != nil {
			return err
		}
		if crumbs[i], err = r.Minified(pq, "scenario-crumbs"); err != nil {
			return err
		}
	}
	frame, err := splitQ(frames[0], frames[1])
	if err == nil {
		s.before, s.after, err = frame.cut(scenarioMain, "</p>")
	}
	if err == nil {
		s.crumbs, err = splitQ(crumbs[0], crumbs[1])
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	for _, part := range []struct {
		name string
		out  *[]byte
	}{{"scenario-nobase", &s.nobase}, {"scenario-caption", &s.caption}, {"scenario-legend", &s.legend}, {"scenario-files", &s.files}} {
		if *part.out, err = r.Minified(p, part.name); err != nil {
			return err
		}
	}
	// The caption goes on with the page's notes, the files after the
	// page's count of transcripts.
	var ok1, ok2 bool
	s.caption, ok1 = bytes.CutSuffix(s.caption, []byte("</caption>"))
	s.files, ok2 = bytes.CutPrefix(s.files, []byte("<p>"))
	if !ok1 || !ok2 {
		return fmt.Errorf("%s: scenario-caption or scenario-files minified as %q, %q", p.Path, s.caption, s.files)
	}
	return nil
}

// scenarioTitle is a scenario page's title.
func scenarioTitle(model string, variant run.Variant, q int) string {
	return fmt.Sprintf("Question %d · %s · %s", q, model, variant)
}

// scenario writes a scenario page from its run's parts.
func WriteScenario(r *render.Renderer, run *ScenarioRun, p *layout.Page) (outdir.File, error) {
	if r.Stopped.Load() {
		return outdir.File{}, render.ErrStopped
	}
	s, err := run.Get(r, p)
	if err != nil {
		return outdir.File{}, err
	}
	heading, err := scenarioHeading(r, p)
	if err != nil {
		return outdir.File{}, err
	}
	cells, err := cellsScript(r, p)
	if err != nil {
		return outdir.File{}, err
	}
	d := p.Body.(ScenarioData)
	q := strconv.Itoa(d.Q)
	b := make([]byte, 0, 8<<10)
	b = s.before.appendTo(b, q)
	b = s.crumbs.appendTo(b, q)
	b = append(b, heading...)
	b = d.appendLinks(b, p.Path)
	if d.NoBaseline {
		b = append(b, s.nobase...)
	}
	if d.AllLow {
		b = append(b, "<p class=warn>Every variant’s answer mass P(yes)+P(no) on this question is under "...)
		b = append(append(append(b, d.MinMass...), " ("...), d.LowRange...)
		b = append(b, "): the model often answers something other than yes or no."...)
	}
	b = d.appendGrid(b, s.caption)
	b = append(b, s.legend...)
	b = append(b, "<p>"...)
	if d.Stored > 0 {
		b = strconv.AppendInt(append(b, "Transcripts kept by the run: "...), int64(d.Stored), 10)
		b = append(b, " of the variants, linked in their cells. "...)
	}
	b = append(b, s.files...)
	b = append(b, `<div id=cv class=cell-view></div><script type=application/json id=cv-data>`...)
	b = append(append(b, cells...), "</script>"...)
	b = s.after.appendTo(b, q)
	return outdir.File{Path: p.Path, Data: b}, nil
}

// appendLinks writes the links to the previous and next questions and to
// the question's prompt and compare pages, and the question's
// coefficients.
func (d *ScenarioData) appendLinks(b []byte, from string) []byte {
	rel := func(b []byte, to string) []byte { return append(b, paths.RelPath(from, to)...) }
	b = append(b, "<p class=pager>"...)
	if d.Prev != "" {
		b = rel(append(b, "<a href="...), d.Prev)
		b = append(b, " rel=prev>← previous question</a> "...)
	}
	b = rel(append(b, "<a href="...), d.PromptHref)
	b = rel(append(b, ">full prompts</a> · <a href="...), d.CompareHref)
	b = append(b, ">all runs on these prompts</a>"...)
	if d.Next != "" {
		b = rel(append(b, " <a href="...), d.Next)
		b = append(b, " rel=next>next question →</a>"...)
	}
	if len(d.Coefs) > 0 {
		b = append(b, "<p class=qcoefs>This scenario’s own coefficients: "...)
		for i, c := range d.Coefs {
			if i > 0 {
				b = append(b, " · "...)
			}
			b = append(append(append(b, c.Name...), ' '), c.Value...)
		}
	}
	return b
}

// appendGrid writes the table: the run's caption and the page's notes to
// it, the headings and the grid.
func (d *ScenarioData) appendGrid(b, caption []byte) []byte {
	b = append(b, "<div class=table-wrap tabindex=0><table class="...)
	if d.Common != "" {
		b = append(append(append(b, `"grid `...), d.Common...), '"')
	} else {
		b = append(b, "grid"...)
	}
	b = append(append(b, '>'), caption...)
	if d.Decision {
		if d.Unparsed > 0 {
			b = append(b, " “2 unparsed”: sampled answers neither yes nor no, shown in the transcript."...)
		}
	} else if d.LowMarked > 0 {
		b = append(b, " “mass 0.953”: answer mass P(yes)+P(no) under "...)
		b = append(append(b, d.MinMass...), ", the paper’s minimum for a run’s mean."...)
	}
	if d.Differs > 0 {
		b = append(b, " “prompt differs”: the run sent a text other than the prompt page’s."...)
	}
	b = append(b, "</caption><thead><tr><th scope=col rowspan=2>Age"...)
	for _, h := range d.Heads {
		b = strconv.AppendInt(append(b, "<th scope=colgroup colspan="...), int64(d.RaceCols), 10)
		b = append(append(b, '>'), h.Gender...)
	}
	b = append(b, "<tr>"...)
	for _, h := range d.Heads {
		for _, race := range h.Races {
			b = append(append(b, "<th>"...), race...)
		}
	}
	b = append(b, "<tbody>"...)
	for _, row := range d.Grid {
		b = row.AppendHTML(b)
	}
	return append(b, "</table></div>"...)
}

// scenarioHeading is a question's heading (scenario-heading), rendered once for
// all runs of a variant with the same title.
func scenarioHeading(r *render.Renderer, p *layout.Page) ([]byte, error) {
	d := p.Body.(ScenarioData)
	return r.Once(headingKey{d.Variant, d.Q, d.Title}, func() ([]byte, error) { return r.Minified(p, "scenario-heading") })
}

type headingKey struct {
	variant run.Variant
	q       int
	title   string
}

// cellsScript is the content of a page's script of its cells' data
// (scenario-cells): the JSON html/template writes there, which the
// minifier leaves as it is.
func cellsScript(r *render.Renderer, p *layout.Page) ([]byte, error) {
	buf := render.ExecBuffers.Get().(*bytes.Buffer)
	defer render.ExecBuffers.Put(buf)
	buf.Reset()
	if err := r.Execute(buf, p, "scenario-cells"); err != nil {
		return nil, err
	}
	const open, end = `<script type="application/json" id="cv-data">`, `</script>`
	js, ok := bytes.CutPrefix(buf.Bytes(), []byte(open))
	if js, ok2 := bytes.CutSuffix(js, []byte(end)); ok && ok2 {
		return bytes.Clone(js), nil
	}
	return nil, fmt.Errorf("%s: scenario-cells wrote %.100q", p.Path, buf.Bytes())
}

// qText is minified HTML with the places where a question's number goes:
// parts[0], the number, parts[1], …
type qText [][]byte

func (t qText) appendTo(b []byte, q string) []byte {
	for i, part := range t {
		if i > 0 {
			b = append(b, q...)
		}
		b = append(b, part...)
	}
	return b
}

// splitQ finds the question's number in the same HTML rendered for
// questions 1 and 2: where, and only where, the two differ.
func splitQ(one, two []byte) (qText, error) {
	if len(one) != len(two) {
		return nil, fmt.Errorf("questions 1 and 2 rendered in %d and %d bytes", len(one), len(two))
	}
	var t qText
	last := 0
	for i := range one {
		if one[i] == two[i] {
			continue
		}
		if one[i] != '1' || two[i] != '2' {
			return nil, fmt.Errorf("questions 1 and 2 rendered with %q and %q at byte %d", one[i], two[i], i)
		}
		t, last = append(t, one[last:i]), i+1
	}
	return append(t, one[last:]), nil
}

// cut splits t at its one mark (which input text cannot write: it
// starts a tag), leaving out the mark and the end tag that may follow it.
func (t qText) cut(mark, end string) (before, after qText, err error) {
	n := 0
	for _, part := range t {
		n += bytes.Count(part, []byte(mark))
	}
	for i, part := range t {
		j := bytes.Index(part, []byte(mark))
		if j < 0 || n != 1 {
			continue
		}
		rest, _ := bytes.CutPrefix(part[j+len(mark):], []byte(end))
		before = append(slices.Clone(t[:i]), part[:j])
		after = append(qText{rest}, t[i+1:]...)
		return before, after, nil
	}
	return nil, nil, fmt.Errorf("the layout holds %q %d times, not once", mark, n)
}
