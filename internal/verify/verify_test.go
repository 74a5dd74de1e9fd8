package verify

import (
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestComparer(t *testing.T) {
	published := fstest.MapFS{
		"index.html":       {Data: []byte("same")},
		"old.html":         {Data: []byte("gone")},
		"data/runs/a.json": {Data: []byte(`{"id":"a","views":{"composite":{"estimate":0.5}},"rank":{"composite":2}}`)},
		"page.html":        {Data: []byte("before")},
		".gitignore":       {Data: []byte("*")},
		"assets/site.css":  {Data: []byte("x")},
	}
	rebuilt := map[string][]byte{
		"index.html":       []byte("same"),
		"new.html":         []byte("added"),
		"data/runs/a.json": []byte(`{"id":"a","views":{"composite":{"estimate":0.25}},"rank":{"composite":1}}`),
		"page.html":        []byte("after"),
		"assets/site.css":  []byte("x"),
	}
	c := NewComparer(published)
	// Files come from several goroutines, in any order.
	var wg sync.WaitGroup
	for p, data := range rebuilt {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Put(p, data); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	want := &Report{
		Same:    2,
		Added:   []string{"new.html"},
		Removed: []string{"old.html"},
		Changed: []string{"data/runs/a.json", "page.html"},
		Scores:  []string{"a: composite view 0.5 → 0.25 (-0.25)", "a: composite rank 2 → 1"},
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	var out strings.Builder
	r.Write(&out)
	if !strings.HasPrefix(out.String(), "differs: 2 files identical, 2 changed, 1 only in the rebuild, 1 only in the published copy") {
		t.Errorf("report text:\n%s", out.String())
	}
}
