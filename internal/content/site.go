package content

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/discrimeval/leaderboard/internal/fileerr"
	"github.com/discrimeval/leaderboard/internal/input"
	"github.com/discrimeval/leaderboard/internal/strictyaml"
)

// Site holds content/site.yaml.
type Site struct {
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
	// BasePath is where the site is served from, "/" for a user site or
	// "/REPO/" for a GitHub project site. Pages link relatively and work
	// anywhere; only 404.html, served at arbitrary paths, needs it.
	BasePath  string  `yaml:"base_path"`
	Benchmark string  `yaml:"benchmark"`
	Release   Release `yaml:"release"`
	// RunsURL is where the runs folder is published (for example
	// https://raw.githubusercontent.com/ORG/REPO/COMMIT/runs/): when the
	// copies of the runs' files would take the site past its budget, the
	// site links each run's files there instead of copying them into
	// data/runs/.
	RunsURL string `yaml:"runs_url,omitempty"`
	// PagesBudget is the most the published site may take, as written
	// ("1 GB", "750 MB": decimal units), and Budget the same in bytes:
	// 1 GB, GitHub Pages' limit, when site.yaml does not say.
	PagesBudget string `yaml:"pages_budget,omitempty"`
	Budget      int64  `yaml:"-"`
	// Repository is the address of the source repository, named in the
	// pages' citation; optional.
	Repository string `yaml:"repository,omitempty"`
	// Previous names the previous release's data/leaderboard.json (a path
	// inside content/) for the changes page; optional.
	Previous string `yaml:"previous,omitempty"`
}

// Release labels a published state of the leaderboard. Its date comes from
// here, never from the clock.
type Release struct {
	Label string `yaml:"label"`
	Date  string `yaml:"date"`
}

// Page is a Markdown page from content/pages.
type Page struct {
	Slug  string
	Title string
	HTML  template.HTML
	// Source is the path inside the content folder.
	Source string
}

// Content is everything read from the content folder.
type Content struct {
	Site      Site
	Benchmark *BenchmarkFile
	Pages     []Page
	// Previous is the previous release's data/leaderboard.json, when
	// site.yaml names one.
	Previous *ReleaseFile
	// Releases are every earlier release's data/leaderboard.json kept in
	// releases/ (RELEASE.json), by path: a model's history across them is
	// on its run pages.
	Releases []ReleaseFile
	// Files lists every file read, for provenance.
	Files []string
	// Warnings are what was skipped, each naming the entry and why
	// (a file in content/pages that is not a page).
	Warnings []error
}

var (
	slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	// labelRE is a release label: it names a git tag (release-<label>).
	labelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// Load reads the content folder. label names it in error messages, which
// are *fileerr.Error values.
func Load(fsys fs.FS, label string) (*Content, error) {
	c := &Content{}
	name := path.Join(label, "site.yaml")
	data, err := input.ReadFile(fsys, "site.yaml", name, input.MaxTextBytes)
	if err != nil {
		return nil, err
	}
	c.Files = append(c.Files, "site.yaml")
	site, at, err := ParseSite(name, data)
	if err != nil {
		return nil, err
	}
	c.Site = site
	s := &c.Site
	bpath := "benchmarks/" + s.Benchmark + ".json"
	bname := path.Join(label, bpath)
	bdata, err := input.ReadFile(fsys, bpath, bname, input.MaxTextBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fileerr.New(name, at("benchmark"), "benchmark %q: there is no %s; add the registry's benchmark page there", s.Benchmark, bname)
		}
		return nil, err
	}
	c.Files = append(c.Files, bpath)
	if c.Benchmark, err = ParseBenchmark(bname, bdata); err != nil {
		return nil, err
	}
	if c.Benchmark.Page.ID != s.Benchmark {
		return nil, fileerr.New(bname, keyLine(bdata, "page.id"), "page.id is %q, but site.yaml names %q", c.Benchmark.Page.ID, s.Benchmark)
	}
	mds, err := pageFiles(fsys, label, c)
	if err != nil {
		return nil, err
	}
	for _, p := range mds {
		pname := path.Join(label, p)
		slug := strings.TrimSuffix(path.Base(p), ".md")
		if !slugRE.MatchString(slug) {
			return nil, fileerr.New(pname, 0, "page name %q: use lower-case letters, digits and '-'", slug)
		}
		src, err := input.ReadFile(fsys, p, pname, input.MaxTextBytes)
		if err != nil {
			return nil, err
		}
		html, err := Markdown(src)
		if err != nil {
			return nil, fileerr.New(pname, 0, "%v", err)
		}
		title := Title(src)
		if title == "" {
			return nil, fileerr.New(pname, 1, "a page starts with a '# Title' line")
		}
		if err := input.Label("the page title", title, input.MaxLabelRunes); err != nil {
			return nil, fileerr.New(pname, titleLine(src), "%v", err)
		}
		if err := input.NoBidi("the page title", title); err != nil {
			return nil, fileerr.New(pname, titleLine(src), "%v", err)
		}
		c.Pages = append(c.Pages, Page{Slug: slug, Title: title, HTML: html, Source: p})
		c.Files = append(c.Files, p)
	}
	if s.Previous != "" {
		if !fs.ValidPath(s.Previous) {
			return nil, fileerr.New(name, at("previous"), "previous %q is not a path inside %s (no leading /, no ..)", s.Previous, label)
		}
		pname := path.Join(label, s.Previous)
		if c.Previous, err = ReadRelease(fsys, label, s.Previous); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fileerr.New(name, at("previous"), "previous: there is no %s; copy the previous release's data/leaderboard.json there (and its data/leaderboard-runs-<k>.json beside it, if it has them), or remove previous:", pname)
			}
			return nil, err
		}
		c.Files = append(c.Files, c.Previous.files()...)
		c.Warnings = append(c.Warnings, previousWarnings(name, at("previous"), *s, c.Previous)...)
	}
	if err := releaseFiles(fsys, label, c); err != nil {
		return nil, err
	}
	if err := unreadContent(fsys, label, c); err != nil {
		return nil, err
	}
	return c, nil
}

