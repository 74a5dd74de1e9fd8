package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// pageKind names the kind of page at a path of the site: the path with
// question numbers and transcript part numbers replaced, so that
// runs/x/q3.html and runs/x/q7.html are one kind, while each run keeps its
// own kinds (a decision run's pages differ from a log-probability run's).
var questionRE = regexp.MustCompile(`q\d+(-transcripts)?(-\d+)?\.html$`)

func pageKind(rel string) string {
	return questionRE.ReplaceAllString(rel, "q<N>$1.html")
}

// onePerKind lists the site's HTML pages, one of each kind (the first in
// path order).
func onePerKind(t *testing.T, dir string) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		k := pageKind(filepath.ToSlash(rel))
		if !seen[k] {
			seen[k] = true
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestNuHTMLChecker validates one page of every kind, and the stylesheet,
// with the Nu Html Checker (npm vnu-jar, run with the machine's java), in
// one run of the checker.
func TestNuHTMLChecker(t *testing.T) {
	t.Parallel()
	jar := npmFile(t, "vnu-jar/build/dist/vnu.jar")
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed: `apt-get install -y default-jre-headless` (.ci/run does)")
	}
	files := onePerKind(t, siteDir)
	if len(files) < 10 {
		t.Fatalf("only %d kinds of page found in the site", len(files))
	}
	// And the listings' pages of the site in pages of two places, whose
	// pagers the committed site (one page a listing) never shows.
	paged := pagedSite(t)
	for _, p := range pagedPages(t) {
		files = append(files, filepath.Join(paged, p))
	}
	// Messages name the pages from the folder both sites are in.
	top := filepath.Dir(siteDir)
	css, _ := filepath.Glob(filepath.Join(siteDir, "assets", "*.css"))
	{
		// One short run of the JVM: its first-tier compiler only
		// (TieredStopAtLevel=1) and the serial collector; the test took
		// 13 CPU-s so (the paged site's build included), 22-25 with the
		// defaults (the optimising compiler's work does not pay back in
		// a run this short); the same checks. The first tier's frames
		// are larger: with the default 1 MB stack the checker overflows
		// it evaluating its schema.
		args := append([]string{"-Xss8m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar, "--errors-only", "--format", "json", "--also-check-css"}, append(files, css...)...)
		cmd := exec.Command(java, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		runErr := cmd.Run()
		var out struct {
			Messages []struct {
				Type    string `json:"type"`
				SubType string `json:"subType"`
				URL     string `json:"url"`
				Line    int    `json:"lastLine"`
				Column  int    `json:"lastColumn"`
				Message string `json:"message"`
				Extract string `json:"extract"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(stderr.Bytes(), &out); err != nil {
			t.Fatalf("vnu: %v (exit: %v)\nstdout: %s\nstderr: %s", err, runErr, stdout.String(), stderr.String())
		}
		for _, m := range out.Messages {
			// The checker's CSS grammar predates container queries
			// (CSS Conditional 5: container-type, @container), which the
			// scroll cue of wide tables uses; nothing else is let pass.
			if strings.HasPrefix(m.Message, "CSS: “container-type”: Property “container-type” doesn't exist") ||
				strings.HasPrefix(m.Message, "CSS: Unrecognized at-rule “@container”") {
				continue
			}
			rel := strings.TrimPrefix(m.URL, "file:")
			if r, err := filepath.Rel(top, rel); err == nil {
				rel = r
			}
			t.Errorf("vnu %s: %s:%d:%d: %s\n    %s", m.Type, rel, m.Line, m.Column, m.Message, strings.ReplaceAll(m.Extract, "\n", "⏎"))
		}
		if runErr != nil && len(out.Messages) == 0 {
			t.Errorf("vnu exited with %v and reported nothing: %s", runErr, stdout.String())
		}
	}
	if testing.Verbose() {
		var rels []string
		for _, f := range files {
			r, _ := filepath.Rel(top, f)
			rels = append(rels, r)
		}
		fmt.Printf("vnu checked %d pages: %s\n", len(files), strings.Join(rels, " "))
	}
}
