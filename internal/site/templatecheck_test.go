package site

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"text/template/parse"

	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/render"
	"github.com/discrimeval/leaderboard/internal/templatecheck"
	"github.com/discrimeval/leaderboard/templates"
)

// checkTemplates type-checks every page kind's template set in fsys
// against the data its pages give it, every branch, range and partial
// included (internal/templatecheck).
func checkTemplates(fsys fs.FS) error {
	sets, err := render.ParseTemplates(fsys)
	if err != nil {
		return err
	}
	var errs []error
	for _, k := range pageKinds {
		set := sets[k.Name]
		if set == nil {
			errs = append(errs, fmt.Errorf("page kind %s has no template", k.Name))
			continue
		}
		lookup := func(name string) *parse.Tree {
			if t := set.Lookup(name); t != nil {
				return t.Tree
			}
			return nil
		}
		if err := templatecheck.Check(set.Tree, lookup, k.Data, render.Funcs); err != nil {
			errs = append(errs, fmt.Errorf("page kind %s: %w", k.Name, err))
		}
		// The navigation list, which renderer.nav renders on its own.
		if nav := set.Lookup("navitems"); nav == nil {
			errs = append(errs, fmt.Errorf("page kind %s: no navitems template", k.Name))
		} else if err := templatecheck.Check(nav.Tree, lookup, reflect.TypeFor[*layout.PageData[struct{}]](), render.Funcs); err != nil {
			errs = append(errs, fmt.Errorf("page kind %s: navitems: %w", k.Name, err))
		}
	}
	return errors.Join(errs...)
}

// TestTemplatesTypeCheck: every field, method and map key that any
// template names, in any branch, exists in the data its kind's pages give
// it.
func TestTemplatesTypeCheck(t *testing.T) {
	if err := checkTemplates(templates.FS); err != nil {
		t.Error(err)
	}
}

// TestTemplateCheckFindsMisspelledFields: a misspelled field in a branch
// that no page takes, in each template (in scenario.html, in a grid
// cell, which its stencils render on its own), fails the check, named at its
// template and line. Under the race detector with -short (make race) it
// skips: it runs no concurrent code, and cost the race step 1.5 CPU-s.
func TestTemplateCheckFindsMisspelledFields(t *testing.T) {
	t.Parallel()
	if raceDetector && testing.Short() {
		t.Skip("type-checks templates in one goroutine: checked by the plain run; nothing for the race detector")
	}
	names, err := fs.Glob(templates.FS, "*.html")
	if err != nil {
		t.Fatal(err)
	}
	inject := map[string][2]string{ // file: the text to put it after, the mistake
		"layout.html":    {"{{template \"main\" .}}", "{{if false}}{{.Site.Titel}}{{end}}"},
		"partials.html":  {"{{define \"rank\"}}", "{{if false}}{{.Rnak}}{{end}}"},
		"benchmark.html": {"{{$p := .Data.Page}}", "{{if eq $p.Metric.Direction \"no such direction\"}}{{$p.Metric.NoSuchField}}{{end}}"},
		// A cell of the grid, which the scenario pages' stencils
		// render on its own.
		"scenario.html": {"{{define \"grid-cell\"}}", "{{if false}}{{.NoSuchField}}{{end}}"},
	}
	for _, n := range names {
		if _, ok := inject[n]; !ok {
			inject[n] = [2]string{"{{define \"main\"}}", "{{with .Data}}{{if false}}{{.NoSuchField}}{{end}}{{end}}"}
		}
	}
	for n, in := range inject {
		fsys := fstest.MapFS{}
		for _, m := range names {
			data, err := fs.ReadFile(templates.FS, m)
			if err != nil {
				t.Fatal(err)
			}
			if m == n {
				if !strings.Contains(string(data), in[0]) {
					t.Fatalf("%s has no %s", n, in[0])
				}
				data = []byte(strings.Replace(string(data), in[0], in[0]+in[1], 1))
			}
			fsys[m] = &fstest.MapFile{Data: data}
		}
		err := checkTemplates(fsys)
		if err == nil {
			t.Errorf("%s with %s: no error", n, in[1])
			continue
		}
		if !strings.Contains(err.Error(), n+":") || !strings.Contains(err.Error(), "can't evaluate field") {
			t.Errorf("%s with %s: %v, want the mistake named at %s", n, in[1], err, n)
		}
	}
}
