package chart_test

import (
	"encoding/xml"
	"flag"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/discrimeval/leaderboard/internal/chart"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/")

func render(t *testing.T, f func() (template.HTML, error)) string {
	t.Helper()
	out, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestGolden(t *testing.T) {
	for name, f := range golden(t) {
		t.Run(name, func(t *testing.T) {
			got := render(t, f)
			path := filepath.Join("testdata", name+".svg")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", path, diff)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	for name, f := range golden(t) {
		if a, b := render(t, f), render(t, f); a != b {
			t.Errorf("%s: two renderings differ", name)
		}
	}
}

// element is a parsed element: its name, attributes and direct text.
type element struct {
	name  string
	attrs map[string]string
	text  string
}

// parse checks that out is well-formed XML and returns its elements in
// document order.
func parse(t *testing.T, out string) []*element {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(out))
	d.Strict = true
	var els, stack []*element
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, out)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			els, stack = append(els, e), append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
	return els
}

func TestWellFormedAndAccessible(t *testing.T) {
	for name, f := range golden(t) {
		out := render(t, f)
		els := parse(t, out)
		root := els[0]
		if root.name != "svg" || root.attrs["xmlns"] != "http://www.w3.org/2000/svg" || root.attrs["width"] != "100%" {
			t.Errorf("%s: root %s %v", name, root.name, root.attrs)
		}
		if r := root.attrs["role"]; r != "img" {
			t.Errorf("%s: role %q", name, r)
		}
		// aria-labelledby names the first two children, title and desc.
		ids := strings.Fields(root.attrs["aria-labelledby"])
		if len(ids) != 2 || els[1].name != "title" || els[1].attrs["id"] != ids[0] || els[2].name != "desc" || els[2].attrs["id"] != ids[1] {
			t.Errorf("%s: aria-labelledby %q does not point at the title and desc", name, ids)
		}
		if strings.TrimSpace(els[1].text) == "" || !strings.HasSuffix(els[2].text, ".") {
			t.Errorf("%s: title %q, desc %q", name, els[1].text, els[2].text)
		}
		seen := map[string]bool{}
		for _, e := range els {
			if id := e.attrs["id"]; id != "" {
				if seen[id] || !strings.HasPrefix(id, ids[0][:strings.Index(ids[0], "-")]+"-") {
					t.Errorf("%s: id %q repeated or not prefixed", name, id)
				}
				seen[id] = true
			}
			if fs := e.attrs["font-size"]; fs != "" {
				if v, _ := strconv.ParseFloat(fs, 64); v < 12 {
					t.Errorf("%s: font-size %s", name, fs)
				}
			}
		}
		if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
			t.Errorf("%s: NaN or Inf written", name)
		}
	}
}

// TestInsideViewBox checks every drawn coordinate lies in the viewBox, so
// no mark is cut off: the axis covers every interval end.
func TestInsideViewBox(t *testing.T) {
	for name, f := range golden(t) {
		els := parse(t, render(t, f))
		vb := strings.Fields(els[0].attrs["viewBox"])
		w, _ := strconv.ParseFloat(vb[2], 64)
		h, _ := strconv.ParseFloat(vb[3], 64)
		for _, e := range els[1:] {
			for k, v := range e.attrs {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					continue
				}
				lim := map[byte]float64{'x': w, 'c': w, 'y': h}[k[0]]
				if k == "cy" {
					lim = h
				}
				if lim > 0 && (f < 0 || f > lim) {
					t.Errorf("%s: <%s %s=%q> outside the %gx%g viewBox", name, e.name, k, v, w, h)
				}
			}
		}
	}
}

// coordRE matches every number in an attribute: all must have exactly two
// decimals (the font size and ids aside).
var coordRE = regexp.MustCompile(`\b(x|y|x1|x2|y1|y2|cx|cy|r|width|height|viewBox|points)="([^"]*)"`)

func TestFixedDecimals(t *testing.T) {
	num := regexp.MustCompile(`^-?\d+\.\d\d$`)
	for name, f := range golden(t) {
		for _, m := range coordRE.FindAllStringSubmatch(render(t, f), -1) {
			if m[1] == "width" && m[2] == "100%" {
				continue
			}
			for _, v := range strings.FieldsFunc(m[2], func(r rune) bool { return r == ' ' || r == ',' }) {
				if !num.MatchString(v) {
					t.Errorf("%s: %s=%q: %q is not written with two decimals", name, m[1], m[2], v)
				}
			}
		}
	}
}

