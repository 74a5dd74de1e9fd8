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