// unreadContent names, each in a warning, the entries of the content
// folder and of its benchmarks/ that the build does not read (pages/ and
// releases/ name theirs as they are read); a README.md and git's own files
// go without a word (input.Passed).
func unreadContent(fsys fs.FS, label string, c *Content) error {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return input.Explain(label, err)
	}
	for _, e := range entries {
		switch n := e.Name(); {
		case n == "site.yaml", n == "pages", n == "releases", n == "benchmarks" && e.IsDir(), input.Passed(n):
		default:
			c.Warnings = append(c.Warnings, fileerr.New(path.Join(label, n), 0, "not read: %s holds site.yaml, benchmarks/, pages/ and releases/, and the build reads nothing else there; move it out of %s", label, label))
		}
	}
	benches, err := fs.ReadDir(fsys, "benchmarks")
	if err != nil {
		return nil // read above, where site.yaml's benchmark is
	}
	for _, e := range benches {
		if n := e.Name(); n != c.Site.Benchmark+".json" && !input.Passed(n) {
			c.Warnings = append(c.Warnings, fileerr.New(path.Join(label, "benchmarks", n), 0, "not read: site.yaml names the benchmark %q, whose page is benchmarks/%s.json; the build reads no other", c.Site.Benchmark, c.Site.Benchmark))
		}
	}
	return nil
}

