package render

// Stencils: a template's minified output with holes, made once and
// filled many times. A kind of page that is many and alike (scenario
// pages, 70 a run, most of a site's files) would spend most of a build in
// html/template's escapers and the minifier, page after page, to write
// what differs between them: a few numbers. Instead its template is
// executed for a probe, a value of its data whose own values are marks,
// minified, and cut at the marks; a page is then the stencil's bytes with
// its values written into the holes. The page is still its template's,
// which holds all of its markup and words: TestScenarioPagesAsTemplate
// holds every scenario page to what its template and the minifier make
// of it.
//
// A mark is digits, so that it can stand in an int field as in a string
// (or inside one: a path made from a question's number), and passes
// every escaper and the minifier unchanged. Each stencil is made twice,
// with two sets of marks; text from the inputs that happens to hold the
// digits of a mark cuts the two differently, and no stencil is made
// (Cut's error): the page is then rendered whole.

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"sync"

	"github.com/discrimeval/leaderboard/internal/site/layout"
)

// Marks are the digits a probe holds where a hole goes: hole n is the
// eight digits of base+n. The two sets' first four digits differ, so
// that no mark of one is part of a mark of the other.
type Marks int

const (
	MarksA Marks = 87_650_000
	MarksB Marks = 56_780_000
	// MaxHoles is how many holes a stencil may have; marks from
	// Hidden up stand for values that a page must not show (a count only
	// tested), and are an error where they appear.
	MaxHoles = 5000
	Hidden   = 4000
)

// Int is hole n's mark.
func (m Marks) Int(n int) int { return int(m) + n }

// Text is hole n's mark as text.
func (m Marks) Text(n int) string { return strconv.Itoa(m.Int(n)) }

// prefix is the first four digits of every mark of the set.
func (m Marks) prefix() string { return strconv.Itoa(int(m))[:4] }

// A Stencil is minified HTML with holes: Static[0], hole Holes[0],
// Static[1], …, Static[len(Holes)].
type Stencil struct {
	Static [][]byte
	Holes  []int
}

// ErrMarkInText is Cut's error when the two renderings are not cut alike.
var ErrMarkInText = errors.New("the two probes cut differently: some text holds a mark's digits")

// Cut makes a stencil from the same template's output for the probes of
// MarksA (a) and MarksB (b).
func Cut(a, b []byte) (*Stencil, error) {
	sa, sb := cut(a, MarksA), cut(b, MarksB)
	if !slices.Equal(sa.Holes, sb.Holes) || !slices.EqualFunc(sa.Static, sb.Static, bytes.Equal) {
		return nil, ErrMarkInText
	}
	for _, n := range sa.Holes {
		if n >= Hidden {
			return nil, fmt.Errorf("the template shows a value its stencil has no hole for (mark %d)", MarksA.Int(n))
		}
	}
	return sa, nil
}

// cut cuts out at every mark of m.
func cut(out []byte, m Marks) *Stencil {
	s := &Stencil{}
	pre := []byte(m.prefix())
	last := 0
	for i := 0; ; {
		j := bytes.Index(out[i:], pre)
		if j < 0 {
			break
		}
		at := i + j
		n, ok := digits4(out[at+4:])
		if !ok || n >= MaxHoles {
			i = at + 1 // no mark: digits of the text, or the set's first four before a mark
			continue
		}
		s.Static, s.Holes = append(s.Static, out[last:at]), append(s.Holes, n)
		last, i = at+8, at+8
	}
	s.Static = append(s.Static, out[last:])
	return s
}