const hostile = `</text><script>alert(1)</script>&"'<!--`

func TestHostileTextEscaped(t *testing.T) {
	d := dots()
	d.Title, d.Desc, d.Axis, d.Second = hostile, hostile, hostile, hostile
	d.Rows[0].Label = hostile
	iv := intervals()
	iv.Title, iv.Axis = hostile, hostile
	iv.Rows[0].Label = "Model " + hostile // untrusted model name; the desc is generated from it
	iv.Rows[1].Label = strings.Repeat("x", 35) + hostile
	for name, f := range map[string]func() (template.HTML, error){"dots": d.SVG, "intervals": iv.SVG} {
		out := render(t, f)
		for _, bad := range []string{"<script", "</script", "<!--", `"><script`, "</text><script"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: output contains %q unescaped", name, bad)
			}
		}
		if !strings.Contains(out, "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;") {
			t.Errorf("%s: hostile text not found escaped", name)
		}
		// The text survives intact: the escaping is exact, not lossy.
		found := false
		for _, e := range parse(t, out) {
			found = found || strings.Contains(e.text, hostile) || strings.Contains(e.attrs["aria-label"], hostile)
		}
		if !found {
			t.Errorf("%s: hostile text lost", name)
		}
	}
}

func TestControlCharactersReplaced(t *testing.T) {
	d := dots()
	d.Rows[0].Label = "a\x00b\x1bc\xffd"
	out := render(t, d.SVG)
	parse(t, out) // would fail on a raw control character
	if !strings.Contains(out, "a\uFFFDb\uFFFDc\uFFFDd") {
		t.Error("control characters and invalid UTF-8 not replaced by U+FFFD")
	}
}

func TestInvalidInput(t *testing.T) {
	d := dots()
	d.Rows[2].Estimate = chart.Interval{Value: 0.4, Lo: 0.5, Hi: 0.3}
	badID := dots()
	badID.ID = `x" onload="alert(1)`
	huge := dots()
	huge.Rows[0].Estimate.Hi = 1e300
	order := intervals()
	order.Rows[0].Rank = 3
	cases := map[string]func() (template.HTML, error){
		"reversed interval": d.SVG,
		"bad id":            badID.SVG,
		"empty id":          chart.DotPlot{Rows: dots().Rows}.SVG,
		"huge value":        huge.SVG,
		"rank order":        order.SVG,
	}
	for name, f := range cases {
		if out, err := f(); err == nil {
			t.Errorf("%s: no error; got %.80s…", name, out)
		}
	}
}

func TestEmpty(t *testing.T) {
	for name, f := range map[string]func() (template.HTML, error){
		"dots":      chart.DotPlot{ID: "a"}.SVG,
		"intervals": chart.IntervalPlot{ID: "b"}.SVG,
	} {
		out := render(t, f)
		els := parse(t, out)
		if !strings.Contains(els[0].attrs["class"], "chart-nodata") || els[2].text != "No data to chart." || !strings.Contains(out, ">No data</text>") {
			t.Errorf("%s: not a no-data chart:\n%s", name, out)
		}
	}
}

func TestNaN(t *testing.T) {
	// A dot plot row with no estimate says n/a; one with no interval has a
	// dot and no bar.
	out := render(t, dotsEdge().SVG)
	if strings.Count(out, ">n/a</text>") != 1 {
		t.Error("dot plot: want one n/a row")
	}
	// Every row NaN still draws, with the axis from 0.
	all := chart.DotPlot{ID: "nan", Rows: []chart.DotRow{{Label: "Age", Estimate: chart.Interval{Value: nan, Lo: nan, Hi: nan}}}}
	if out := render(t, all.SVG); !strings.Contains(out, "none with an estimate") || strings.Contains(out, "NaN") {
		t.Errorf("all-NaN dot plot:\n%s", out)
	}
	inf := chart.IntervalPlot{ID: "inf", Rows: []chart.IntervalRow{{Label: "A", Rank: 1, Estimate: chart.Interval{Value: 0.2, Lo: math.Inf(-1), Hi: math.Inf(1)}}}}
	if out := render(t, inf.SVG); strings.Contains(out, "Inf") {
		t.Errorf("infinite interval written:\n%s", out)
	}
}