// ParseSite decodes and checks site.yaml; name is used in errors. at
// gives the line of a key, for later errors about the file.
func ParseSite(name string, data []byte) (site Site, at func(key ...string) int, err error) {
	if err := strictyaml.Decode(name, data, &site); err != nil {
		return Site{}, nil, err
	}
	root := strictyaml.Root(data)
	at = func(key ...string) int { return strictyaml.KeyLine(root, key...) }
	s := &site
	if s.Title == "" || s.Benchmark == "" {
		return Site{}, nil, fileerr.New(name, at("title"), "title and benchmark are required")
	}
	for _, l := range []struct {
		field, val string
		max        int
		key        []string
	}{
		{"title", s.Title, input.MaxLabelRunes, []string{"title"}},
		{"description", s.Description, input.MaxDescriptionRunes, []string{"description"}},
		{"release.label", s.Release.Label, input.MaxLabelRunes, []string{"release", "label"}},
	} {
		if err := input.Label(l.field, l.val, l.max); err != nil {
			return Site{}, nil, fileerr.New(name, at(l.key...), "%v", err)
		}
	}
	if s.BasePath == "" {
		s.BasePath = "/"
	}
	for _, f := range []struct{ name, s string }{
		{"title", s.Title}, {"description", s.Description}, {"release.label", s.Release.Label}, {"repository", s.Repository},
	} {
		if err := input.NoBidi(f.name, f.s); err != nil {
			return Site{}, nil, fileerr.New(name, at(strings.Split(f.name, ".")...), "%v", err)
		}
	}
	if err := checkBasePath(s.BasePath); err != nil {
		return Site{}, nil, fileerr.New(name, at("base_path"), "%v", err)
	}
	if s.Budget, err = ParseBudget(s.PagesBudget); err != nil {
		return Site{}, nil, fileerr.New(name, at("pages_budget"), "pages_budget %q: %v", s.PagesBudget, err)
	}
	if s.RunsURL != "" {
		if err := CheckRunsURL(s.RunsURL); err != nil {
			return Site{}, nil, fileerr.New(name, at("runs_url"), "runs_url %q: %v", s.RunsURL, err)
		}
	}
	if s.Repository != "" && !strings.HasPrefix(s.Repository, "https://") && !strings.HasPrefix(s.Repository, "http://") {
		return Site{}, nil, fileerr.New(name, at("repository"), "repository %q: want an http(s) URL", s.Repository)
	}
	if s.Release.Label == "" || !dateRE.MatchString(s.Release.Date) {
		return Site{}, nil, fileerr.New(name, at("release"), "release needs a label and a date (YYYY-MM-DD)")
	}
	if !labelRE.MatchString(s.Release.Label) {
		return Site{}, nil, fileerr.New(name, at("release", "label"), "release.label %q: write it with letters, digits, '.', '_' and '-' (it names the release's git tag, release-<label>, and its citation)", s.Release.Label)
	}
	if err := input.BenchmarkDate(s.Release.Date); err != nil {
		return Site{}, nil, fileerr.New(name, at("release", "date"), "release.date %v", err)
	}
	if !slugRE.MatchString(strings.ReplaceAll(s.Benchmark, "_", "-")) {
		return Site{}, nil, fileerr.New(name, at("benchmark"), "benchmark %q is not a plain file name", s.Benchmark)
	}
	return site, at, nil
}

// CheckRunsURL checks where the runs folder is published: every run's
// files are linked there, so a reader who follows a link gets what the
// hash beside it names only from a host that is the one it reads. The
// address is https (a plain http link can be rewritten on its way), has no
// user-info before the host (https://github.com@other.host/ leads to
// other.host), no query or fragment, and ends in /.
func CheckRunsURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Scheme != "https" || u.Opaque != "":
		return errors.New("want an https URL ending in /, where the runs folder is published")
	case u.User != nil:
		return fmt.Errorf("the address names a user before its host (%s@): a link to it leads to %s, whatever the text before the @ says; write the host alone", u.User.Username(), u.Host)
	case u.Host == "" || strings.ContainsAny(u.Host, `\ `):
		return errors.New("want an https URL with a host, ending in /")
	case u.RawQuery != "" || u.Fragment != "" || strings.Contains(s, "?") || strings.Contains(s, "#"):
		return errors.New("the address has a query or a fragment: the runs' paths are appended to it; write the folder's address, ending in /")
	case !strings.HasSuffix(u.Path, "/"):
		return errors.New("want an https URL ending in /, where the runs folder is published")
	}
	return nil
}

// pageFiles lists the Markdown pages, content/pages/*.md, sorted. A
// missing folder is no pages; a folder that cannot be read (a link
// leading outside the content folder, say) is an error, never no pages;
// an entry that is not NAME.md is skipped with a warning.
func pageFiles(fsys fs.FS, label string, c *Content) ([]string, error) {
	entries, err := fs.ReadDir(fsys, "pages")
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := fs.Lstat(fsys, "pages"); serr == nil {
			// There is an entry, but it leads nowhere: a broken link.
			return nil, fileerr.New(path.Join(label, "pages"), 0, "a symbolic link to nothing: fix the link, or remove it if the site has no pages")
		}
		return nil, nil
	}
	if err != nil {
		return nil, input.Explain(path.Join(label, "pages"), err)
	}
	var mds []string
	for _, e := range entries {
		p := "pages/" + e.Name()
		if !strings.HasSuffix(e.Name(), ".md") {
			c.Warnings = append(c.Warnings, fileerr.New(path.Join(label, p), 0, "skipped: not a Markdown page (pages are NAME.md); rename it, or move it out of %s", path.Join(label, "pages")))
			continue
		}
		mds = append(mds, p)
	}
	sort.Strings(mds)
	return mds, nil
}