// digits4 reads the four digits b starts with.
func digits4(b []byte) (int, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n := 0
	for _, c := range b[:4] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// A Filler writes the value of a stencil's hole n.
type Filler interface {
	Fill(b []byte, n int) []byte
}

// Fill appends the stencil s with f's value in each hole. (A type
// parameter, not an interface: filling a cell's stencil, 135 a page,
// allocates nothing.)
func Fill[F Filler](b []byte, s *Stencil, f F) []byte {
	for i, h := range s.Holes {
		b = f.Fill(append(b, s.Static[i]...), h)
	}
	return append(b, s.Static[len(s.Holes)]...)
}

// Value is what out, the same template's output for real data, holds in
// the stencil's one hole n, the other holes holding f's values: the text
// the minifier left of an input there, which a page's stencil then shows
// in its own hole n.
func (s *Stencil) Value(out []byte, n int, f Filler) ([]byte, error) {
	at := slices.Index(s.Holes, n)
	if at < 0 || slices.Index(s.Holes[at+1:], n) >= 0 {
		return nil, fmt.Errorf("stencil: %d holes for value %d, not one", countOf(s.Holes, n), n)
	}
	front := Fill(nil, &Stencil{Static: s.Static[:at+1], Holes: s.Holes[:at]}, f)
	back := Fill(nil, &Stencil{Static: s.Static[at+1:], Holes: s.Holes[at+1:]}, f)
	if len(out) < len(front)+len(back) || !bytes.HasPrefix(out, front) || !bytes.HasSuffix(out, back) {
		return nil, fmt.Errorf("stencil: %.200q is not its stencil's, filled", out)
	}
	return out[len(front) : len(out)-len(back)], nil
}

func countOf(s []int, n int) int {
	c := 0
	for _, x := range s {
		if x == n {
			c++
		}
	}
	return c
}

// partSets are a kind's templates as its stencils are made from them,
// for each set of marks: each of the kind's parts (KindInfo.Parts)
// replaced by its mark, hole i for Parts[i]. They are made from sets
// not yet executed (html/template clones no other).
func partSets(sets map[Kind]*template.Template, kinds []KindInfo) (map[Kind]map[Marks]*template.Template, error) {
	out := map[Kind]map[Marks]*template.Template{}
	for _, k := range kinds {
		if len(k.Parts) == 0 || sets[k.Name] == nil {
			continue
		}
		out[k.Name] = map[Marks]*template.Template{}
		for _, m := range []Marks{MarksA, MarksB} {
			t, err := sets[k.Name].Clone()
			if err != nil {
				return nil, err
			}
			for i, part := range k.Parts {
				if t.Lookup(part) == nil {
					return nil, fmt.Errorf("page kind %s: no %s template", k.Name, part)
				}
				if _, err := t.New(part).Parse(m.Text(i)); err != nil {
					return nil, err
				}
			}
			out[k.Name][m] = t
		}
	}
	return out, nil
}

// PageStencil makes the stencil of the page that probe(m) is, for either
// set of marks: its template executed whole, with its kind's parts
// replaced by their holes, and minified.
func (r *Renderer) PageStencil(probe func(m Marks) *layout.Page) (*Stencil, error) {
	return r.stencil(func(buf *bytes.Buffer, m Marks) error {
		p := probe(m)
		k, err := r.kindOfBody(p.Body)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		return r.executeSet(buf, r.parts[k.Name][m], k, p, "")
	})
}

// PartStencil makes the stencil of the template name of the kind's set
// (not one of its parts), executed with the data of the page probe(m),
// the kind's parts replaced by their holes, and minified.
func (r *Renderer) PartStencil(name string, probe func(m Marks) *layout.Page) (*Stencil, error) {
	return r.stencil(func(buf *bytes.Buffer, m Marks) error {
		p := probe(m)
		k, err := r.kindOfBody(p.Body)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		return r.executeSet(buf, r.parts[k.Name][m], k, p, name)
	})
}

// DefineStencil makes the stencil of the template name of kind's set
// (not one of its parts) executed with probe(m) as its data, the kind's
// parts replaced by their holes, and minified.
func (r *Renderer) DefineStencil(kind Kind, name string, probe func(m Marks) any) (*Stencil, error) {
	return r.stencil(func(buf *bytes.Buffer, m Marks) error {
		t := r.parts[kind][m]
		if t == nil || t.Lookup(name) == nil {
			return fmt.Errorf("page kind %s has no parts or no %s template", kind, name)
		}
		return t.ExecuteTemplate(buf, name, probe(m))
	})
}

// stencil executes exec for both sets of marks, minifies and cuts.
func (r *Renderer) stencil(exec func(buf *bytes.Buffer, m Marks) error) (*Stencil, error) {
	var out [2][]byte
	for i, m := range []Marks{MarksA, MarksB} {
		var buf, min bytes.Buffer
		if err := exec(&buf, m); err != nil {
			return nil, err
		}
		if err := r.Min.Minify("text/html", &min, &buf); err != nil {
			return nil, fmt.Errorf("stencil: minify: %w", err)
		}
		out[i] = min.Bytes()
	}
	return Cut(out[0], out[1])
}

// Stencils are stencils made once each, by key, for concurrent use.
type Stencils[K comparable] struct {
	mu sync.Mutex
	m  map[K]*stencilOnce
}

type stencilOnce struct {
	once sync.Once
	s    *Stencil
	err  error
}

// Get is key's stencil, made by make the first time it is asked for.
func (ss *Stencils[K]) Get(key K, make func() (*Stencil, error)) (*Stencil, error) {
	ss.mu.Lock()
	if ss.m == nil {
		ss.m = map[K]*stencilOnce{}
	}
	o := ss.m[key]
	if o == nil {
		o = new(stencilOnce)
		ss.m[key] = o
	}
	ss.mu.Unlock()
	o.once.Do(func() { o.s, o.err = make() })
	return o.s, o.err
}
