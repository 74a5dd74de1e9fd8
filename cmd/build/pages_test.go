package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// workflowRunsURL is the address the Pages workflow gives -runs-url for
// a repository and commit: its RUNS_URL, and the one of each tagged
// release, which must be the same address.
func workflowRunsURL(t *testing.T, repo, commit string) string {
	t.Helper()
	wf, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "pages.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s+RUNS_URL: (.+)$`).FindSubmatch(wf)
	if m == nil {
		t.Fatal("pages.yml sets no RUNS_URL")
	}
	url := strings.NewReplacer("${{ github.repository }}", repo, "${{ github.sha }}", commit).Replace(string(m[1]))
	tag := regexp.MustCompile(`-runs-url "([^"]+)"\)`).FindSubmatch(wf)
	if tag == nil {
		t.Fatal("pages.yml gives no -runs-url to the tagged releases")
	}
	if got := strings.NewReplacer("$REPO", repo, "$commit", commit).Replace(string(tag[1])); got != url {
		t.Errorf("pages.yml links a tagged release's files at %s, its own at %s", got, url)
	}
	if !strings.HasPrefix(url, "https://raw.githubusercontent.com/"+repo+"/"+commit+"/") {
		t.Errorf("pages.yml's RUNS_URL %s is not the repository's raw files at the commit", url)
	}
	return url
}

// TestPagesWorkflowLinks: a site whose runs' copies pass a small budget,
// built as the Pages workflow builds it (-runs-url its RUNS_URL), links
// every run file where the workflow publishes it: the raw file at the
// commit of the runs folder's path, with that file's SHA-256 beside it on
// the run page, the Downloads page and in the run's data file; nothing is
// copied and no page links a copy. -verify with -verify-runs checks the
// linked files against the runs folder, and finds one that differs.
func TestPagesWorkflowLinks(t *testing.T) {
	const repo, commit = "ORG/REPO", "0123456789abcdef0123456789abcdef01234567"
	url := workflowRunsURL(t, repo, commit)
	root := baseRepo(t)
	build := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"-q", "-cache", "off"}, args...), &stdout, &stderr)
		return stdout.String() + stderr.String(), err
	}
	// The site with its files copied, then a budget between its pages and
	// the whole.
	if out, err := build("-o", "copied"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var total, copies int64
	filepath.WalkDir("copied", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			st, _ := d.Info()
			total += st.Size()
			if strings.HasPrefix(filepath.ToSlash(p), "copied/data/runs/demo/") {
				copies += st.Size()
			}
		}
		return err
	})
	if copies == 0 {
		t.Fatal("no copies in data/runs/demo/")
	}
	budget := total - copies/2
	site := filepath.Join("content", "site.yaml")
	yaml, err := os.ReadFile(site)
	if err != nil {
		t.Fatal(err)
	}
	yaml = fmt.Appendf(yaml, "pages_budget: %d.%06d MB\n", budget/1_000_000, budget%1_000_000)
	if err := os.WriteFile(site, yaml, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := build("-o", "site", "-runs-url", url)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "are linked at "+url+", not copied") {
		t.Errorf("no line says the files are linked:\n%s", out)
	}
	// The runs folder as the repository holds it at the commit.
	files := map[string]string{} // path in the runs folder → SHA-256
	filepath.WalkDir("runs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			files[strings.TrimPrefix(filepath.ToSlash(p), "runs/")] = hex.EncodeToString(sum[:])
		}
		return err
	})
	var rj sitedata.Run
	data, err := os.ReadFile(filepath.Join("site", "data", "runs", "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rj); err != nil {
		t.Fatal(err)
	}
	if len(rj.Files) != len(files) {
		t.Errorf("the data file lists %d files, the run folder holds %d", len(rj.Files), len(files))
	}
	for _, f := range rj.Files {
		if f.Download != url+f.Path || files[f.Path] != f.SHA256 {
			t.Errorf("data file: %s at %s, sha256 %s; the workflow publishes %s%s, sha256 %s", f.Path, f.Download, f.SHA256, url, f.Path, files[f.Path])
		}
	}
	// Every link into the runs folder's address, on every page: a file the
	// repository holds there, its SHA-256 on the same page.
	link := regexp.MustCompile(`href="?` + regexp.QuoteMeta(url) + `([^" >]+)`)
	linked := map[string]bool{}
	filepath.WalkDir("site", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		page, _ := os.ReadFile(p)
		if bytes.Contains(page, []byte("data/runs/demo/")) {
			t.Errorf("%s links a copy the site does not hold", p)
		}
		for _, m := range link.FindAllSubmatch(page, -1) {
			f := string(m[1])
			sum, ok := files[f]
			switch {
			case !ok:
				t.Errorf("%s links %s%s: the runs folder holds no %s", p, url, f, f)
			case !bytes.Contains(page, []byte(sum)):
				t.Errorf("%s links %s%s without its sha256 %s", p, url, f, sum)
			}
			linked[filepath.ToSlash(p)+" "+f] = true
		}
		return nil
	})
	for _, page := range []string{"site/runs/demo/index.html", "site/downloads.html"} {
		for f := range files {
			if !linked[page+" "+f] {
				t.Errorf("%s does not link %s at %s", page, f, url)
			}
		}
	}
	if _, err := os.Stat(filepath.Join("site", "data", "runs", "demo")); err == nil {
		t.Error("the run's files are copied into the site as well")
	}

	// -verify -verify-runs: the linked files are the runs folder's; one
	// changed is found.
	if out, err := build("-runs-url", url, "-verify", "site", "-verify-runs", "runs"); err != nil || !strings.Contains(out, "verify-runs runs: identical: the 2 files the site links") {
		t.Errorf("-verify-runs on the runs folder: %v\n%s", err, out)
	}
	published := filepath.Join(root, "published-runs")
	if err := os.CopyFS(published, os.DirFS("runs")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(published, "demo", "manifest.yaml"), append(bytes.Clone([]byte("# changed\n")), mustRead(t, filepath.Join("runs", "demo", "manifest.yaml"))...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = build("-runs-url", url, "-verify", "site", "-verify-runs", published)
	if err == nil || !strings.Contains(out, "1 of the 2 files the site links differ:\n  "+filepath.Join(published, "demo", "manifest.yaml")+": ") {
		t.Errorf("-verify-runs with a manifest changed: %v\n%s", err, out)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
