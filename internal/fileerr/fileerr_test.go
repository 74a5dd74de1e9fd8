package fileerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestFormatAndPosition(t *testing.T) {
	base := errors.New("bad")
	e := New("runs/x/scored.jsonl", 7, "row: %w", base)
	if got, want := e.Error(), "runs/x/scored.jsonl:7: row: bad"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, base) {
		t.Error("errors.Is does not reach the wrapped error")
	}
	// Wrapped further by a build phase, the position is still found.
	outer := fmt.Errorf("load: %w", e)
	p, l, ok := Position(outer)
	if !ok || p != "runs/x/scored.jsonl" || l != 7 {
		t.Errorf("Position = %q, %d, %v", p, l, ok)
	}
	if got := Wrap("other", 3, outer); got != outer {
		t.Errorf("Wrap re-positioned an error that already names a file: %v", got)
	}
	if got, want := Wrap("m.yaml", 0, base).Error(), "m.yaml: bad"; got != want {
		t.Errorf("no line: %q, want %q", got, want)
	}
	if _, _, ok := Position(base); ok {
		t.Error("Position found a file in a plain error")
	}
}

func TestAnnotation(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		// The build's own wrapping ("load: …") is dropped: the message is
		// the path:line: message, placed on that line of the diff.
		{fmt.Errorf("load: %w", New("runs/x/manifest.yaml", 7, "scored.rows is %d", 271)),
			"::error file=runs/x/manifest.yaml,line=7,title=Build failed::runs/x/manifest.yaml:7: scored.rows is 271"},
		// A whole-file error has no line; ./ is cleaned from the file property
		// (the message stays as the build prints it).
		{New("./runs/x/scored.jsonl.gz", 0, "not gzip"), "::error file=runs/x/scored.jsonl.gz,title=Build failed::./runs/x/scored.jsonl.gz: not gzip"},
		// Input text cannot end the command or start another: newlines,
		// percent signs, and commas and colons in the file name.
		{New("runs/a,b:c/manifest.yaml", 2, "value %q\n::warning::injected 100%%", "x"),
			"::error file=runs/a%2Cb%3Ac/manifest.yaml,line=2,title=Build failed::runs/a,b:c/manifest.yaml:2: value \"x\"%0A::warning::injected 100%25"},
		// No position: an annotation without a file.
		{errors.New("score: runs/x: singular fit"), "::error title=Build failed::score: runs/x: singular fit"},
		// A path outside the working folder cannot be placed on the diff.
		{New("/tmp/runs/x/manifest.yaml", 3, "bad"), "::error title=Build failed::/tmp/runs/x/manifest.yaml:3: bad"},
		{New("../runs/x/manifest.yaml", 3, "bad"), "::error title=Build failed::../runs/x/manifest.yaml:3: bad"},
	} {
		if got := Annotation(tc.err); got != tc.want {
			t.Errorf("Annotation(%v)\n got %s\nwant %s", tc.err, got, tc.want)
		}
	}
}
