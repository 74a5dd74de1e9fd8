package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"

	"github.com/discrimeval/leaderboard/internal/highlight"
)

var funcs = template.FuncMap{
	"join":           strings.Join,
	"add":            func(a, b int) int { return a + b },
	"transcriptPath": transcriptPath,
	"seq": func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i + 1
		}
		return s
	},
}

// parseTemplates builds one template set per page type: the shared layout
// and partials plus that type's file, so page types cannot clash on block
// names.
func parseTemplates(fsys fs.FS) (map[kind]*template.Template, error) {
	names, err := fs.Glob(fsys, "*.html")
	if err != nil {
		return nil, err
	}
	sets := map[kind]*template.Template{}
	for _, n := range names {
		if n == "layout.html" || n == "partials.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(fsys, "layout.html", "partials.html", n)
		if err != nil {
			return nil, err
		}
		sets[kind(strings.TrimSuffix(n, ".html"))] = t
	}
	return sets, nil
}

func newMinifier() *minify.M {
	m := minify.New()
	// Optional end tags and quotes go (valid HTML5, and a run's 9,450
	// variant rows make every byte count); document tags stay.
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepDefaultAttrVals: true})
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFuncRegexp(regexp.MustCompile("^(application|text)/(x-)?(java|ecma)script$"), js.Minify)
	return m
}

// renderer executes templates and minifies; it is safe for concurrent use.
type renderer struct {
	sets map[kind]*template.Template
	min  *minify.M
	site *siteInfo
}

// page renders one page into a minified file.
func (r *renderer) page(p *page) (File, error) {
	t := r.sets[p.Body.kind()]
	if t == nil {
		return File{}, fmt.Errorf("%s: no template for page kind %q", p.Path, p.Body.kind())
	}
	var buf bytes.Buffer
	d := &pageData{Site: r.site, Page: p, Paths: &paths, Data: p.Body}
	if err := t.Execute(&buf, d); err != nil {
		return File{}, fmt.Errorf("%s: %w", p.Path, err)
	}
	var min bytes.Buffer
	if err := r.min.Minify("text/html", &min, &buf); err != nil {
		return File{}, fmt.Errorf("%s: minify: %w", p.Path, err)
	}
	return File{Path: p.Path, Data: min.Bytes()}, nil
}

// render executes every page into memory, in parallel, then the page
// groups; adds the static files and the data files; and last the
// provenance manifest, which lists every other file. Results land at fixed
// indices and files are sorted by path at the end, so the output cannot
// depend on scheduling.
func render(cfg Config, in *loaded, a *assembly) ([]File, error) {
	sets, err := parseTemplates(cfg.Templates)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	r := &renderer{sets: sets, min: newMinifier(), site: a.site}
	out := make([]File, len(a.pages))
	errs := make([]error, len(a.pages))
	parallel(len(a.pages), func(i int) {
		out[i], errs[i] = r.page(a.pages[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	files := out
	groups := make([][]File, len(a.groups))
	errs = make([]error, len(a.groups))
	parallel(len(a.groups), func(i int) {
		groups[i], errs[i] = a.groups[i](cfg, r)
	})
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		files = append(files, groups[i]...)
	}
	assets, err := staticFiles(cfg.Static, r.min)
	if err != nil {
		return nil, err
	}
	files = append(append(files, assets...), a.data...)
	prov, err := provenanceFile(a.site, a.inputs, files)
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	files = append(files, prov)
	if err := sortFiles(files); err != nil {
		return nil, err
	}
	return files, nil
}

// staticFiles copies the embedded assets, minified, under assets/.
func staticFiles(static fs.FS, m *minify.M) ([]File, error) {
	var names []string
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".go") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	css, err := highlight.CSS()
	if err != nil {
		return nil, err
	}
	if css, err = m.Bytes("text/css", css); err != nil {
		return nil, err
	}
	// .nojekyll: GitHub Pages serves the folder as is.
	files := []File{{Path: chromaCSSPath, Data: css}, {Path: noJekyllPath, Data: []byte{}}}
	for _, n := range names {
		data, err := fs.ReadFile(static, n)
		if err != nil {
			return nil, err
		}
		mime := map[string]string{".css": "text/css", ".js": "application/javascript", ".svg": "image/svg+xml"}[path.Ext(n)]
		if mime != "" {
			if data, err = m.Bytes(mime, data); err != nil {
				return nil, fmt.Errorf("static/%s: %w", n, err)
			}
		}
		files = append(files, File{Path: "assets/" + n, Data: data})
	}
	return files, nil
}
