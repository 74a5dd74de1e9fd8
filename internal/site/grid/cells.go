package grid

// Cells of numbers written in Go. The compare pages once had 5,400 cells
// a page (135 variants × 40 runs); through the template each cost two
// escaper calls made by reflection (class and text), a fifth of a build's
// time. A deltaCell holds only numbers and codes, so the HTML made from it
// contains nothing but our own digits and class names: no input text can
// reach it, and html/template still escapes everything around it.
//
// The same form is what a build keeps of every run for the pages that
// span runs (keptQuestion): 3 bytes a variant instead of a float and two
// flags, for 400 runs × 70 questions × 135 variants.

import (
	"math"
	"strconv"
	"strings"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/score"
	"github.com/discrimeval/leaderboard/internal/site/show"
)

// cellCode is a cell's colour bin (0–8) or what it shows instead of a
// number.
type CellCode uint8

const (
	CellMissing CellCode = 100 + iota // no answer for this variant: "—"
	CellNoBase                        // an answer, but none for the baseline to compare with: "n/a"
	CellNaN                           // not a number (never, as scores go): "n/a"
	CellPosInf                        // "+∞" (never: log-probabilities are floored)
	CellNegInf                        // "−∞"
)

// deltaCell is one difference from the baseline as displayed: its digits
// in units of the last decimal shown (deltaDecimals) and its code.
type DeltaCell struct {
	Digits   int32
	Code     CellCode
	Decision bool // a sampled-answer run's share (percentage points), not logit points
}

// newDeltaCell is a difference as the site shows it.
func NewDeltaCell(d score.Delta, decision bool) DeltaCell {
	c := DeltaCell{Decision: decision}
	switch {
	case !d.Present:
		c.Code = CellMissing
	case !d.HasBase:
		c.Code = CellNoBase
	case math.IsNaN(d.Value):
		c.Code = CellNaN
	case math.IsInf(d.Value, 1):
		c.Code = CellPosInf
	case math.IsInf(d.Value, -1):
		c.Code = CellNegInf
	default:
		n, ok := ShownDigits(d.Value, show.DeltaDecimals(decision))
		if !ok {
			c.Code = CellNaN // |Δ| > 2e7: out of reach of floored log-probabilities
			break
		}
		c.Digits, c.Code = n, CellCode(bucket(d.Value, decision))
	}
	return c
}

