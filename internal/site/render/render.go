package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/discrimeval/leaderboard/internal/cache"
	"github.com/discrimeval/leaderboard/internal/highlight"
	"github.com/discrimeval/leaderboard/internal/site/layout"
	"github.com/discrimeval/leaderboard/internal/site/outdir"
	"github.com/discrimeval/leaderboard/internal/site/paths"
	"github.com/discrimeval/leaderboard/internal/site/show"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"
)

var Funcs = template.FuncMap{
	"join":           strings.Join,
	"add":            func(a, b int) int { return a + b },
	"transcriptPath": paths.TranscriptPath,
	"ageUnit":        func() string { return show.AgeUnit },
	"familyWise":     show.FamilyWise,
	// isolate is s, escaped, inside <bdi> unless it is printable ASCII
	// (show.PlainASCII), which needs no isolating.
	"isolate": func(s string) template.HTML {
		if show.PlainASCII(s) {
			return template.HTML(template.HTMLEscapeString(s))
		}
		return template.HTML("<bdi>" + template.HTMLEscapeString(s) + "</bdi>")
	},
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
func ParseTemplates(fsys fs.FS) (map[Kind]*template.Template, error) {
	names, err := fs.Glob(fsys, "*.html")
	if err != nil {
		return nil, err
	}
	sets := map[Kind]*template.Template{}
	for _, n := range names {
		if n == "layout.html" || n == "partials.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(Funcs).ParseFS(fsys, "layout.html", "partials.html", n)
		if err != nil {
			return nil, err
		}
		sets[Kind(strings.TrimSuffix(n, ".html"))] = t
	}
	return sets, nil
}

func NewMinifier() *minify.M {
	m := minify.New()
	// Optional end tags and quotes go (valid HTML5, and a run's 9,450
	// variant rows make every byte count); document tags stay.
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepDefaultAttrVals: true})
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("image/svg+xml", svg.Minify)
	m.AddFuncRegexp(regexp.MustCompile("^(application|text)/(x-)?(java|ecma)script$"), js.Minify)
	return m
}

// renderer executes templates, minifies, and puts the page into the
// site; it is safe for concurrent use.
type Renderer struct {
	Sets map[Kind]*template.Template
	// parts are the sets of the kinds with parts, for their stencils
	// (stencil.go).
	parts map[Kind]map[Marks]*template.Template
	kinds map[reflect.Type]*KindInfo
	Min   *minify.M
	// memo, when set, is the build cache, where pages that span runs are
	// kept by what they show (emitMemo); gen is the generator's id.
	Memo *cache.Cache
	// memoHits and memoPages count emitMemo's pages, and those it found.
	MemoHits, MemoPages atomic.Int64
	Gen                 string
	Site                *layout.SiteInfo
	Out                 outdir.Sink
	Stopped             atomic.Bool // a job failed: the others stop at their next page
	// navs are the navigation lists rendered so far (nav).
	navMu sync.Mutex
	Navs  map[navKey]template.HTML
	// onces are the parts rendered so far that many pages share, one a
	// key (once: a scenario page's heading, one a question and title).
	onceMu sync.Mutex
	onces  map[any][]byte
	// stencils are the stencils that pages of every run share, by key
	// (Stencil); Whole counts the pages written whole where their
	// stencil could not be made (ErrMarkInText).
	stencils Stencils[any]
	Whole    atomic.Int64
}

// Stencil is key's stencil, made by make the first time it is asked for.
func (r *Renderer) Stencil(key any, make func() (*Stencil, error)) (*Stencil, error) {
	return r.stencils.Get(key, make)
}

// once is make's bytes for key, made the first time key is asked for.
func (r *Renderer) Once(key any, make func() ([]byte, error)) ([]byte, error) {
	r.onceMu.Lock()
	h, ok := r.onces[key]
	r.onceMu.Unlock()
	if ok {
		return h, nil
	}
	h, err := make()
	if err != nil {
		return nil, err
	}
	r.onceMu.Lock()
	if r.onces == nil {
		r.onces = map[any][]byte{}
	}
	r.onces[key] = h
	r.onceMu.Unlock()
	return h, nil
}

