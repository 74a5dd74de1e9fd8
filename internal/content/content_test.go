package content

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func realBenchmark(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../content/benchmarks/discrim_eval.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseRealBenchmark(t *testing.T) {
	f, err := ParseBenchmark("b.json", realBenchmark(t))
	if err != nil {
		t.Fatal(err)
	}
	p := f.Page
	if p.Name != "Discrim-Eval" || p.Metric.Direction != "lower_is_better" || p.Dataset.License != "CC BY 4.0" ||
		p.Paper.Arxiv != "2312.03689" || len(p.Sources) != 3 || p.Dataset.Size != 18900 || len(p.Publisher.Authors) != 9 {
		t.Errorf("decoded %+v", p)
	}
	if !strings.Contains(f.Body, "## What it measures") {
		t.Error("body not decoded")
	}
}

func TestBenchmarkErrors(t *testing.T) {
	good := string(realBenchmark(t))
	cases := []struct{ name, doc, want string }{
		{"wrong type", strings.Replace(good, `"year": 2023`, `"year": "2023"`, 1), "field page.paper.year: string value where int is expected"},
		{"missing", strings.Replace(good, `"license": "CC BY 4.0",`, ``, 1), "missing required field page.dataset.license"},
		{"syntax", good[:len(good)/2], "the JSON ends early"},
		{"unknown fields are fine", strings.Replace(good, `"page": {`, `"page": {"brand_new": 1,`, 1), ""},
	}
	for _, tc := range cases {
		_, err := ParseBenchmark("b.json", []byte(tc.doc))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// The line points at the offending value.
	doc := strings.Replace(good, `"year": 2023`, `"year": "2023"`, 1)
	_, err := ParseBenchmark("b.json", []byte(doc))
	line := 1 + strings.Count(doc[:strings.Index(doc, `"year": "2023"`)], "\n")
	if want := "b.json:" + strconv.Itoa(line) + ":"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %s", err, want)
	}
	// A missing field points at its parent object.
	doc = strings.Replace(good, `"license": "CC BY 4.0",`, ``, 1)
	_, err = ParseBenchmark("b.json", []byte(doc))
	line = 1 + strings.Count(doc[:strings.Index(doc, `"dataset": {`)], "\n")
	if want := "b.json:" + strconv.Itoa(line) + ":"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %s", err, want)
	}
}

func TestLoadSite(t *testing.T) {
	fsys := fstest.MapFS{
		"site.yaml":                    {Data: []byte("title: T\ndescription: D\nbenchmark: discrim_eval\nrelease: {label: r1, date: 2026-11-29}\n")},
		"benchmarks/discrim_eval.json": {Data: realBenchmark(t)},
		"pages/about.md":               {Data: []byte("# About us\n\nSome *text* <script>alert(1)</script> [x](javascript:alert(1))\n")},
	}
	c, err := Load(fsys, "content")
	if err != nil {
		t.Fatal(err)
	}
	if c.Site.BasePath != "/" || len(c.Pages) != 1 || c.Pages[0].Title != "About us" {
		t.Fatalf("%+v", c)
	}
	h := string(c.Pages[0].HTML)
	if strings.Contains(h, "<script>") || strings.Contains(h, "javascript:") || !strings.Contains(h, "<em>text</em>") {
		t.Errorf("page HTML %s", h)
	}
	fsys["site.yaml"] = &fstest.MapFile{Data: []byte("title: T\nbenchmark: discrim_eval\nrelease: {label: r1, date: 2026-11-29}\ncolour: red\n")}
	if _, err := Load(fsys, "content"); err == nil || !strings.Contains(err.Error(), "content/site.yaml:4: field colour not found") {
		t.Errorf("unknown field: %v", err)
	}
}

// TestPagesFolder: a file in content/pages that is not NAME.md is skipped
// with a warning naming it; a missing pages folder is no pages.
func TestPagesFolder(t *testing.T) {
	site, err := os.ReadFile("../../content/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	site = []byte(strings.Replace(string(site), "previous:", "# previous:", 1))
	fsys := fstest.MapFS{
		"site.yaml":                    {Data: site},
		"benchmarks/discrim_eval.json": {Data: realBenchmark(t)},
		"pages/about.md":               {Data: []byte("# About\n\nText.\n")},
		"pages/draft.txt":              {Data: []byte("# Draft\n")},
	}
	c, err := Load(fsys, "content")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pages) != 1 || len(c.Warnings) != 1 || c.Warnings[0].Error() != "content/pages/draft.txt: skipped: not a Markdown page (pages are NAME.md); rename it, or move it out of content/pages" {
		t.Errorf("pages %v, warnings %v", c.Pages, c.Warnings)
	}
	delete(fsys, "pages/about.md")
	delete(fsys, "pages/draft.txt")
	if c, err := Load(fsys, "content"); err != nil || len(c.Pages) != 0 || len(c.Warnings) != 0 {
		t.Errorf("no pages folder: %v, %v", err, c)
	}
}

