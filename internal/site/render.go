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
)

var funcs = template.FuncMap{
	"join": strings.Join,
	"add":  func(a, b int) int { return a + b },
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
	// Keep the document and end tags and attribute quotes: the output stays
	// valid, readable HTML that diffs line by line less badly.
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true, KeepDefaultAttrVals: true})
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFuncRegexp(regexp.MustCompile("^(application|text)/(x-)?(java|ecma)script$"), js.Minify)
	return m
}

// render executes every page into memory, in parallel; each result lands
// at its page's index, so the output cannot depend on scheduling.
func (b *builder) render() error {
	sets, err := parseTemplates(b.cfg.Templates)
	if err != nil {
		return fmt.Errorf("templates: %w", err)
	}
	m := newMinifier()
	out := make([]File, len(b.pages))
	errs := make([]error, len(b.pages))
	parallel(len(b.pages), func(i int) {
		p := b.pages[i]
		t := sets[p.Kind]
		if t == nil {
			errs[i] = fmt.Errorf("%s: no template for page type %q", p.Path, p.Kind)
			return
		}
		var buf bytes.Buffer
		d := &pageData{Site: b.site, Page: p, Root: root(p.Path), Data: p.Data}
		if err := t.Execute(&buf, d); err != nil {
			errs[i] = fmt.Errorf("%s: %w", p.Path, err)
			return
		}
		var min bytes.Buffer
		if err := m.Minify("text/html", &min, &buf); err != nil {
			errs[i] = fmt.Errorf("%s: minify: %w", p.Path, err)
			return
		}
		out[i] = File{Path: p.Path, Data: min.Bytes()}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	b.files = append(b.files, out...)
	return b.staticFiles(m)
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
