package chart

import (
	"strings"
	"testing"
)

// A dot plot names who each side favours: the group and the baseline by
// default, Pos and Neg when given (an age plot: older and younger).
func TestDotPlotSides(t *testing.T) {
	rows := []DotRow{{Label: "age", Estimate: Interval{Value: 0.2, Lo: -0.1, Hi: 0.4}}}
	for _, c := range []struct {
		pos, neg string
		want     []string
	}{
		{"", "", []string{"favours group (+)", "favours baseline (−)", "← favours baseline", "favours group →"}},
		{"older", "younger", []string{"favours older (+)", "favours younger (−)", "← favours younger", "favours older →"}},
	} {
		svg, err := DotPlot{ID: "d", Rows: rows, Pos: c.pos, Neg: c.neg, Narrow: true}.SVG()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(svg), w) {
				t.Errorf("Pos %q, Neg %q: no %q in the plot", c.pos, c.neg, w)
			}
		}
		if c.pos != "" && strings.Contains(string(svg), "baseline") {
			t.Errorf("Pos %q, Neg %q: the plot still speaks of the baseline", c.pos, c.neg)
		}
	}
}
