package site

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"text/tabwriter"
)

// kindsTable is doc.go's table of page kinds, written from pageKinds.
func kindsTable() string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tURL\tfile\tinputs")
	for _, k := range pageKinds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.name, k.url, k.file, k.inputs)
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
		src, err := os.ReadFile(k.file)
		if err != nil {
			t.Errorf("page kind %s: %v", k.name, err)
		} else if !strings.Contains(string(src), "\ntype "+k.body.Name()+" struct") {
			t.Errorf("page kind %s: %s does not define its data type %s", k.name, k.file, k.body.Name())
		}
	}
}
