package site

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The house rules of the module's packages (TestHouseRules) and of the
// site's package docs (TestPackageDocs).
const (
	maxCodeLines = 4000 // lines of code a package may have (non-test, non-blank, not comment)
	maxBackShare = 0.25 // of the references between its files, the share that may run back up
	minFiles     = 10   // a package of fewer files is not held to maxBackShare
)

// goPackage is one folder's non-test Go files, parsed.
type goPackage struct {
	dir   string // from the repository's root
	files map[string]*ast.File
	fset  *token.FileSet
	src   map[string][]byte
}

func readPackage(t *testing.T, dir string) *goPackage {
	t.Helper()
	p := &goPackage{dir: dir, files: map[string]*ast.File{}, fset: token.NewFileSet(), src: map[string][]byte{}}
	entries, err := os.ReadDir(filepath.Join("../..", dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join("../..", dir, n))
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(p.fset, n, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		p.files[n], p.src[n] = f, src
	}
	return p
}

// codeLines counts the package's lines that hold code: not blank, not
// only a comment.
func (p *goPackage) codeLines() int {
	n := 0
	for name, f := range p.files {
		comment := map[int]bool{}
		for _, g := range f.Comments {
			for _, c := range g.List {
				for l := p.fset.Position(c.Pos()).Line; l <= p.fset.Position(c.End()).Line; l++ {
					comment[l] = true
				}
			}
		}
		sc := bufio.NewScanner(strings.NewReader(string(p.src[name])))
		sc.Buffer(nil, 1<<20)
		for l := 1; sc.Scan(); l++ {
			s := strings.TrimSpace(sc.Text())
			if s == "" || (comment[l] && (strings.HasPrefix(s, "//") || strings.HasPrefix(s, "/*") || strings.HasPrefix(s, "*"))) {
				continue
			}
			n++
		}
	}
	return n
}

// decls are the package-level names each file declares (methods as
// Type.Method).
func (p *goPackage) decls() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for name, f := range p.files {
		d := map[string]bool{}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					d[decl.Name.Name] = true
					continue
				}
				t := decl.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				switch x := t.(type) {
				case *ast.IndexExpr:
					t = x.X
				case *ast.IndexListExpr:
					t = x.X
				}
				if id, ok := t.(*ast.Ident); ok {
					d[id.Name+"."+decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range decl.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						d[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range s.Names {
							d[id.Name] = true
						}
					}
				}
			}
		}
		out[name] = d
	}
	return out
}

// refs is the package's file-level reference graph: from a file to each
// other file that declares a package-level name it uses (the names the
// parser left unresolved in the file, found declared in another).
func (p *goPackage) refs() map[[2]string]bool {
	declared := map[string]string{}
	for name, d := range p.decls() {
		for n := range d {
			if !strings.Contains(n, ".") {
				declared[n] = name // a build-tagged pair declares a name twice: either will do
			}
		}
	}
	edges := map[[2]string]bool{}
	for name, f := range p.files {
		for _, id := range f.Unresolved {
			if to, ok := declared[id.Name]; ok && to != name {
				edges[[2]string{name, to}] = true
			}
		}
	}
	return edges
}

// backShare orders the files so that as few references as it can find
// run back up (from a file to one above it: the greedy order of Eades,
// Lin and Smyth, which takes sinks to the bottom and sources to the top
// and otherwise the file with the most references out less in), and
// returns how many references there are and how many run back up.
func backShare(files []string, edges map[[2]string]bool) (total, back int) {
	out, in := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, f := range files {
		out[f], in[f] = map[string]bool{}, map[string]bool{}
	}
	for e := range edges {
		out[e[0]][e[1]], in[e[1]][e[0]] = true, true
	}
	left := slices.Clone(files)
	sort.Strings(left)
	var top, bottom []string
	remove := func(f string) {
		left = slices.DeleteFunc(left, func(g string) bool { return g == f })
		for g := range out[f] {
			delete(in[g], f)
		}
		for g := range in[f] {
			delete(out[g], f)
		}
	}
	for len(left) > 0 {
		moved := true
		for moved {
			moved = false
			for _, f := range slices.Clone(left) {
				switch {
				case len(out[f]) == 0:
					bottom = append([]string{f}, bottom...)
					remove(f)
					moved = true
				case len(in[f]) == 0:
					top = append(top, f)
					remove(f)
					moved = true
				}
			}
		}
		if len(left) == 0 {
			break
		}
		best := left[0]
		for _, f := range left {
			if len(out[f])-len(in[f]) > len(out[best])-len(in[best]) {
				best = f
			}
		}
		top = append(top, best)
		remove(best)
	}
	order := map[string]int{}
	for i, f := range append(top, bottom...) {
		order[f] = i
	}
	for e := range edges {
		total++
		if order[e[1]] < order[e[0]] {
			back++
		}
	}
	return total, back
}