// WithSets is a renderer of the given template sets (for tests: another
// set of templates than templates/), putting its pages nowhere.
func WithSets(sets map[Kind]*template.Template, kinds []KindInfo) (*Renderer, error) {
	parts, err := partSets(sets, kinds)
	if err != nil {
		return nil, err
	}
	return &Renderer{Sets: sets, parts: parts, kinds: kindsByBody(kinds), Min: NewMinifier()}, nil
}

// WithSite is a copy of r's templates and kinds for the pages of site.
func (r *Renderer) WithSite(site *layout.SiteInfo) *Renderer {
	return &Renderer{Sets: r.Sets, parts: r.parts, kinds: r.kinds, Min: r.Min, Site: site}
}

func NewRenderer(templates fs.FS, kinds []KindInfo, site *layout.SiteInfo, out outdir.Sink) (*Renderer, error) {
	sets, err := ParseTemplates(templates)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	r, err := WithSets(sets, kinds)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	r.Site, r.Out = site, out
	return r, nil
}

// page renders one page into a minified file.
func (r *Renderer) Page(p *layout.Page) (outdir.File, error) {
	data, err := r.Minified(p, "")
	if err != nil {
		return outdir.File{}, err
	}
	return outdir.File{Path: p.Path, Data: data}, nil
}

// minified renders a page, or with name one template of its kind's set
// on its own (a scenario page's parts), and minifies it.
func (r *Renderer) Minified(p *layout.Page, name string) ([]byte, error) {
	buf := ExecBuffers.Get().(*bytes.Buffer)
	defer ExecBuffers.Put(buf)
	buf.Reset()
	if err := r.Execute(buf, p, name); err != nil {
		return nil, err
	}
	var min bytes.Buffer
	min.Grow(buf.Len())
	if err := r.Min.Minify("text/html", &min, buf); err != nil {
		return nil, fmt.Errorf("%s: minify: %w", p.Path, err)
	}
	return min.Bytes(), nil
}

