// Package numfmt formats numbers the one way the whole site shows them:
// fixed decimals, never "-0", a typographic minus for signed values, so
// every page, chart and file shows the same digits for the same value on
// every machine.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Fixed formats v with d decimals, never as "-0.00"; NaN is "n/a".
func Fixed(v float64, d int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return noNegativeZero(strconv.FormatFloat(v, 'f', d, 64))
}

// AppendFixed appends Fixed(v, d) to b, with no string made on the way.
func AppendFixed(b []byte, v float64, d int) []byte {
	if math.IsNaN(v) {
		return append(b, "n/a"...)
	}
	n := len(b)
	b = strconv.AppendFloat(b, v, 'f', d, 64)
	if b[n] != '-' {
		return b
	}
	for _, c := range b[n+1:] {
		if c != '0' && c != '.' {
			return b
		}
	}
	return append(b[:n], b[n+1:]...) // a negative zero
}

// Signed formats v with an explicit sign and a typographic minus: "+0.42",
// "−0.30"; zero as displayed has no sign.
func Signed(v float64, d int) string {
	s := Fixed(v, d)
	switch {
	case s == "n/a" || strings.Trim(s, "0.") == "":
		return s
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:]
	}
	return "+" + s
}

// Decimal writes v to 10 decimal places with trailing zeros dropped: enough
// for every comparison a reader makes, and short of the last bits in which
// two machines' floating point may differ (1e-14 is rounding noise and is
// written 0). It is the form of numbers in the data files.
func Decimal(v float64) string {
	s := strconv.FormatFloat(v, 'f', 10, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return noNegativeZero(s)
}

// noNegativeZero drops the sign of a number that shows as zero.
func noNegativeZero(s string) string {
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}