// TestRunsURL: runs_url is an https folder address with a host of its own.
func TestRunsURL(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://github.com/org/repo/raw/0123abc/runs/", ""},
		{"https://example.org/runs/", ""},
		{"http://github.com/org/repo/raw/main/runs/", "want an https URL"},
		{"https://github.com@other.host/runs/", "names a user before its host (github.com@): a link to it leads to other.host"},
		{"https://user:pass@github.com/runs/", "names a user before its host (user@)"},
		{"https:///runs/", "with a host"},
		{"https://github.com/runs", "ending in /"},
		{"https://github.com/runs/?x=1/", "a query or a fragment"},
		{"https://github.com/runs/#x/", "a query or a fragment"},
		{"javascript:alert(1)/", "want an https URL"},
		{"//github.com/runs/", "want an https URL"},
	} {
		err := CheckRunsURL(c.url)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.url, err, c.want)
		}
	}
}

// TestParseBudget: pages_budget is a number of GB or MB, decimal; none is
// GitHub Pages' 1 GB.
func TestParseBudget(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{"", 1_000_000_000, ""},
		{"1 GB", 1_000_000_000, ""},
		{"750 MB", 750_000_000, ""},
		{"0.5 GB", 500_000_000, ""},
		{"1.25 GB", 1_250_000_000, ""},
		{"2.5 MB", 2_500_000, ""},
		{"1 MB", 1_000_000, ""},
		{"0.9 MB", 0, "at least 1 MB"},
		{"0 GB", 0, "at least 1 MB"},
		{"1GB", 0, `want a size such as "1 GB"`},
		{"1 gb", 0, `want a size such as "1 GB"`},
		{"1 TB", 0, `want a size such as "1 GB"`},
		{"-1 GB", 0, `want a size such as "1 GB"`},
		{"1e3 MB", 0, `want a size such as "1 GB"`},
		{"1234567 GB", 0, "at most 6 digits"},
	} {
		got, err := ParseBudget(c.in)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) || got != c.want {
			t.Errorf("ParseBudget(%q) = %d, %v; want %d, %q", c.in, got, err, c.want, c.err)
		}
	}
	s, _, err := ParseSite("content/site.yaml", []byte("title: T\nbenchmark: b\nrelease: {label: x, date: \"2026-01-02\"}\npages_budget: 2 GB\n"))
	if err != nil || s.Budget != 2_000_000_000 {
		t.Errorf("pages_budget: 2 GB: %d, %v", s.Budget, err)
	}
	_, _, err = ParseSite("content/site.yaml", []byte("title: T\nbenchmark: b\nrelease: {label: x, date: \"2026-01-02\"}\npages_budget: lots\n"))
	if err == nil || !strings.HasPrefix(err.Error(), `content/site.yaml:4: pages_budget "lots": want a size`) {
		t.Errorf("pages_budget: lots: %v", err)
	}
}

// TestPreviousOfAnotherSite: a previous release of another site (another
// title or benchmark) or not before this one is warned of, naming
// site.yaml's line; this site's earlier release is not.
func TestPreviousOfAnotherSite(t *testing.T) {
	s := Site{Title: "Discrim-Eval Leaderboard", Benchmark: "discrim_eval", Release: Release{Label: "2026.11", Date: "2026-11-29"}}
	release := func(title, bench, label, date string) *ReleaseFile {
		return &ReleaseFile{Path: "releases/r.json", Data: []byte(`{"title":"` + title + `","benchmark":"` + bench + `","release":{"label":"` + label + `","date":"` + date + `"}}`)}
	}
	for _, c := range []struct {
		r    *ReleaseFile
		want []string
	}{
		{release("Discrim-Eval Leaderboard", "discrim_eval", "2026.10", "2026-10-15"), nil},
		{release("Discrim-Eval Leaderboard", "", "2026.10", "2026-10-15"), nil},
		{release("Another Board", "discrim_eval", "2026.10", "2026-10-15"), []string{`is the release of a site titled "Another Board", not "Discrim-Eval Leaderboard"`}},
		{release("Discrim-Eval Leaderboard", "bbq", "2026.10", "2026-10-15"), []string{`is a release of the benchmark "bbq", not "discrim_eval"`}},
		{release("Discrim-Eval Leaderboard", "discrim_eval", "2026.12", "2026-12-01"), []string{"is dated 2026-12-01, not before this release (2026.11, 2026-11-29)"}},
		{release("Discrim-Eval Leaderboard", "discrim_eval", "2026.11", "2026-10-01"), []string{`has this release's label, "2026.11"`}},
	} {
		ws := previousWarnings("content/site.yaml", 17, s, c.r)
		if len(ws) != len(c.want) {
			t.Errorf("%s: %v, want %q", c.r.Data, ws, c.want)
			continue
		}
		for i, w := range ws {
			if !strings.HasPrefix(w.Error(), "content/site.yaml:17: previous: releases/r.json ") || !strings.Contains(w.Error(), c.want[i]) {
				t.Errorf("%s: %v, want %q", c.r.Data, w, c.want[i])
			}
		}
	}
}