// basePathRE is a path on the web server: "/" or "/segment/…/", each
// segment plain characters. It cannot be a URL, a protocol-relative
// "//host/" or hold a query, so 404.html loads nothing from another host.
var basePathRE = regexp.MustCompile(`^/([A-Za-z0-9._~-]+/)*$`)

// DefaultBudget is a site's budget when site.yaml names none: GitHub
// Pages' limit on a published site.
const DefaultBudget = 1_000_000_000

// budgetRE is a budget as site.yaml writes it: a number and a decimal
// unit.
var budgetRE = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) (GB|MB)$`)

// ParseBudget reads pages_budget ("1 GB", "750 MB", "0.5 GB"), in bytes;
// empty is DefaultBudget.
func ParseBudget(s string) (int64, error) {
	if s == "" {
		return DefaultBudget, nil
	}
	m := budgetRE.FindStringSubmatch(s)
	if m == nil {
		return 0, errors.New(`want a size such as "1 GB" or "750 MB" (decimal units: 1 GB is 1,000,000,000 bytes)`)
	}
	whole, frac, _ := strings.Cut(m[1], ".")
	unit := int64(1_000_000_000)
	if m[2] == "MB" {
		unit = 1_000_000
	}
	if len(whole) > 6 || len(frac) > 6 {
		return 0, errors.New("want at most 6 digits before and after the point")
	}
	n := int64(0)
	for _, c := range whole {
		n = n*10 + int64(c-'0')
	}
	n *= unit
	for i, scale := 0, unit/10; i < len(frac); i, scale = i+1, scale/10 {
		n += int64(frac[i]-'0') * scale
	}
	if n < 1_000_000 {
		return 0, errors.New("want at least 1 MB")
	}
	return n, nil
}

func checkBasePath(p string) error {
	ok := basePathRE.MatchString(p)
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		ok = ok && seg != "." && seg != ".."
	}
	if !ok {
		return fmt.Errorf("base_path %q is not a path on this site: write \"/\" for a user site or \"/REPO/\" for a project site (letters, digits, '.', '_', '-' and '~' between slashes; no host, no scheme)", p)
	}
	return nil
}

// LoadMethodology reads the methodology page (METHODOLOGY.md), which must
// have some text.
func LoadMethodology(fsys fs.FS, name, label string) ([]byte, error) {
	data, err := input.ReadFile(fsys, name, label, input.MaxTextBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fileerr.New(label, 0, "no such file: restore it from git, or pass -methodology FILE")
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fileerr.New(label, 0, "empty: the methodology page needs its text (restore it from git)")
	}
	return data, nil
}

// Title returns the text of the first level-one heading.
func Title(md []byte) string {
	for _, line := range strings.Split(string(md), "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// titleLine is the line of the title Title returns.
func titleLine(md []byte) int {
	for i, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "# ") {
			return i + 1
		}
	}
	return 1
}

var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	// No html.WithUnsafe: raw HTML is dropped and javascript: links are not
	// rendered, which keeps Markdown taken from run manifests harmless.
	// Images become links, so no page loads anything from another host.
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(imageLinks{}, 100))),
)

// imageLinks renders a Markdown image as a link to it, "image: ALT": a
// reader may follow it, but the page fetches nothing.
type imageLinks struct{}

func (imageLinks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindImage, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*ast.Image)
		var alt bytes.Buffer
		ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering {
				switch t := c.(type) {
				case *ast.Text:
					alt.Write(t.Segment.Value(source))
				case *ast.String:
					alt.Write(t.Value)
				}
			}
			return ast.WalkContinue, nil
		})
		w.WriteString(`<a class="md-image" href="`)
		if dest := util.URLEscape(n.Destination, true); !html.IsDangerousURL(dest) {
			w.Write(util.EscapeHTML(dest))
		}
		w.WriteString(`">image: `)
		if alt.Len() == 0 {
			alt.WriteString("(no description)")
		}
		w.Write(util.EscapeHTML(alt.Bytes()))
		w.WriteString("</a>")
		return ast.WalkSkipChildren, nil
	})
}

// Markdown renders Markdown to HTML.
func Markdown(src []byte) (template.HTML, error) {
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}