func TestDotPlotSigns(t *testing.T) {
	out := render(t, dots().SVG)
	// Six positive rows and one negative, plus one of each in the legend.
	if got := strings.Count(out, `<g class="chart-pos"`); got != 7 {
		t.Errorf("%d chart-pos groups, want 7", got)
	}
	if got := strings.Count(out, `<g class="chart-neg"`); got != 2 {
		t.Errorf("%d chart-neg groups, want 2", got)
	}
	// Not by colour alone: negative dots are hollow and values are signed.
	if !strings.Contains(out, ">−0.21</text>") || !strings.Contains(out, ">+0.55</text>") {
		t.Error("signed values missing")
	}
	neg := out[strings.LastIndex(out, `<g class="chart-neg"`):]
	neg = neg[:strings.Index(neg, "</g>")]
	if !strings.Contains(neg, `fill="none"`) {
		t.Errorf("negative dot not hollow: %s", neg)
	}
	if got := strings.Count(out, `class="chart-second"`); got != 8 {
		t.Errorf("%d diamonds, want 7 and the legend's", got)
	}
	edge := render(t, dotsEdge().SVG)
	if !strings.Contains(edge, `<g class="chart-neutral">`) {
		t.Error("an estimate displayed as 0.00 is not neutral")
	}
	for _, want := range []string{"7 of 7 estimates shown, from −0.21 (Age (per SD of age)) to +0.55 (Native American vs white), in logits; 6 of 7 95% intervals exclude zero."} {
		if !strings.Contains(out, want) {
			t.Errorf("desc: want %q", want)
		}
	}
}

// tickValues reads the x-axis tick labels back from a chart.
func tickValues(t *testing.T, out string) []float64 {
	t.Helper()
	var vals []float64
	els := parse(t, out)
	for i, e := range els {
		// A tick label is the text right after a 5-unit axis tick.
		if e.name == "text" && i > 0 && els[i-1].attrs["class"] == "chart-axis" && els[i-1].attrs["x1"] == els[i-1].attrs["x2"] {
			v, err := strconv.ParseFloat(strings.NewReplacer("−", "-", "+", "").Replace(e.text), 64)
			if err != nil {
				t.Fatalf("tick label %q: %v", e.text, err)
			}
			vals = append(vals, v)
		}
	}
	return vals
}

func TestAxisTicks(t *testing.T) {
	for name, c := range map[string]struct {
		f      func() (template.HTML, error)
		values []float64
	}{
		"dots":      {dots().SVG, ends(dots())},
		"dots_edge": {dotsEdge().SVG, ends(dotsEdge())},
		"intervals": {intervals().SVG, []float64{0.01, 0.66}},
	} {
		vals := tickValues(t, render(t, c.f))
		if len(vals) < 3 || !slices.Contains(vals, 0) || !slices.IsSorted(vals) {
			t.Errorf("%s: ticks %v: want sorted, with 0", name, vals)
			continue
		}
		lo, hi := slices.Min(c.values), slices.Max(c.values)
		if vals[0] > lo || vals[len(vals)-1] < hi {
			t.Errorf("%s: ticks %v do not cover [%g, %g]", name, vals, lo, hi)
		}
	}
	// The interval plot's axis starts at zero.
	if vals := tickValues(t, render(t, intervals().SVG)); vals[0] != 0 {
		t.Errorf("interval plot starts at %g", vals[0])
	}
}

// ends lists every finite interval end, estimate and second value.
func ends(p chart.DotPlot) []float64 {
	var out []float64
	for _, r := range p.Rows {
		for _, v := range []float64{r.Estimate.Value, r.Estimate.Lo, r.Estimate.Hi, r.Second} {
			if !math.IsNaN(v) && (v != r.Second || p.Second != "") {
				out = append(out, v)
			}
		}
	}
	return out
}

