package templatecheck

import (
	"html/template"
	"reflect"
	"strings"
	"testing"
	"text/template/parse"
)

type inner struct {
	Name string
	Tags []string
	Kids map[string]*inner
}

func (i *inner) Greet(who string) string { return "hi " + who }

type data struct {
	Title  string
	In     *inner
	List   []inner
	ByName map[string]inner
	Any    any
	N      int
	hidden string
}

func (data) Method() inner { return inner{} }

var funcs = template.FuncMap{
	"upper": strings.ToUpper,
	"inner": func() *inner { return nil },
}

func check(t *testing.T, src string) error {
	t.Helper()
	set, err := template.New("t").Funcs(funcs).Parse(`{{define "part"}}{{.Name}}{{end}}` + src)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) *parse.Tree {
		if t := set.Lookup(name); t != nil {
			return t.Tree
		}
		return nil
	}
	return Check(set.Tree, lookup, reflect.TypeFor[*data](), funcs)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		src, want string // want: "" for no error, else a part of it
	}{
		{`{{.Title}} {{.In.Name}} {{.Method.Name}} {{.In.Greet "x"}}`, ""},
		{`{{.Titel}}`, "can't evaluate field Titel in type *templatecheck.data"},
		{`{{.In.Nme}}`, "can't evaluate field Nme"},
		{`{{if .N}}{{else}}{{.In.Kids.x.Nam}}{{end}}`, "can't evaluate field Nam"},
		{`{{with .In}}{{.Name}}{{.Title}}{{end}}`, "can't evaluate field Title in type *templatecheck.inner"},
		{`{{with .In}}{{.Name}}{{else}}{{.Title}}{{end}}`, ""},
		{`{{range .List}}{{.Name}}{{range .Tags}}{{.}}{{end}}{{end}}`, ""},
		{`{{range .List}}{{.Title}}{{end}}`, "can't evaluate field Title"},
		{`{{range .List}}{{$.Title}}{{$.Titl}}{{end}}`, "can't evaluate field Titl"},
		{`{{range $k, $v := .ByName}}{{$v.Name}}{{$v.Tags}}{{$k}}{{end}}`, ""},
		{`{{range $k, $v := .ByName}}{{$v.Nam}}{{end}}`, "can't evaluate field Nam"},
		{`{{$x := .In}}{{$x.Name}}{{$x.Oops}}`, "can't evaluate field Oops"},
		{`{{$x := .N}}{{$x = .In}}{{$x.Name}}`, ""},
		{`{{template "part" .In}}`, ""},
		{`{{template "part" .}}`, "can't evaluate field Name in type *templatecheck.data"},
		{`{{template "nope" .}}`, `no template "nope"`},
		{`{{.Any.Whatever.Goes}}`, ""},
		{`{{(inner).Name}} {{(inner).Nam}}`, "can't evaluate field Nam"},
		{`{{.Title | upper | len}}`, ""},
		{`{{upper .Titl}}`, "can't evaluate field Titl"},
		{`{{index .List 0 | printf "%v"}}{{(index .List 0).Tags}}`, ""},
		{`{{(index .List 0).Tag}}`, "can't evaluate field Tag"},
		{`{{.hidden}}`, "unexported field"},
		{`{{range .N}}{{.}}{{end}}`, ""},
		{`{{range .Title}}{{end}}`, "range can't iterate over string"},
		{`{{if and .In .In}}{{(and .In .In).Name}}{{end}}`, ""},
	} {
		err := check(t, tc.src)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.src, err)
		case tc.want != "" && err == nil:
			t.Errorf("%s: no error, want %q", tc.src, tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestErrorSaysWhere: an error names the template, line and column.
func TestErrorSaysWhere(t *testing.T) {
	err := check(t, "line one\n{{if .N}}{{.In.Nme}}{{end}}")
	if err == nil || !strings.Contains(err.Error(), "t:2:") {
		t.Errorf("got %v, want it at t:2", err)
	}
}