// modulePackageDirs are the module's folders with non-test Go files.
func modulePackageDirs(t *testing.T) []string {
	pkgs := modulePackages(t)
	sort.Strings(pkgs)
	return pkgs
}

// TestHouseRules: no package of the module has more than maxCodeLines
// lines of code, and in a package of minFiles files or more at most
// maxBackShare of the references between its files run back up. It logs
// every package's figures (go test -run TestHouseRules -v).
func TestHouseRules(t *testing.T) {
	t.Parallel()
	for _, dir := range modulePackageDirs(t) {
		p := readPackage(t, dir)
		var names []string
		for n := range p.files {
			names = append(names, n)
		}
		lines := p.codeLines()
		total, back := backShare(names, p.refs())
		share := 0.0
		if total > 0 {
			share = float64(back) / float64(total)
		}
		t.Logf("%-36s %3d files %5d lines of code %4d references between files, %3d back up (%.0f%%)", dir, len(names), lines, total, back, 100*share)
		if lines > maxCodeLines {
			t.Errorf("%s: %d lines of code, over %d: split it by job", dir, lines, maxCodeLines)
		}
		if len(names) >= minFiles && share > maxBackShare {
			t.Errorf("%s: %d of its %d references between files run back up (%.0f%%, over %.0f%%)", dir, back, total, 100*share, 100*maxBackShare)
		}
	}
}

// TestPackageDocs: every package doc of the site (internal/site and the
// packages in its folder) names only files that exist, and each file its
// "# Files" list names holds the names listed after it; and a doc's
// "Of the site's packages it may import:" is true of its package.
func TestPackageDocs(t *testing.T) {
	t.Parallel()
	dirs := []string{"internal/site"}
	for _, d := range modulePackageDirs(t) {
		if strings.HasPrefix(d, "internal/site/") {
			dirs = append(dirs, d)
		}
	}
	goFile := regexp.MustCompile(`[A-Za-z0-9_./<>-]*[A-Za-z0-9_]\.go\b`)
	ident := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)
	for _, dir := range dirs {
		p := readPackage(t, dir)
		doc, ok := p.src["doc.go"]
		if !ok {
			t.Errorf("%s: no doc.go", dir)
			continue
		}
		decls := p.decls()
		text := string(doc)
		for _, m := range goFile.FindAllString(text, -1) {
			if strings.ContainsAny(m, "<>") {
				continue
			}
			if _, err := os.Stat(filepath.Join("../..", dir, m)); err != nil {
				if _, err := os.Stat(filepath.Join("../..", m)); err != nil {
					t.Errorf("%s/doc.go names %s, which is not there", dir, m)
				}
			}
		}
		inFiles := false
		for _, l := range strings.Split(text, "\n") {
			switch {
			case strings.HasPrefix(l, "// # "):
				inFiles = l == "// # Files"
				continue
			case !inFiles || !strings.HasPrefix(l, "//\t"):
				continue
			}
			head, list, ok := strings.Cut(strings.TrimPrefix(l, "//\t"), ": ")
			if !ok {
				t.Errorf("%s/doc.go: %q is not \"file.go: Name, Name\"", dir, l)
				continue
			}
			files := strings.Split(head, ", ")
			for _, item := range strings.Split(list, ", ") {
				if !ident.MatchString(item) {
					continue // words, not a name
				}
				found := false
				for _, f := range files {
					found = found || decls[f][item]
				}
				if !found {
					t.Errorf("%s/doc.go says %s holds %s; it does not", dir, head, item)
				}
			}
		}
		// What it may import of the site's packages.
		const may = "// Of the site's packages it may import: "
		i := strings.Index(text, may)
		if i < 0 {
			if dir != "internal/site" {
				t.Errorf("%s/doc.go does not say which of the site's packages it may import (%q)", dir, may)
			}
			continue
		}
		line, _, _ := strings.Cut(text[i+len(may):], "\n")
		allowed := map[string]bool{}
		for _, a := range strings.Split(strings.TrimSuffix(line, "."), ", ") {
			if name, _, _ := strings.Cut(a, " "); name != "none" {
				allowed[name] = true
			}
		}
		for name, f := range p.files {
			for _, is := range f.Imports {
				path, _ := strconv.Unquote(is.Path.Value)
				if sub, ok := strings.CutPrefix(path, "github.com/discrimeval/leaderboard/internal/site/"); ok && !allowed[sub] {
					t.Errorf("%s/%s imports internal/site/%s, which its doc does not allow", dir, name, sub)
				}
			}
		}
	}
}

