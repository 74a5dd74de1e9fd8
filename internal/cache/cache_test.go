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

// TestEntriesCarryTheirKeys: an entry's file holds the key it was stored
// under, so an entry swapped with another, renamed into another key's
// place, or left by the earlier format (the value's hash alone) is a miss,
// never another key's value; and it is removed.
func TestEntriesCarryTheirKeys(t *testing.T) {
	c, _ := Open(t.TempDir())
	a, b := Key("page", "q30"), Key("page", "q32")
	if err := c.PutEntry(a, []byte("q30's page")); err != nil {
		t.Fatal(err)
	}
	if err := c.PutEntry(b, []byte("q32's page")); err != nil {
		t.Fatal(err)
	}
	pa, pb := c.path(a, entrySuffix), c.path(b, entrySuffix)
	da, _ := os.ReadFile(pa)
	db, _ := os.ReadFile(pb)
	// Swapped.
	os.WriteFile(pa, db, 0o644)
	os.WriteFile(pb, da, 0o644)
	for _, k := range []string{a, b} {
		if got, err := c.GetEntry(k); !errors.Is(err, ErrMissing) {
			t.Errorf("a swapped entry gave %q, %v", got, err)
		}
		if _, err := os.Stat(c.path(k, entrySuffix)); err == nil {
			t.Error("a swapped entry was not removed")
		}
	}
	// Renamed into a place no entry had.
	other := Key("page", "q33")
	os.MkdirAll(filepath.Dir(c.path(other, entrySuffix)), 0o755)
	os.WriteFile(c.path(other, entrySuffix), da, 0o644)
	if got, err := c.GetEntry(other); !errors.Is(err, ErrMissing) {
		t.Errorf("a renamed entry gave %q, %v", got, err)
	}
	// The earlier format: the value's hash, a newline, the value.
	value := []byte("q30's page")
	os.WriteFile(pa, append([]byte(Sum(value)+"\n"), compress(value)...), 0o644)
	if got, err := c.GetEntry(a); !errors.Is(err, ErrMissing) {
		t.Errorf("an entry of the earlier format gave %q, %v", got, err)
	}
	// Written again, each reads back as its own.
	c.PutEntry(a, []byte("q30's page"))
	if got, err := c.GetEntry(a); err != nil || string(got) != "q30's page" {
		t.Errorf("GetEntry = %q, %v", got, err)
	}
}

// TestDebrisRemoved: a temporary file that a killed writer left (here
// empty, as a SIGKILL leaves one) goes at the next trim, or at
// RemoveDebris, when it was last written before the build began; one
// written since, which may be another build's write under way, stays.
func TestDebrisRemoved(t *testing.T) {
	for _, how := range []string{"TrimTo", "RemoveDebris"} {
		t.Run(how, func(t *testing.T) {
			c, _ := Open(t.TempDir())
			sum, _ := c.Put([]byte("page"))
			dir := filepath.Dir(c.path(sum, blobSuffix))
			old, fresh := filepath.Join(dir, tmpPrefix+"123"), filepath.Join(dir, tmpPrefix+"456")
			os.WriteFile(old, nil, 0o644)
			os.WriteFile(fresh, nil, 0o644)
			start := time.Now()
			long := start.Add(-time.Minute)
			os.Chtimes(old, long, long)
			later := start.Add(time.Second)
			os.Chtimes(fresh, later, later)
			var err error
			if how == "TrimTo" {
				err = c.TrimTo(1<<30, start)
			} else {
				err = c.RemoveDebris(start)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(old); err == nil {
				t.Error("debris older than the build survived")
			}
			if _, err := os.Stat(fresh); err != nil {
				t.Error("a temporary file written since the build began was removed")
			}
			if _, err := c.Get(sum); err != nil {
				t.Errorf("the blob beside the debris: %v", err)
			}
		})
	}
}
