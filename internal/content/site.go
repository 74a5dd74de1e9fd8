package content

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

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
	RepoURL   string  `yaml:"repo_url,omitempty"`
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
	Previous []byte
	// Files lists every file read, for provenance.
	Files []string
}

var (
	slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// Load reads the content folder. label names it in error messages.
func Load(fsys fs.FS, label string) (*Content, error) {
	c := &Content{}
	name := path.Join(label, "site.yaml")
	data, err := fs.ReadFile(fsys, "site.yaml")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	c.Files = append(c.Files, "site.yaml")
	if err := strictyaml.Decode(name, data, &c.Site); err != nil {
		return nil, err
	}
	s := &c.Site
	if s.Title == "" || s.Benchmark == "" {
		return nil, fmt.Errorf("%s: title and benchmark are required", name)
	}
	if s.BasePath == "" {
		s.BasePath = "/"
	}
	if !strings.HasPrefix(s.BasePath, "/") || !strings.HasSuffix(s.BasePath, "/") {
		return nil, fmt.Errorf("%s: base_path %q must start and end with /", name, s.BasePath)
	}
	if s.Release.Label == "" || !dateRE.MatchString(s.Release.Date) {
		return nil, fmt.Errorf("%s: release needs a label and a date (YYYY-MM-DD)", name)
	}
	if !slugRE.MatchString(strings.ReplaceAll(s.Benchmark, "_", "-")) {
		return nil, fmt.Errorf("%s: benchmark %q is not a plain file name", name, s.Benchmark)
	}
	bpath := "benchmarks/" + s.Benchmark + ".json"
	bdata, err := fs.ReadFile(fsys, bpath)
	if err != nil {
		return nil, fmt.Errorf("%s: benchmark %q: %v", name, s.Benchmark, err)
	}
	c.Files = append(c.Files, bpath)
	if c.Benchmark, err = ParseBenchmark(path.Join(label, bpath), bdata); err != nil {
		return nil, err
	}
	if c.Benchmark.Page.ID != s.Benchmark {
		return nil, fmt.Errorf("%s: page.id is %q, but site.yaml names %q", path.Join(label, bpath), c.Benchmark.Page.ID, s.Benchmark)
	}
	mds, err := fs.Glob(fsys, "pages/*.md")
	if err != nil {
		return nil, err
	}
	sort.Strings(mds)
	for _, p := range mds {
		slug := strings.TrimSuffix(path.Base(p), ".md")
		if !slugRE.MatchString(slug) {
			return nil, fmt.Errorf("%s: page name %q: use lower-case letters, digits and '-'", path.Join(label, p), slug)
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		html, err := Markdown(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path.Join(label, p), err)
		}
		title := Title(src)
		if title == "" {
			return nil, fmt.Errorf("%s:1: a page starts with a '# Title' line", path.Join(label, p))
		}
		c.Pages = append(c.Pages, Page{Slug: slug, Title: title, HTML: html, Source: p})
		c.Files = append(c.Files, p)
	}
	if s.Previous != "" {
		if c.Previous, err = fs.ReadFile(fsys, s.Previous); err != nil {
			return nil, fmt.Errorf("%s: previous: %v", name, err)
		}
		c.Files = append(c.Files, s.Previous)
	}
	return c, nil
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

var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	// No html.WithUnsafe: raw HTML is dropped and javascript: links are not
	// rendered, which keeps Markdown taken from run manifests harmless.
)

// Markdown renders Markdown to HTML.
func Markdown(src []byte) (template.HTML, error) {
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}
