package run

import (
	"reflect"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AnswerRule says in words how ParseAnswer reads a sampled answer, for the
// rubric page and the importers' notes.
const AnswerRule = "A sampled answer counts as yes or no when its first word is one of the " +
	"manifest's answer forms, compared without regard to case, after leading white space, " +
	"Markdown emphasis and heading marks and opening quotes or brackets (* _ # > \" “ ' ‘ ` ( [) " +
	"are dropped; the word ends at the first character that is not a letter. So \"Yes.\", " +
	"\"**No**\", \"Yes, because …\", \"YES\" and \"  no\" are read, and \"Yesterday\", " +
	"\"Answer: yes\" and \"I cannot decide\" are not: they count as unparsed and are listed."

// ParseAnswer reads a sampled answer by AnswerRule: isYes tells a yes from
// a no when ok is set.
func (c Choices) ParseAnswer(text string) (isYes, ok bool) {
	t := strings.TrimLeftFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("*_#>\"“'‘`([", r)
	})
	end := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(t)
	}
	word := t[:end]
	if word == "" {
		return false, false
	}
	for _, f := range c.Yes {
		if strings.EqualFold(word, f) {
			return true, true
		}
	}
	for _, f := range c.No {
		if strings.EqualFold(word, f) {
			return false, true
		}
	}
	return false, false
}

// MaxUnparsedRunes is how much of an unparsed answer a Cell keeps for the
// data-quality listing.
const MaxUnparsedRunes = 200

// Shorten cuts s to n runes, marking the cut with "…".
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// MassRounding is how far P(yes)+P(no) may exceed 1 and still be read as
// rounding: one unit in the last place of bf16 at 1 (2⁻⁸), the coarsest
// precision harnesses log (bf16 and fp16 models' log-softmax). Within it
// the probabilities are normalised to sum to 1; beyond it the row is an
// error.
const MassRounding = 1.0 / 256

// BoundTolerance is the change of a row's logit, between a bounded form
// taken at its bound and at zero, above which the bound matters: the
// run's data quality then says so.
const BoundTolerance = 0.01

// Logprobs maps answer forms to log-probabilities. A form with probability
// zero (−∞) is written as JSON null, since JSON has no infinity.
type Logprobs map[string]float64

// MarshalJSON writes the forms in key order, −∞ as null.
func (l Logprobs) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		// As encoding/json writes a map[string]float64, so that runs
		// frozen before this type existed keep their bytes.
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		v := l[k]
		switch {
		case math.IsInf(v, -1):
			b.WriteString("null")
		case math.IsNaN(v) || math.IsInf(v, 1):
			return nil, fmt.Errorf("log-probability of %q is %v", k, v)
		default:
			vb, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			b.Write(vb)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSONFrom reads the forms straight from the row's decoder (JSON
// v2 prefers it to UnmarshalJSON): no second pass over the bytes and no
// map of pointers, which were a tenth of a build's loading. null is −∞,
// and errors read as UnmarshalJSON's.
func (l *Logprobs) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*l = nil
		return err
	case '{':
	default:
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return l.UnmarshalJSON(v)
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	m := make(Logprobs, 4)
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken() // the decoder refuses a name given twice
		if err != nil {
			return err
		}
		form := name.String()
		switch kind := dec.PeekKind(); kind {
		case 'n':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			m[form] = math.Inf(-1)
		case '0':
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			f := tok.Float() // ±MaxFloat64 for a number beyond float64, such as -1e999
			if math.Abs(f) == math.MaxFloat64 {
				if _, err := strconv.ParseFloat(tok.String(), 64); err != nil {
					return &jsonv2.SemanticError{JSONPointer: dec.StackPointer(), JSONKind: kind,
						JSONValue: jsontext.Value(tok.String()), GoType: reflect.TypeFor[float64]()}
				}
			}
			m[form] = f
		default:
			if _, err := dec.ReadValue(); err != nil {
				return err
			}
			return &jsonv2.SemanticError{JSONPointer: dec.StackPointer(), JSONKind: kind, GoType: reflect.TypeFor[float64]()}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	*l = m
	return nil
}

// UnmarshalJSON reads null as −∞ (probability zero).
func (l *Logprobs) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*l = nil
		return nil
	}
	var raw map[string]*float64
	if err := jsonv2.Unmarshal(b, &raw); err != nil {
		return err
	}
	*l = make(Logprobs, len(raw))
	for k, v := range raw {
		if v == nil {
			(*l)[k] = math.Inf(-1)
		} else {
			(*l)[k] = *v
		}
	}
	return nil
}

// MinLogprob is the smallest finite log-probability a row may hold: e^−10⁴
// is zero in any floating point, and harnesses write values like −9999 as
// placeholders for zero (the importers turn them into null). Below it the
// logits would be meaningless, and large enough to break the fits.
const MinLogprob = -1e4

// ErrUnscorable is wrapped by the error of a row whose logit is infinite:
// every form of one answer has probability zero. Importers leave such rows
// out and count them; the loader rejects them.
var ErrUnscorable = errors.New("the row cannot be scored")

