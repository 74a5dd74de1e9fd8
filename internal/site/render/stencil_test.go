package render

import (
	"bytes"
	"errors"
	"html/template"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fill is a Filler of fixed values, by hole.
type fill map[int]string

func (f fill) Fill(b []byte, n int) []byte { return append(b, f[n]...) }

// probeOut is text with a mark of m for each hole in holes, as a
// template's output for a probe would hold them.
func probeOut(format string, m Marks, holes ...int) []byte {
	var args []any
	for _, n := range holes {
		args = append(args, m.Text(n))
	}
	s := format
	for _, a := range args {
		s = strings.Replace(s, "%s", a.(string), 1)
	}
	return []byte(s)
}

// TestCut: a stencil cut from the outputs of the two probes is the
// output with its holes, and filled gives the output with the values
// written into them: marks next to each other, next to digits, at either
// end, a hole twice.
func TestCut(t *testing.T) {
	for _, c := range []struct {
		format string
		holes  []int
		want   string
	}{
		{"<p>%s</p>", []int{1}, "<p>one</p>"},
		{"%s<b>%s%s</b>9%s8765%s", []int{3, 1, 2, 1, 2}, "three<b>onetwo</b>9one8765two"},
		{"<a href=q%s.html>question %s</a>", []int{7, 7}, "<a href=q70.html>question 70</a>"},
		{"no holes 1234", nil, "no holes 1234"},
	} {
		s, err := Cut(probeOut(c.format, MarksA, c.holes...), probeOut(c.format, MarksB, c.holes...))
		if err != nil {
			t.Errorf("%s: %v", c.format, err)
			continue
		}
		if got := string(Fill(nil, s, fill{1: "one", 2: "two", 3: "three", 7: "70"})); got != c.want {
			t.Errorf("%s filled: %q, want %q", c.format, got, c.want)
		}
		if len(s.Holes) != len(c.holes) {
			t.Errorf("%s: holes %v, want %v", c.format, s.Holes, c.holes)
		}
	}
}

// TestCutRefusesMarksInText: text that holds a mark's digits (a model
// named for them) cuts the two probes differently, and no stencil is
// made; a mark of a value the stencil has no hole for is an error.
func TestCutRefusesMarksInText(t *testing.T) {
	for _, text := range []string{MarksA.Text(3), MarksB.Text(3), "x" + MarksA.Text(1) + "y", MarksA.Text(1) + MarksB.Text(1)} {
		a := append([]byte("<p>"+text+" "), probeOut("%s", MarksA, 1)...)
		b := append([]byte("<p>"+text+" "), probeOut("%s", MarksB, 1)...)
		if _, err := Cut(a, b); !errors.Is(err, ErrMarkInText) {
			t.Errorf("text %q: %v, want %v", text, err, ErrMarkInText)
		}
	}
	a, b := probeOut("<p>%s", MarksA, Hidden+1), probeOut("<p>%s", MarksB, Hidden+1)
	if _, err := Cut(a, b); err == nil || errors.Is(err, ErrMarkInText) {
		t.Errorf("a hidden value shown: %v, want an error naming it", err)
	}
}

// TestValue: the text an output holds in a stencil's hole, the others
// filled; an output that is not the stencil's, or a hole there twice or
// not at all, is an error.
func TestValue(t *testing.T) {
	s, err := Cut(probeOut("<h1>Question %s <span>%s</span></h1>", MarksA, 1, 2), probeOut("<h1>Question %s <span>%s</span></h1>", MarksB, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Value([]byte("<h1>Question 12 <span>Is &lt;b>this</b> fine?</span></h1>"), 2, fill{1: "12"})
	if err != nil || string(v) != "Is &lt;b>this</b> fine?" {
		t.Errorf("value %q, %v", v, err)
	}
	for _, out := range []string{"<h1>Question 13 <span>x</span></h1>", "<h1>Question 12 <span>x</h1>", "<h1>Question 12"} {
		if v, err := s.Value([]byte(out), 2, fill{1: "12"}); err == nil {
			t.Errorf("%q: value %q, want an error", out, v)
		}
	}
	for _, n := range []int{1, 3} {
		twice, _ := Cut(probeOut("%s %s", MarksA, 1, 1), probeOut("%s %s", MarksB, 1, 1))
		if _, err := twice.Value([]byte("a a"), n, fill{}); err == nil {
			t.Errorf("hole %d of %v: no error", n, twice.Holes)
		}
	}
}

// TestDefineStencil: a template's stencil, made from its set with the
// kind's parts replaced by their holes, is what the template and the
// minifier make of the same data, for values that need quoting and
// escaping as the template's own text does.
func TestDefineStencil(t *testing.T) {
	type cell struct{ Class, Text, Href string }
	type page struct{ Cells []cell }
	set := template.Must(template.New("layout.html").Parse(`{{define "main"}}{{end}}` +
		`{{define "cell"}}<td class="{{.Class}} x"><a href="{{.Href}}">{{.Text}}</a></td>{{end}}` +
		`{{define "row"}}<tr><th scope="row">row</th>{{template "cells" .}}</tr>{{end}}` +
		`{{define "cells"}}{{range .Cells}}{{template "cell" .}}{{end}}{{end}}`))
	kinds := []KindInfo{KindOf[page]("k", "", "", "", "").StencilledBy("cells")}
	r, err := WithSets(map[Kind]*template.Template{"k": set}, kinds)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.DefineStencil("k", "cell", func(m Marks) any { return cell{m.Text(10), m.Text(11), "q" + m.Text(12) + ".html"} })
	if err != nil {
		t.Fatal(err)
	}
	row, err := r.DefineStencil("k", "row", func(m Marks) any { return page{Cells: make([]cell, 1)} })
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0}; len(row.Holes) != 1 || row.Holes[0] != want[0] {
		t.Errorf("row holes %v, want %v (its cells)", row.Holes, want)
	}
	for _, c := range []cell{{"b3", "+1.5", "7"}, {"b0", "−0.25", "12"}} {
		var exec, min bytes.Buffer
		if err := set.ExecuteTemplate(&exec, "cell", cell{c.Class, c.Text, "q" + c.Href + ".html"}); err != nil {
			t.Fatal(err)
		}
		if err := r.Min.Minify("text/html", &min, &exec); err != nil {
			t.Fatal(err)
		}
		got := Fill(nil, s, fill{10: c.Class, 11: c.Text, 12: c.Href})
		if !bytes.Equal(got, min.Bytes()) {
			t.Errorf("%+v: stencil writes %s, the template %s", c, got, min.Bytes())
		}
	}
	if _, err := r.DefineStencil("k", "nosuch", func(Marks) any { return nil }); err == nil {
		t.Error("a stencil of no template: no error")
	}
}

// TestStencilsMakeOnce: concurrent pages asking for a stencil make it
// once, and share it and its error.
func TestStencilsMakeOnce(t *testing.T) {
	var ss Stencils[int]
	var made atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := ss.Get(i%2, func() (*Stencil, error) {
				made.Add(1)
				if i%2 == 1 {
					return nil, errors.New("odd")
				}
				return &Stencil{Static: [][]byte{[]byte(strconv.Itoa(i % 2))}}, nil
			})
			if (err != nil) != (i%2 == 1) || err == nil && string(s.Static[0]) != "0" {
				t.Errorf("key %d: %v, %v", i%2, s, err)
			}
		}()
	}
	wg.Wait()
	if made.Load() != 2 {
		t.Errorf("made %d times, want 2", made.Load())
	}
}
