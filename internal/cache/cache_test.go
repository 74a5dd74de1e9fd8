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
	p := c.path(sum, blobSuffix)
	os.WriteFile(p, []byte("pagf"), 0o644)
	if _, err := c.Get(sum); !errors.Is(err, ErrMissing) {
		t.Errorf("a corrupt blob: %v", err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("the corrupt blob was not removed")
	}
	key := Key("k")
	c.PutEntry(key, []byte("value"))
	ep := c.path(key, entrySuffix)
	data, _ := os.ReadFile(ep)
	// A byte of the compressed value changed, and the value compressed
	// again with another byte under the recorded hash: both are noticed.
	bad := bytes.Clone(data)
	bad[len(bad)-2] ^= 0xff
	os.WriteFile(ep, bad, 0o644)
	if _, err := c.GetEntry(key); !errors.Is(err, ErrMissing) {
		t.Errorf("a corrupt entry: %v", err)
	}
	sumLine, _, _ := bytes.Cut(data, []byte("\n"))
	os.WriteFile(ep, append(append(sumLine, '\n'), compress([]byte("valve"))...), 0o644)
	if _, err := c.GetEntry(key); !errors.Is(err, ErrMissing) {
		t.Errorf("an entry whose value is not its hash's: %v", err)
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
	os.Chtimes(c.path(old, blobSuffix), long, long)
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

// TestCompressed: a page's blob is stored compressed and read back whole.
func TestCompressed(t *testing.T) {
	c, _ := Open(t.TempDir())
	page := bytes.Repeat([]byte("<tr><td>0.12</td><td>-0.03</td></tr>\n"), 1000)
	sum, err := c.Put(page)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(c.path(sum, blobSuffix))
	if err != nil || st.Size() > int64(len(page))/10 {
		t.Errorf("the blob of %d bytes is stored in %v bytes (%v)", len(page), st.Size(), err)
	}
	if got, err := c.Get(sum); err != nil || !bytes.Equal(got, page) {
		t.Errorf("read back %d bytes, %v", len(got), err)
	}
}

// TestTrimTo: the least recently used files go first, until the cache is
// under the size; none used since the given time goes, even over it.
func TestTrimTo(t *testing.T) {
	c, _ := Open(t.TempDir())
	var sums []string
	base := time.Now().Add(-time.Hour)
	for i := range 4 {
		sum, _ := c.Put(bytes.Repeat([]byte{byte(i)}, 1000))
		when := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(c.path(sum, blobSuffix), when, when)
		sums = append(sums, sum)
	}
	size := func(sum string) int64 { st, _ := os.Stat(c.path(sum, blobSuffix)); return st.Size() }
	// Room for the two most recent.
	if err := c.TrimTo(size(sums[2])+size(sums[3]), time.Now()); err != nil {
		t.Fatal(err)
	}
	for i, sum := range sums {
		_, err := os.Stat(c.path(sum, blobSuffix))
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("blob %d (used %d minutes after the first): kept %v", i, i, kept)
		}
	}
	// Nothing is removed that was used since the time given.
	if err := c.TrimTo(0, base.Add(150*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.path(sums[3], blobSuffix)); err != nil {
		t.Error("a blob used since the build began was trimmed")
	}
	if _, err := os.Stat(c.path(sums[2], blobSuffix)); err == nil {
		t.Error("a blob used before the build began survived a trim to 0 bytes")
	}
}
