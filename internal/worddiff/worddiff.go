// Package worddiff compares two texts word by word, keeping every byte of
// both: the variants of a scenario differ in a few words (an age, a race, a
// pronoun), and a reader should see exactly which.
package worddiff

import "unicode"

// Op says where a segment comes from.
type Op int8

const (
	Equal  Op = iota
	Delete    // only in the old text
	Insert    // only in the new text
)

// Segment is a run of tokens with one Op.
type Segment struct {
	Op   Op
	Text string
}

// Tokens splits s into words and the runs of space between them, so that
// joining the tokens gives s back exactly (doubled spaces and newlines
// included).
func Tokens(s string) []string {
	var toks []string
	start := 0
	space := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if i > start && sp != space {
			toks = append(toks, s[start:i])
			start = i
		}
		space = sp
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

// Diff returns the segments turning old into new: concatenating the Equal
// and Delete segments gives old, the Equal and Insert segments give new.
// It uses Myers' O(ND) algorithm on tokens, which is fast when the texts
// differ in few places.
func Diff(old, new string) []Segment {
	a, b := Tokens(old), Tokens(new)
	// Trim the common prefix and suffix: most of the text.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var segs []Segment
	add := func(op Op, t string) {
		if t == "" {
			return
		}
		if n := len(segs); n > 0 && segs[n-1].Op == op {
			segs[n-1].Text += t
			return
		}
		segs = append(segs, Segment{op, t})
	}
	for _, t := range a[:pre] {
		add(Equal, t)
	}
	for _, e := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		add(e.op, e.tok)
	}
	for _, t := range a[len(a)-suf:] {
		add(Equal, t)
	}
	return segs
}

type edit struct {
	op  Op
	tok string
}

// myers computes a shortest edit script from a to b.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, off, d, k)
			}
		}
	}
	panic("worddiff: no edit script") // unreachable: d = n+m always suffices
}

// backtrack walks the saved frontiers back from (n, m) to (0, 0);
// trace[d] is the frontier before step d.
func backtrack(trace [][]int, a, b []string, off, d, k int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for ; d > 0; d-- {
		v := trace[d]
		pk := k - 1
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		}
		px := v[off+pk]
		py := px - pk
		// The snake after the step: equal tokens.
		for x > px && y > py {
			x--
			y--
			rev = append(rev, edit{Equal, a[x]})
		}
		if pk == k+1 {
			y--
			rev = append(rev, edit{Insert, b[y]})
		} else {
			x--
			rev = append(rev, edit{Delete, a[x]})
		}
		k = pk
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{Equal, a[x]})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
