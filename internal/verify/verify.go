// Package verify compares a freshly built site with a published copy, byte
// for byte, and explains differences in the data: which runs' scores or
// ranks changed and by how much.
package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/discrimeval/leaderboard/internal/sitedata"
)

// Report is the outcome of a comparison.
type Report struct {
	Same                    int      // files identical in both
	Added, Removed, Changed []string // relative to the published copy: Added = only in the rebuild
	Scores                  []string // explanations of changed data, one line each
}

// Identical reports whether the two sites are byte-for-byte the same.
func (r *Report) Identical() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0
}

// Ignored lists files a published folder may hold that are not part of the
// site: the .gitignore that keeps a local site/ out of git.
var Ignored = map[string]bool{".gitignore": true}

// Compare compares rebuilt files (path → contents) with the tree published.
func Compare(rebuilt map[string][]byte, published fs.FS) (*Report, error) {
	r := &Report{}
	seen := map[string]bool{}
	err := fs.WalkDir(published, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || Ignored[p] {
			return err
		}
		seen[p] = true
		want, ok := rebuilt[p]
		if !ok {
			r.Removed = append(r.Removed, p)
			return nil
		}
		got, err := fs.ReadFile(published, p)
		if err != nil {
			return err
		}
		if bytes.Equal(got, want) {
			r.Same++
			return nil
		}
		r.Changed = append(r.Changed, p)
		r.Scores = append(r.Scores, explain(p, got, want)...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for p := range rebuilt {
		if !seen[p] {
			r.Added = append(r.Added, p)
		}
	}
	sort.Strings(r.Added)
	sort.Strings(r.Removed)
	sort.Strings(r.Changed)
	return r, nil
}

// Write prints the report for a person.
func (r *Report) Write(w io.Writer) {
	if r.Identical() {
		fmt.Fprintf(w, "identical: %d files, byte for byte\n", r.Same)
		return
	}
	fmt.Fprintf(w, "differs: %d files identical, %d changed, %d only in the rebuild, %d only in the published copy\n",
		r.Same, len(r.Changed), len(r.Added), len(r.Removed))
	for _, l := range []struct {
		title string
		list  []string
	}{{"changed", r.Changed}, {"only in the rebuild", r.Added}, {"only in the published copy", r.Removed}, {"score and rank changes", r.Scores}} {
		if len(l.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s:\n", l.title)
		for _, s := range l.list {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

// explain describes what changed in a data file of a run.
func explain(p string, old, new []byte) []string {
	if !sitedata.IsRunFile(p) {
		return nil
	}
	var a, b sitedata.Run
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(new, &b) != nil {
		return []string{p + ": not comparable as run data"}
	}
	id := b.ID
	var out []string
	for _, name := range slices.Sorted(maps.Keys(b.Views)) {
		ea, ok := a.Views[name]
		if !ok {
			out = append(out, fmt.Sprintf("%s: %s view scored in one build only", id, name))
			continue
		}
		if x, y := float64(ea.Estimate), float64(b.Views[name].Estimate); x != y {
			out = append(out, fmt.Sprintf("%s: %s view %.6g → %.6g (%+.3g)", id, name, x, y, y-x))
		}
		if ra, rb := a.Rank[name], b.Rank[name]; ra != rb {
			out = append(out, fmt.Sprintf("%s: %s rank %d → %d", id, name, ra, rb))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Views)) {
		if _, ok := b.Views[name]; !ok {
			out = append(out, fmt.Sprintf("%s: %s view scored in one build only", id, name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.Coefficients)) {
		ea, ok := a.Coefficients[name]
		x, y := float64(ea.Estimate), float64(b.Coefficients[name].Estimate)
		if ok && !math.IsNaN(x) && !math.IsNaN(y) && x != y {
			out = append(out, fmt.Sprintf("%s: coefficient %s %.6g → %.6g (%+.3g)", id, name, x, y, y-x))
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("%s: scores and ranks unchanged (other fields differ)", id))
	}
	return out
}