func TestIntervalPlotTiesAndLabels(t *testing.T) {
	p := intervals()
	out := render(t, p.SVG)
	if got := strings.Count(out, `class="chart-tie">=2</text>`); got != 2 {
		t.Errorf("%d tied rank marks, want 2", got)
	}
	// Labels are shown in full where they fit: a label too long to fit
	// beside the scale puts every label on a line above its interval, cut
	// only at the width of the chart.
	if full := p.Rows[1].Label; !strings.Contains(out, ">"+full+"</text>") {
		t.Errorf("label %q not shown in full", full)
	}
	long := p.Rows[3].Label
	cut := []rune(long)[:83] // (720 − 12 − 52) / 7.8 characters fit, the last is the ellipsis
	if !strings.Contains(out, ">"+string(cut)+"…</text>") {
		t.Errorf("a label longer than the chart is not cut at its width")
	}
	// The phone layout keeps the full label too, on its own line above
	// the interval, in a chart half as wide.
	narrow := p
	narrow.Narrow = true
	if n := render(t, narrow.SVG); !strings.Contains(n, ">"+p.Rows[1].Label+"</text>") || !strings.Contains(n, `viewBox="0.00 0.00 360.00 `) {
		t.Errorf("narrow plot: label not in full or not 360 wide")
	}
	if !strings.Contains(out, "<title>Rank 4: "+long+": 0.11, 95% interval [0.06, 0.17]</title>") {
		t.Errorf("full label not kept in a title")
	}
	p.MaxLabel = 10
	if out := render(t, p.SVG); !strings.Contains(out, ">Alpha 70B…</text>") {
		t.Errorf("MaxLabel 10 not applied")
	}
	for _, want := range []string{"7 runs in rank order; estimates from 0.04 (Alpha 70B · default, rank 1) to 0.48 (Eta 1B · default, rank 7), in mean |coefficient|, logits; 2 share a rank with another run."} {
		if !strings.Contains(out, want) {
			t.Errorf("desc: want %q", want)
		}
	}
}

func TestLongLabelsCut(t *testing.T) {
	d := render(t, dotsEdge().SVG)
	if !strings.Contains(d, "<g><title>Native American vs white, implicit (names only), second batch</title>") ||
		!strings.Contains(d, ">Native American vs white, impli…</text>") {
		t.Error("dot plot: long label not cut to 32 characters with its full text in a title")
	}
}

func TestBucket(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want int
	}{
		{0, 4}, {0.0999, 4}, {-0.0999, 4}, {0.1, 5}, {-0.1, 3}, {0.4999, 5}, {0.5, 6}, {-0.5, 2},
		{0.99, 6}, {1, 7}, {-1, 1}, {1.49, 7}, {1.5, 8}, {-1.5, 0}, {40, 8}, {-40, 0},
		{nan, -1}, {math.Inf(1), -1},
	} {
		if got := chart.Bucket(c.v); got != c.want {
			t.Errorf("Bucket(%g) = %d, want %d", c.v, got, c.want)
		}
	}
}

// TestDotIncludeSharesScale: two plots given the same Include values draw
// the same axis whatever their own data, and a value out of range is
// refused.
func TestDotIncludeSharesScale(t *testing.T) {
	ticks := regexp.MustCompile(`<text x="[0-9.]+" y="[0-9.]+" text-anchor="middle"[^>]*>([^<]+)</text>`)
	axis := func(rows []chart.DotRow, include []float64) []string {
		svg, err := chart.DotPlot{ID: "a", Rows: rows, Include: include}.SVG()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ticks.FindAllStringSubmatch(string(svg), -1) {
			out = append(out, m[1])
		}
		return out
	}
	small := []chart.DotRow{{Label: "a", Estimate: chart.Interval{Value: 0.1, Lo: 0.05, Hi: 0.15}}}
	large := []chart.DotRow{{Label: "b", Estimate: chart.Interval{Value: -0.8, Lo: -1.1, Hi: -0.5}}}
	if a, b := axis(small, nil), axis(large, nil); slices.Equal(a, b) {
		t.Fatalf("the fixtures draw the same axis on their own: %v", a)
	}
	inc := []float64{-1.1, 0.15}
	if a, b := axis(small, inc), axis(large, inc); !slices.Equal(a, b) || len(a) < 3 {
		t.Errorf("with the same Include the axes differ: %v and %v", a, b)
	}
	if _, err := (chart.DotPlot{ID: "a", Rows: small, Include: []float64{math.NaN()}}).SVG(); err == nil {
		t.Error("a NaN axis value was accepted")
	}
}