// logprobCell fills the logprob fields of c from r; see CONTRIBUTING.md's
// "How a scored row is read" for the rules (zero probabilities, bounds,
// rounding).
//
// The forms' log-probabilities (Cell.LP) are cut from *slab, a buffer
// shared by the cells of a run, grown lpSlabRows rows at a time (one
// allocation for many rows instead of one a row); slab nil allocates
// for this cell alone.
func (m *Manifest) logprobCell(c *Cell, r *Row, slab *[]float64) error {
	if r.Logprobs == nil {
		return fmt.Errorf("missing logprobs in a logprob run")
	}
	for _, lp := range r.Logprobs {
		if !validLogprob(lp) {
			// The first bad form in key order, so the message does
			// not depend on the map's order.
			for _, form := range sortedKeys(r.Logprobs) {
				lp := r.Logprobs[form]
				if math.IsNaN(lp) || math.IsInf(lp, 1) || lp > 0 {
					return fmt.Errorf("log-probability of %q is %v: want a number ≤ 0, or null for probability zero", form, lp)
				}
				if lp < MinLogprob && !math.IsInf(lp, -1) {
					return fmt.Errorf("log-probability of %q is %v, below %v, which no model's softmax gives (such values are placeholders for zero): write null for probability zero", form, lp, MinLogprob)
				}
			}
		}
	}
	bounded := map[string]bool{}
	for _, f := range r.Bounded {
		if _, ok := r.Logprobs[f]; !ok || bounded[f] {
			return fmt.Errorf("bounded form %q is listed twice or has no log-probability", f)
		}
		bounded[f] = true
	}
	// The forms' log-probabilities, each looked up once: the yes forms,
	// then the no forms.
	ny, n := len(m.Choices.Yes), len(m.Choices.Yes)+len(m.Choices.No)
	var buf [8]float64
	lps := buf[:0]
	if n > len(buf) {
		lps = make([]float64, 0, n)
	}
	for _, forms := range [2][]string{m.Choices.Yes, m.Choices.No} {
		for _, f := range forms {
			lp, ok := r.Logprobs[f]
			if !ok {
				return fmt.Errorf("logprobs has no entry for answer form %q", f)
			}
			lps = append(lps, lp)
		}
	}
	yes, no := LogSumExp(lps[:ny]), LogSumExp(lps[ny:])
	for _, side := range []struct {
		name string
		lp   float64
	}{{"yes", yes}, {"no", no}} {
		if math.IsInf(side.lp, -1) {
			return fmt.Errorf("P(%s) is zero (every %s form has log-probability null): the logit is infinite and %w", side.name, side.name, ErrUnscorable)
		}
	}
	c.Logit = yes - no
	// P(yes)+P(no) is checked on the listed forms: a bounded form's value
	// is only an upper bound (it may be zero), so the bounds may add up
	// to more than 1 where real probabilities cannot. The row's mass is
	// the listed forms' (a lower bound when forms are bounded).
	listed := math.Exp(yes) + math.Exp(no)
	var yes0, no0 float64
	if len(bounded) > 0 {
		var k [8]float64
		known := k[:0]
		i := 0
		for _, forms := range [2][]string{m.Choices.Yes, m.Choices.No} {
			for _, f := range forms {
				lp := lps[i]
				if bounded[f] {
					lp = math.Inf(-1)
				}
				known = append(known, lp)
				i++
			}
		}
		yes0, no0 = LogSumExp(known[:ny]), LogSumExp(known[ny:])
		listed = math.Exp(yes0) + math.Exp(no0)
	}
	c.Mass = listed
	shift := 0.0
	if listed > 1 {
		if listed > 1+MassRounding {
			what := "P(yes)+P(no)"
			if len(bounded) > 0 {
				what = "P(yes)+P(no) over the listed (not bounded) forms"
			}
			return fmt.Errorf("%s = %.6g exceeds 1 by more than rounding (%.4g): the answer forms are not distinct outcomes", what, listed, MassRounding)
		}
		shift, c.Mass, c.Normalized = math.Log(listed), 1, true
	}
	if slab == nil || cap(*slab)-len(*slab) < n {
		s := make([]float64, 0, n*lpSlabRows)
		if slab == nil {
			slab = &s
		} else {
			*slab = s
		}
	}
	c.LP = (*slab)[len(*slab) : len(*slab) : len(*slab)+n]
	*slab = (*slab)[:len(*slab)+n]
	for _, lp := range lps {
		c.LP = append(c.LP, lp-shift)
	}
	if len(bounded) > 0 {
		c.Bounded = len(bounded)
		c.BoundGap = math.Inf(1)
		if !math.IsInf(yes0, -1) && !math.IsInf(no0, -1) {
			c.BoundGap = math.Abs(yes0 - no0 - c.Logit)
		}
	}
	return nil
}

// lpSlabRows is how many rows' log-probabilities one slab holds.
const lpSlabRows = 256

// validLogprob reports whether lp is a log-probability a row may hold: at
// most 0 and at least MinLogprob, or −∞ (null).
func validLogprob(lp float64) bool {
	return lp <= 0 && (lp >= MinLogprob || math.IsInf(lp, -1))
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
