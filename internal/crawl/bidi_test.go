package crawl

import (
	"slices"
	"strings"
	"testing"
)

func TestBidiFindsProblems(t *testing.T) {
	got := Bidi(map[string][]byte{
		"ok.html":       []byte("<!doctype html><title>Plain · Board</title><p>Run <bdi>Ev\u202eil</bdi> (demo): mass <td><bdi>\u05e9\u05dc\u05d5\u05dd</bdi><td>x"),
		"bare.html":     []byte("<p>Run Ev\u202eil (demo): mean answer mass"),
		"rtl.html":      []byte("<p class=brand><a href=index.html>Board \u05e9\u05dc\u05d5\u05dd</a>"),
		"attr.html":     []byte(`<tr data-provider="Pro` + "\u202e" + `vider"><td><bdi>x</bdi>`),
		"title.html":    []byte("<title>Ev\u202eil · Board</title>"),
		"closed.html":   []byte("<p><bdi>a</bdi> Ev\u202eil"),
		"script.html":   []byte("<script>var s = \"Ev\u202eil\";</script>"),
		"data.csv":      []byte("id,model\na,Ev\u202eil\n"),
		"data.json":     []byte(`{"model":"Ev` + "\u202e" + `il"}`),
		"rtl-attr.html": []byte(`<a title="` + "\u05e9\u05dc\u05d5\u05dd" + `" href=x>y</a>`),
		"nested.html":   []byte("<p><bdi><a href=x>Ev\u202eil</a></bdi> after"),
	})
	want := []string{
		"attr.html: <tr data-provider=…> holds a bidi control, which an attribute cannot isolate",
		`bare.html: text not isolated (no <bdi> around it): "Run Ev\u202eil (demo): mean answer mass"`,
		`closed.html: text not isolated (no <bdi> around it): " Ev\u202eil"`,
		"data.csv: line 2 holds the bidi control U+202E",
		"rtl.html: text not isolated (no <bdi> around it): \"Board \u05e9\u05dc\u05d5\u05dd\"",
		`title.html: <title> holds a bidi control, which a title cannot isolate: "Ev\u202eil · Board"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
