package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A flag named in a synopsis: -runs, --task, [-force].
var synopsisFlag = regexp.MustCompile(`(?:^|[\s\[])--?([a-z][a-z-]*)`)

// The usage lists every format of the dispatch table, and no other; each
// format's synopses name exactly the flags its flag set defines; doc.go
// shows each one; and each name reaches its own flag set.
func TestUsageListsEveryFormat(t *testing.T) {
	u := usage()
	lines := 0
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for i := range formats {
		f := &formats[i]
		named := map[string]bool{}
		for _, s := range f.synopses {
			if line := "  import " + f.name + " " + s + "\n"; !strings.Contains(u, line) {
				t.Errorf("usage lacks %q:\n%s", line, u)
			}
			for _, m := range synopsisFlag.FindAllStringSubmatch(s, -1) {
				named[m[1]] = true
			}
			lines++
		}
		fs, _, _ := flagSet(f, io.Discard, io.Discard)
		defined := map[string]bool{}
		fs.VisitAll(func(fl *flag.Flag) { defined[fl.Name] = true })
		if !maps.Equal(named, defined) {
			t.Errorf("%s: the usage names the flags %v, the flag set defines %v", f.name, slices.Sorted(maps.Keys(named)), slices.Sorted(maps.Keys(defined)))
		}
		if !bytes.Contains(doc, []byte("go run ./cmd/import "+f.name+" ")) {
			t.Errorf("doc.go shows no use of %s", f.name)
		}
		var out bytes.Buffer
		if err := run([]string{f.name, "-h"}, &out, &out); !errors.Is(err, flag.ErrHelp) || out.String() != u {
			t.Errorf("%s -h: error %v, output %q", f.name, err, out.String())
		}
	}
	if n := strings.Count(u, "\n  import "); n != lines {
		t.Errorf("usage has %d synopsis lines, the table %d:\n%s", n, lines, u)
	}
	if len(formats) != 3 || formatNames() != "lm-eval, inspect or modelgauge" {
		t.Errorf("formats %q", formatNames())
	}
}

// An unknown format is an error that names it and the known ones, with
// the usage on stderr and nothing written.
func TestUnknownFormat(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	var stdout, stderr bytes.Buffer
	err := run([]string{"csv", "results.csv", "--id", "x", "-runs", runs}, &stdout, &stderr)
	if want := `unknown subcommand "csv" (want lm-eval, inspect or modelgauge)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if stderr.String() != usage() || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q: want the usage on stderr", stdout.String(), stderr.String())
	}
	stderr.Reset()
	if err := run(nil, &stdout, &stderr); err == nil || err.Error() != "missing subcommand (lm-eval, inspect or modelgauge)" || stderr.String() != usage() {
		t.Errorf("no subcommand: error %v, stderr %q", err, stderr.String())
	}
	if _, err := os.Stat(runs); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an unknown format left %s behind", runs)
	}
}