// execute renders a page with its kind's template, or with name one
// template of the kind's set, into buf.
func (r *Renderer) Execute(buf *bytes.Buffer, p *layout.Page, name string) error {
	k, err := r.kindOfBody(p.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	return r.executeSet(buf, r.Sets[k.Name], k, p, name)
}

// executeSet is execute with the template set t of p's kind k.
func (r *Renderer) executeSet(buf *bytes.Buffer, t *template.Template, k *KindInfo, p *layout.Page, name string) error {
	if t == nil {
		return fmt.Errorf("%s: no template for page kind %q", p.Path, k.Name)
	}
	var nav template.HTML
	var err error
	if name == "" {
		if nav, err = r.Nav(t, p); err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		err = t.Execute(buf, k.frame(r.Site, p, nav))
	} else {
		err = t.ExecuteTemplate(buf, name, k.frame(r.Site, p, nav))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	return nil
}

// execBuffers hold the templates' output before it is minified.
var ExecBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// navKey is what a page's navigation list depends on: the folder its
// links are relative to, its section and, when a nav entry is the page
// itself or has a fragment (relPath then depends on the file's name), its
// path.
type navKey struct {
	dir, self string
	section   layout.Section
}

// nav renders partials.html's "navitems" for a page, once per navKey: the
// same list on every page of a folder and section (70 scenario pages a
// run), rendered by the same template with the same data where it
// matters.
func (r *Renderer) Nav(t *template.Template, p *layout.Page) (template.HTML, error) {
	k := navKey{dir: path.Dir(p.Path), section: p.Section}
	for _, it := range r.Site.Nav {
		if it.Path == p.Path || strings.Contains(it.Path, "#") {
			k.self = p.Path
		}
	}
	r.navMu.Lock()
	h, ok := r.Navs[k]
	r.navMu.Unlock()
	if ok {
		return h, nil
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "navitems", &layout.PageData[struct{}]{Site: r.Site, Page: p, Paths: &paths.Paths}); err != nil {
		return "", err
	}
	h = template.HTML(b.String())
	r.navMu.Lock()
	if r.Navs == nil {
		r.Navs = map[navKey]template.HTML{}
	}
	r.Navs[k] = h
	r.navMu.Unlock()
	return h, nil
}

// emitMemo is emit for the pages that span runs and change little when a
// run is added (compare pages): with the build cache, a page is kept
// (emitKeyed) under the hash of everything its template reads — its path,
// title and section, and its data, JSON-encoded (these kinds' data are
// plain exported values, TestMemoKindsArePlainData).
func (r *Renderer) EmitMemo(p *layout.Page) error {
	if r.Memo == nil {
		return r.Emit(p)
	}
	// JSON, not gob: gob numbers types in the order a process first meets
	// them, which differs between builds (the pages render in parallel).
	h := sha256.New()
	fmt.Fprintf(h, "%q %q\n", p.Title, p.Section)
	if err := json.NewEncoder(h).Encode(p.Body); err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	k, err := r.kindOfBody(p.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	return r.EmitKeyed(p.Path, k.Name, hex.EncodeToString(h.Sum(nil)), func() *layout.Page { return p })
}

// emitKeyed keeps a page in the build cache under the hash of its inputs
// (which must cover everything build reads, the site frame aside) and puts
// the kept bytes on a rebuild, where the page is not even built.
func (r *Renderer) EmitKeyed(path string, k Kind, inputs string, build func() *layout.Page) error {
	if r.Memo == nil {
		return r.Emit(build())
	}
	if r.Stopped.Load() {
		return ErrStopped
	}
	frame, err := json.Marshal(r.Site)
	if err != nil {
		return err
	}
	key := cache.Key(r.Gen, "page-inputs", string(k), path, string(frame), inputs)
	r.MemoPages.Add(1)
	if data, err := r.Memo.GetEntry(key); err == nil {
		r.MemoHits.Add(1)
		return r.Out.Put(path, data)
	}
	p := build()
	if p.Path != path {
		return fmt.Errorf("%s: built as %s", path, p.Path)
	}
	f, err := r.Page(p)
	if err != nil {
		return err
	}
	if err := r.Out.Put(f.Path, f.Data); err != nil {
		return err
	}
	return r.Memo.PutEntry(key, f.Data)
}

// emit renders a page and puts it into the site.
func (r *Renderer) Emit(p *layout.Page) error { return r.EmitTo(p, r.Out) }

// emitTo renders a page and puts it into out (a run's pages go through a
// capture, for the cache).
func (r *Renderer) EmitTo(p *layout.Page, out outdir.Sink) error {
	if r.Stopped.Load() {
		return ErrStopped
	}
	f, err := r.Page(p)
	if err != nil {
		return err
	}
	return out.Put(f.Path, f.Data)
}

// staticFiles copies the embedded assets, minified, under assets/.
func StaticFiles(static fs.FS, m *minify.M) ([]outdir.File, error) {
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
	files := []outdir.File{{Path: paths.ChromaCSSPath, Data: css}, {Path: paths.NoJekyllPath, Data: []byte{}}}
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
		files = append(files, outdir.File{Path: "assets/" + n, Data: data})
	}
	// A scenario page's scripts, minified, in one file (paths.ScenarioJSPath),
	// each ended by ";" so that the next one's opening "(" does not call it.
	var bundle []byte
	for _, part := range paths.ScenarioJSParts {
		i := slices.IndexFunc(files, func(f outdir.File) bool { return f.Path == "assets/"+part })
		if i < 0 {
			return nil, fmt.Errorf("static/%s: missing, %s needs it", part, paths.ScenarioJSPath)
		}
		bundle = append(append(bundle, bytes.TrimRight(files[i].Data, "; \n")...), ";\n"...)
	}
	return append(files, outdir.File{Path: paths.ScenarioJSPath, Data: bundle}), nil
}
