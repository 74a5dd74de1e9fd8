package numfmt

import (
	"math"
	"testing"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Fixed(-0.001, 2), "0.00"},
		{Fixed(0.125, 2), "0.12"}, // round half to even, as strconv does
		{Fixed(math.NaN(), 2), "n/a"},
		{Signed(-0.3, 2), "−0.30"},
		{Signed(0.42, 2), "+0.42"},
		{Signed(-0.001, 2), "0.00"},
		{Decimal(0.25), "0.25"},
		{Decimal(-1e-14), "0"},
		{Decimal(3), "3"},
		{Decimal(-2.5), "-2.5"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
