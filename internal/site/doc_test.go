package site

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"text/tabwriter"
	"unicode"
)

// kindsTable is doc.go's table of page kinds, written from pageKinds.
func kindsTable() string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tURL\tfile\tinputs")
	for _, k := range pageKinds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.Name, k.Url, k.File, k.Inputs)
	}
	tw.Flush()
	var out strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		out.WriteString("//\t" + strings.TrimRight(l, " ") + "\n")
	}
	return out.String()
}

// docBlock finds the lines of doc.go that begin with the line starting
// with first and go on while they are a code block ("//\t…").
func docBlock(t *testing.T, doc, first string) (start, end int) {
	t.Helper()
	start = strings.Index(doc, "\n"+first)
	if start < 0 {
		t.Fatalf("doc.go has no line %q", first)
	}
	start++
	end = start
	for strings.HasPrefix(doc[end:], "//\t") {
		end += strings.Index(doc[end:], "\n") + 1
	}
	return start, end
}

// TestDocListsKinds: doc.go's table of page kinds is pageKinds' (go test
// -run TestDocListsKinds -update rewrites it), and each kind's file
// defines its data type.
func TestDocListsKinds(t *testing.T) {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start, end := docBlock(t, doc, "//\tkind ")
	want := kindsTable()
	if doc[start:end] != want {
		if *update {
			if err := os.WriteFile("doc.go", []byte(doc[:start]+want+doc[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("doc.go's table of page kinds is not pageKinds' (go test -run TestDocListsKinds -update):\n%s", want)
		}
	}
	for _, k := range pageKinds {
		src, err := os.ReadFile(k.File)
		if err != nil {
			t.Errorf("page kind %s: %v", k.Name, err)
		} else if !strings.Contains(string(src), "\ntype "+k.Body.Name()+" struct") {
			t.Errorf("page kind %s: %s does not define its data type %s", k.Name, k.File, k.Body.Name())
		}
	}
}

// phaseNames are the phases' names, in order.
func phaseNames() []string {
	var names []string
	for _, ph := range phases {
		names = append(names, phaseName(ph))
	}
	return names
}

// TestDocListsPhases: doc.go's list of phases, the README's and the
// progress lines of a build name the phases of phases.go, in order, and
// an error names the phase it stopped in.
func TestDocListsPhases(t *testing.T) {
	t.Parallel()
	want := phaseNames()
	if strings.Join(want, " ") != "load runs boards assemble render write" {
		t.Errorf("phases %v: the test's claims below are of another list", want)
	}
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start, end := docBlock(t, doc, "//\tload ")
	var listed []string
	for _, l := range strings.Split(doc[start:end], "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "//\t")); len(f) > 0 && !strings.HasPrefix(l, "//\t ") {
			listed = append(listed, f[0])
		}
	}
	if !slices.Equal(listed, want) {
		t.Errorf("doc.go lists the phases %v, want %v", listed, want)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if arrows := strings.Join(want, " → "); strings.Count(string(readme), arrows) != 2 {
		t.Errorf("README.md does not say %q in its two places (flags, layout)", arrows)
	}

	// The progress lines of the shared fixture site's build.
	fixtureSite(t)
	progress := siteProgress.String()
	var shown []string
	for _, l := range strings.Split(strings.TrimSpace(progress), "\n") {
		f := strings.Fields(strings.TrimPrefix(l, "build: "))
		if len(f) == 0 || !strings.HasSuffix(f[0], ":") {
			t.Fatalf("progress line %q", l)
		}
		if name := strings.TrimSuffix(f[0], ":"); len(shown) == 0 || shown[len(shown)-1] != name {
			shown = append(shown, name)
		}
	}
	if !slices.Equal(shown, want) {
		t.Errorf("progress lines %v, want %v:\n%s", shown, want, progress)
	}

	// An unreadable template stops the load phase; a broken scored file
	// the runs phase.
	cfg := fixture(t)
	bad := cfg
	bad.Templates = fstest.MapFS{"layout.html": {Data: []byte("{{")}, "run.html": {Data: []byte("x")}}
	if _, err := Generate(bad); err == nil || !strings.HasPrefix(err.Error(), "load: ") {
		t.Errorf("a broken template: %v, want a load error", err)
	}
	bad = cfg
	runs := fstest.MapFS{}
	for p, f := range cfg.Runs.(fstest.MapFS) {
		if strings.HasSuffix(p, ".gz") {
			f = &fstest.MapFile{Data: []byte("not gzip")}
		}
		runs[p] = f
	}
	bad.Runs = runs
	if _, err := Generate(bad); err == nil || !strings.HasPrefix(err.Error(), "runs: runs/") {
		t.Errorf("a broken scored file: %v, want a runs error naming the file", err)
	}
}

// TestFileAndFunctionSizes: no file of the package (tests aside) is over
// 400 lines and no function over 80, so that each file keeps to one job
// and each function can be read at once.
func TestFileAndFunctionSizes(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if lines := fset.File(f.Pos()).LineCount(); lines > 400 {
			t.Errorf("%s: %d lines, over 400: split it by job", n, lines)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > 80 {
					t.Errorf("%s: %s is %d lines, over 80", fset.Position(fd.Pos()), fd.Name.Name, lines)
				}
			}
		}
	}
}

// TestDocsFit: the README is at most 250 lines with both commands in its
// first 60, its Layout lists every package of the module, and every
// relative link of the top-level Markdown files leads to a file and,
// with a fragment, to one of its headings.
func TestDocsFit(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(readme), "\n"), "\n")
	if len(lines) > 250 {
		t.Errorf("README.md has %d lines, over 250", len(lines))
	}
	first := strings.Join(lines[:min(60, len(lines))], "\n")
	for _, cmd := range []string{"go run ./cmd/build", "make check"} {
		if !strings.Contains(first, cmd) {
			t.Errorf("README.md's first 60 lines do not give %q", cmd)
		}
	}
	layout := string(readme)[strings.Index(string(readme), "## Layout"):]
	// prefix/{a,b} names prefix/a and prefix/b.
	layout = regexp.MustCompile(`(\S*)/\{([^}]*)\}`).ReplaceAllStringFunc(layout, func(m string) string {
		prefix, list, _ := strings.Cut(strings.TrimSuffix(m, "}"), "/{")
		var out []string
		for _, n := range strings.Split(list, ",") {
			out = append(out, prefix+"/"+n)
		}
		return strings.Join(out, " ")
	})
	for _, pkg := range modulePackages(t) {
		// A package inside another's folder may be named from there
		// (importer/lmeval).
		short := strings.TrimPrefix(pkg, "internal/")
		if !strings.Contains(layout, pkg) && !(strings.Contains(short, "/") && strings.Contains(layout, short)) {
			t.Errorf("README.md's Layout does not list %s", pkg)
		}
	}
	link := regexp.MustCompile(`\]\(([^)#:]*\.md)(#[^)]*)?\)`)
	for _, name := range []string{"README.md", "CONTRIBUTING.md", "PERFORMANCE.md", "METHODOLOGY.md"} {
		data, err := os.ReadFile("../../" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target, err := os.ReadFile(filepath.Join("../..", m[1]))
			if err != nil {
				t.Errorf("%s links to %s: %v", name, m[1], err)
				continue
			}
			if m[2] != "" && !slices.Contains(headingAnchors(string(target)), m[2][1:]) {
				t.Errorf("%s links to %s%s: no such heading", name, m[1], m[2])
			}
		}
	}
}

// modulePackages are the folders of the module, from the repository's
// root, that hold a Go package (test-only folders and testdata aside).
func modulePackages(t *testing.T) []string {
	var pkgs []string
	err := filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || p == filepath.Join("../..", "site")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		dir, _ := filepath.Rel("../..", filepath.Dir(p))
		if dir != "." && !slices.Contains(pkgs, filepath.ToSlash(dir)) {
			pkgs = append(pkgs, filepath.ToSlash(dir))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// headingAnchors are the fragments GitHub gives a Markdown file's
// headings: lower case, spaces to hyphens, punctuation dropped.
func headingAnchors(md string) []string {
	var out []string
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
