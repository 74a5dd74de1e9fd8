package cache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestBlobsAndEntries(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Put([]byte("page"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Get(sum); err != nil || string(got) != "page" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	key := Key("run", "abc")
	if err := c.PutEntry(key, []byte("value")); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetEntry(key); err != nil || string(got) != "value" {
		t.Fatalf("GetEntry = %q, %v", got, err)
	}
	if _, err := c.GetEntry(Key("run", "abd")); !errors.Is(err, ErrMissing) {
		t.Errorf("a missing entry: %v", err)
	}
	if Key("ab", "c") == Key("a", "bc") {
		t.Error("keys of different parts collide")
	}
}

// A damaged blob or entry is never returned: it is removed and reported
// missing, so the caller does the work again.
func TestCorruptionIsDetected(t *testing.T) {
	c, _ := Open(t.TempDir())
	sum, _ := c.Put([]byte("page"))
	p := c.path(sum, "-d")
	os.WriteFile(p, []byte("pagf"), 0o644)
	if _, err := c.Get(sum); !errors.Is(err, ErrMissing) {
		t.Errorf("a corrupt blob: %v", err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("the corrupt blob was not removed")
	}
	key := Key("k")
	c.PutEntry(key, []byte("value"))
	ep := c.path(key, "-a")
	data, _ := os.ReadFile(ep)
	os.WriteFile(ep, bytes.Replace(data, []byte("value"), []byte("valve"), 1), 0o644)
	if _, err := c.GetEntry(key); !errors.Is(err, ErrMissing) {
		t.Errorf("a corrupt entry: %v", err)
	}
	os.WriteFile(ep, []byte("no newline"), 0o644)
	if _, err := c.GetEntry(key); !errors.Is(err, ErrMissing) {
		t.Errorf("a malformed entry: %v", err)
	}
}

func TestTrim(t *testing.T) {
	dir := t.TempDir()
	c, _ := Open(dir)
	old, _ := c.Put([]byte("old"))
	recent, _ := c.Put([]byte("recent"))
	long := time.Now().Add(-48 * time.Hour)
	os.Chtimes(c.path(old, "-d"), long, long)
	if err := c.Trim(24*time.Hour, time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(old); err == nil {
		t.Error("an unused blob survived the trim")
	}
	if _, err := c.Get(recent); err != nil {
		t.Error("a recent blob was trimmed")
	}
	if _, err := os.Stat(filepath.Join(dir, "trim.txt")); err != nil {
		t.Error("the trim left no mark")
	}
}