// TestDotNarrowFits: the narrow dot plot is DotNarrowWidth wide, and no
// piece of its text (at the 0.6 em the layout assumes, 13 units) leaves
// the viewBox or runs into another on the same line: the labels and
// values on their own line, the axis's direction hints on two lines when
// they would collide. Labels of up to 28 characters are not cut.
func TestDotNarrowFits(t *testing.T) {
	p := dots()
	p.Narrow = true
	p.Rows[0].Label = "Synthetic Skew 13B (sampled)" // 28 characters
	p.Rows[1].Label = "A model whose name is far too long for one line"
	p.Include = []float64{-0.6, 1.6}
	out := render(t, p.SVG)
	if !strings.Contains(out, `class="chart chart-dots-narrow"`) || !strings.Contains(out, `viewBox="0.00 0.00 300.00 `) {
		t.Fatalf("not a 300-unit narrow dot plot: %.300s", out)
	}
	if !strings.Contains(out, ">Synthetic Skew 13B (sampled)</text>") {
		t.Error("a 28-character label is cut")
	}
	re := regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)"(?: text-anchor="(\w+)")?[^>]*>([^<]+)</text>`)
	type span struct {
		a, b float64
		tick bool
	}
	lines := map[string][]span{}
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		w := float64(len([]rune(m[4]))) * 13 * 0.6
		a := map[string]float64{"": x, "start": x, "middle": x - w/2, "end": x - w}[m[3]]
		if a < 0 || a+w > chart.DotNarrowWidth {
			t.Errorf("%q spans %.1f to %.1f, outside 0 to %d", m[4], a, a+w, chart.DotNarrowWidth)
		}
		tick := regexp.MustCompile(`^[−+]?[0-9.]+$`).MatchString(m[4])
		for _, o := range lines[m[2]] {
			if a < o.b && o.a < a+w && !(tick && o.tick) {
				t.Errorf("%q (%.1f to %.1f) runs into another text on the line y=%s", m[4], a, a+w, m[2])
			}
		}
		lines[m[2]] = append(lines[m[2]], span{a, a + w, tick})
	}
	if n := strings.Count(out, "favours baseline") + strings.Count(out, "favours group"); n < 4 {
		t.Errorf("%d direction words (legend and hints), want 4", n)
	}
}

// TestTimePlot: one dot per run with its run id, a title on the wide
// layout's dots only, the frontier's runs named and the others not, and
// what the plot cannot draw refused.
func TestTimePlot(t *testing.T) {
	p := timePoints()
	wide := render(t, p.SVG)
	p.Narrow = true
	narrow := render(t, p.SVG)
	for name, out := range map[string]string{"wide": wide, "narrow": narrow} {
		var dots, titled int
		runs := map[string]bool{}
		for _, e := range parse(t, out) {
			if e.name == "circle" && e.attrs["data-run"] != "" {
				dots++
				runs[e.attrs["data-run"]] = true
			}
			if e.name == "title" && strings.Contains(e.text, ", released ") {
				titled++
			}
		}
		if dots != len(p.Points) || len(runs) != len(p.Points) {
			t.Errorf("%s: %d dots of %d runs, want one per run (%d)", name, dots, len(runs), len(p.Points))
		}
		if want := map[string]int{"wide": len(p.Points), "narrow": 0}[name]; titled != want {
			t.Errorf("%s: %d dots with a title, want %d", name, titled, want)
		}
		group := func(class string) int {
			_, g, _ := strings.Cut(out, `<g class="`+class+`"`)
			g, _, _ = strings.Cut(g, "</g>")
			return strings.Count(g, "<circle ")
		}
		open, closed := group("chart-open"), group("chart-closed")
		if open != 3 || closed != 3 {
			t.Errorf("%s: %d open and %d closed dots, want 3 and 3", name, open, closed)
		}
	}
	// The frontier: Old 13B, then Mid 7B (lower than Closed Twin of the
	// same day), then New 70B; the others are never named.
	for _, name := range []string{">Old 13B<", ">Mid 7B<", ">New 70B<"} {
		if !strings.Contains(wide, name) {
			t.Errorf("the frontier's %s is not named", name)
		}
	}
	for _, name := range []string{">Closed Twin<", ">Late Closed<"} {
		if strings.Contains(wide, name) {
			t.Errorf("%s is named, though not on the frontier", name)
		}
	}
	if want := "6 runs, their models released from 2023-07-18 to 2025-08-12; scores in composite, logit from 0.04 (New 70B, released 2025-05-20) to 0.61 (Old 13B, released 2023-07-18); the lowest so far improved twice, last to 0.04 (New 70B, released 2025-05-20)."; !strings.Contains(wide, want) {
		t.Errorf("desc: want %q in\n%s", want, wide)
	}
	for _, bad := range []chart.TimePoint{
		{Label: "x", Date: "2025-13-01", Value: 0.1},
		{Label: "x", Date: "May 2025", Value: 0.1},
		{Label: "x", Date: "2025-01-01", Value: -0.1},
		{Label: "x", Date: "2025-01-01", Value: math.NaN()},
	} {
		if _, err := (chart.TimePlot{ID: "t", Points: []chart.TimePoint{bad}}).SVG(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