// shownDigits are the digits of the text fixed(v, d) (and signed) shows,
// read back as an integer: exact, with the same rounding. ok is false
// beyond int32.
func ShownDigits(v float64, d int) (int32, bool) {
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], v, 'f', d, 64)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var n int64
	digits := 0
	for _, c := range s {
		if c == '.' {
			continue
		}
		if n = n*10 + int64(c-'0'); n != 0 {
			digits++
		}
		if digits > 10 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// text is what the cell shows: its number as signed() writes it, or what
// stands in for one.
func (c DeltaCell) Text() string {
	switch c.Code {
	case CellMissing:
		return "—"
	case CellNoBase, CellNaN:
		return "n/a"
	case CellPosInf:
		return "+∞"
	case CellNegInf:
		return "−∞"
	}
	return c.DigitText()
}

// appendText appends text().
func (c DeltaCell) AppendText(b []byte) []byte {
	if c.Code >= CellMissing {
		return append(b, c.Text()...)
	}
	d := show.DeltaDecimals(c.Decision)
	n := int64(c.Digits)
	switch {
	case n < 0:
		b, n = append(b, "−"...), -n
	case n > 0:
		b = append(b, '+')
	}
	var buf [24]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	if len(s) <= d {
		b = append(b, "0."...)
		for range d - len(s) {
			b = append(b, '0')
		}
		return append(b, s...)
	}
	if d == 0 {
		return append(b, s...)
	}
	return append(append(append(b, s[:len(s)-d]...), '.'), s[len(s)-d:]...)
}

// digits writes the cell's number as signed() would.
func (c DeltaCell) DigitText() string {
	d := show.DeltaDecimals(c.Decision)
	n := int64(c.Digits)
	sign := "+"
	switch {
	case n == 0:
		sign = ""
	case n < 0:
		sign, n = "−", -n
	}
	s := strconv.FormatInt(n, 10)
	if len(s) <= d {
		s = strings.Repeat("0", d-len(s)+1) + s
	}
	if d > 0 {
		s = s[:len(s)-d] + "." + s[len(s)-d:]
	}
	return sign + s
}

// class is the cell's CSS class.
func (c DeltaCell) Class() string {
	switch c.Code {
	case CellMissing:
		return "missing"
	case CellNoBase, CellNaN:
		return "nobase"
	case CellPosInf:
		return "b8"
	case CellNegInf:
		return "b0"
	}
	return BinClass(int(c.Code))
}

// keptQuestion is a run's differences on one question, as the compare
// pages show them: 3 bytes a variant, the digits in 16 bits when they fit
// (a difference within ±327.67 logit points, every real one), in wide
// otherwise.
type KeptQuestion struct {
	digits [design.NumCells]int16
	Codes  [design.NumCells]CellCode
	Wide   map[int]int32 // digits beyond 16 bits, by variant
}

func KeepQuestion(d *score.QuestionDeltas, decision bool) *KeptQuestion {
	k := new(KeptQuestion)
	for i := range d {
		c := NewDeltaCell(d[i], decision)
		k.Set(i, c.Digits, c.Code)
	}
	return k
}

// set keeps variant i's digits and code.
func (k *KeptQuestion) Set(i int, digits int32, code CellCode) {
	k.Codes[i] = code
	if digits == int32(int16(digits)) {
		k.digits[i] = int16(digits)
		delete(k.Wide, i)
		return
	}
	if k.Wide == nil {
		k.Wide = map[int]int32{}
	}
	k.Wide[i] = digits
}

// Digits is variant i's digits.
func (k *KeptQuestion) Digits(i int) int32 {
	if d, ok := k.Wide[i]; ok {
		return d
	}
	return int32(k.digits[i])
}

func (k *KeptQuestion) Cell(i int, decision bool) DeltaCell {
	return DeltaCell{Digits: k.Digits(i), Code: k.Codes[i], Decision: decision}
}

// present counts the variants with an answer.
func (k *KeptQuestion) Present() int {
	n := 0
	for _, c := range k.Codes {
		if c != CellMissing {
			n++
		}
	}
	return n
}

// gridCommon is the colour class ("b0"…"b8") most present cells of the
// grid have, the lowest of equals, returned as the table's class
// ("d0"…"d8"), by which site.css colours the cells that leave it out; ""
// when no cell has a colour class. A row whose own most common class is
// on at least two more of its cells than the grid's carries its own
// ("r0"…"r8"), which site.css puts above the table's.
func GridCommon(grid []GridRow) string {
	var all [9]int
	rows := make([][9]int, len(grid))
	for i, r := range grid {
		for _, c := range r.Cells {
			if cls := c.Delta.Class(); c.Present && len(cls) == 2 && cls[0] == 'b' {
				rows[i][cls[1]-'0']++
				all[cls[1]-'0']++
			}
		}
	}
	common := mostCommon(all)
	if all[common] == 0 {
		return ""
	}
	for i := range grid {
		own := mostCommon(rows[i])
		grid[i].Common = BinClass(common)
		if rows[i][own] > rows[i][common]+1 {
			grid[i].Common, grid[i].Class = BinClass(own), "r"+strconv.Itoa(own)
		}
	}
	return "d" + strconv.Itoa(common)
}

// mostCommon is the index of the largest count, the lowest of equals.
func mostCommon(n [9]int) int {
	best := 0
	for i := range n {
		if n[i] > n[best] {
			best = i
		}
	}
	return best
}

// firstCell is what the rubric's worked example needs of a run's first row.
type FirstCell struct {
	Line  int
	P     design.Prompt
	Logit float64
	LP    []float64
}