// maxHTMLLines is how many lines of Go may write HTML in string literals:
// a page's markup and words are its template's (templates/), which Go
// fills with values.
const maxHTMLLines = 4

var (
	// htmlTag is an element's start or end tag (a name in angle brackets
	// after a letter, digit or underscore is a placeholder: sample_<i>).
	htmlTag = regexp.MustCompile(`(^|[^A-Za-z0-9_])</?(a|abbr|article|aside|b|body|br|button|caption|code|col|colgroup|dd|details|div|dl|dt|em|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|i|img|input|label|li|link|main|meta|nav|ol|option|p|pre|script|section|select|small|span|strong|style|sub|summary|sup|table|tbody|td|textarea|tfoot|th|thead|time|title|tr|ul)([\s>/]|$)`)
	// htmlAttr is an attribute written out: ` class=`, `" href=`.
	htmlAttr = regexp.MustCompile(`(^|[\s"'])(class|id|href|src|rel|scope|colspan|rowspan|tabindex|type|style|role|download|data-[a-z-]+|aria-[a-z-]+)=`)
)

// notPages are the module's packages whose Go writes or reads HTML that
// is no page of the site, and why.
var notPages = map[string]string{
	"cmd/scale":            "a page for hugo, whose build is timed beside ours",
	"internal/changes":     "Markdown for a pull request's summary on GitHub",
	"internal/browsertest": "reads the pages",
	"internal/crawl":       "reads the pages",
}

// htmlLiterals are the lines of the module's Go (not its tests, nor
// notPages) with a string literal that holds markup, as file:line and
// the literal.
func htmlLiterals(t *testing.T) []string {
	var out []string
	for _, dir := range modulePackageDirs(t) {
		if notPages[dir] != "" {
			continue
		}
		p := readPackage(t, dir)
		for _, name := range slices.Sorted(maps.Keys(p.files)) {
			seen := map[int]bool{}
			ast.Inspect(p.files[name], func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || !htmlTag.MatchString(s) && !htmlAttr.MatchString(s) {
					return true
				}
				if line := p.fset.Position(lit.Pos()).Line; !seen[line] {
					seen[line] = true
					out = append(out, fmt.Sprintf("%s/%s:%d: %q", dir, name, line, s))
				}
				return true
			})
		}
	}
	return out
}

// TestHTMLInTemplates: at most maxHTMLLines lines of the module's Go write
// the site's HTML in string literals; the rest is in templates (a go/ast
// scan of every string literal for a tag or an attribute). It logs each
// (go test -run TestHTMLInTemplates -v).
func TestHTMLInTemplates(t *testing.T) {
	t.Parallel()
	lines := htmlLiterals(t)
	for _, l := range lines {
		t.Log(l)
	}
	if len(lines) > maxHTMLLines {
		t.Errorf("%d lines of Go write HTML in string literals, more than %d: put the markup in a template", len(lines), maxHTMLLines)
	}
}

// TestBackShare: the measure of TestHouseRules can fail. Files that call
// down a chain have no reference back up, whatever their names; files
// each referring to every other have half of them back up in any order;
// and a chain with one reference from its last file to its first has
// that one back up.
func TestBackShare(t *testing.T) {
	t.Parallel()
	files := []string{"z.go", "y.go", "x.go", "w.go", "v.go", "u.go", "t.go", "s.go", "r.go", "q.go"}
	chain := map[[2]string]bool{}
	for i := 1; i < len(files); i++ {
		chain[[2]string{files[i-1], files[i]}] = true
	}
	if total, back := backShare(files, chain); total != 9 || back != 0 {
		t.Errorf("a chain: %d of %d references back up, want 0 of 9", back, total)
	}
	all := map[[2]string]bool{}
	for _, a := range files {
		for _, b := range files {
			if a != b {
				all[[2]string{a, b}] = true
			}
		}
	}
	if total, back := backShare(files, all); total != 90 || back != 45 || float64(back)/float64(total) <= maxBackShare {
		t.Errorf("every file referring to every other: %d of %d back up, want 45 of 90", back, total)
	}
	chain[[2]string{files[len(files)-1], files[0]}] = true
	if total, back := backShare(files, chain); total != 10 || back != 1 {
		t.Errorf("a cycle: %d of %d references back up, want 1 of 10", back, total)
	}
}
