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
func parseTemplates(fsys fs.FS) (map[string]*template.Template, error) {
	names, err := fs.Glob(fsys, "*.html")
	if err != nil {
		return nil, err
	}
	sets := map[string]*template.Template{}
	for _, n := range names {
		if n == "layout.html" || n == "partials.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(fsys, "layout.html", "partials.html", n)
		if err != nil {
			return nil, err
		}
		sets[strings.TrimSuffix(n, ".html")] = t
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
	sets map[string]*template.Template
	min  *minify.M
	site *siteInfo
}

// page renders one page into a minified file.
func (r *renderer) page(p *page) (File, error) {
	t := r.sets[p.Kind]
	if t == nil {
		return File{}, fmt.Errorf("%s: no template for page type %q", p.Path, p.Kind)
	}
	var buf bytes.Buffer
	d := &pageData{Site: r.site, Page: p, Root: root(p.Path), Data: p.Data}
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
// groups (pages built from a second pass over a run's texts). Results land
// at fixed indices and files are sorted by path at the end, so the output
// cannot depend on scheduling.
func (b *builder) render() error {
	sets, err := parseTemplates(b.cfg.Templates)
	if err != nil {
		return fmt.Errorf("templates: %w", err)
	}
	r := &renderer{sets: sets, min: newMinifier(), site: b.site}
	out := make([]File, len(b.pages))
	errs := make([]error, len(b.pages))
	parallel(len(b.pages), func(i int) {
		out[i], errs[i] = r.page(b.pages[i])
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	b.files = append(b.files, out...)
	groups := make([][]File, len(b.groups))
	errs = make([]error, len(b.groups))
	parallel(len(b.groups), func(i int) {
		groups[i], errs[i] = b.groups[i](r)
	})
	for i, err := range errs {
		if err != nil {
			return err
		}
		b.files = append(b.files, groups[i]...)
	}
	return b.staticFiles(r.min)
}

// staticFiles copies the embedded assets, minified, under assets/.
func (b *builder) staticFiles(m *minify.M) error {
	var names []string
	err := fs.WalkDir(b.cfg.Static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".go") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	css, err := highlight.CSS()
	if err != nil {
		return err
	}
	if css, err = m.Bytes("text/css", css); err != nil {
		return err
	}
	// .nojekyll: GitHub Pages serves the folder as is.
	b.files = append(b.files, File{Path: "assets/chroma.css", Data: css}, File{Path: ".nojekyll", Data: []byte{}})
	for _, n := range names {
		data, err := fs.ReadFile(b.cfg.Static, n)
		if err != nil {
			return err
		}
		mime := map[string]string{".css": "text/css", ".js": "application/javascript", ".svg": "image/svg+xml"}[path.Ext(n)]
		if mime != "" {
			if data, err = m.Bytes(mime, data); err != nil {
				return fmt.Errorf("static/%s: %w", n, err)
			}
		}
		b.files = append(b.files, File{Path: "assets/" + n, Data: data})
	}
	return nil
}
