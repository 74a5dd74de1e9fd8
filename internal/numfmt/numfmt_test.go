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

// TestAppendFixed: AppendFixed appends what Fixed returns.
func TestAppendFixed(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), -0.001, -0.005, -0.0051, 0.125, 0.995, -0.995, 1e300, -1e-300, math.NaN(), math.Inf(1), math.Inf(-1), 12.3456, -7.5, -0.5, 0.5}
	for i := range 2000 {
		vals = append(vals, math.Sin(float64(i))*math.Pow(10, float64(i%9-4)))
	}
	for _, v := range vals {
		for d := range 4 {
			if got, want := string(AppendFixed([]byte("x"), v, d)), "x"+Fixed(v, d); got != want {
				t.Errorf("AppendFixed(%v, %d) = %q, want %q", v, d, got, want)
			}
		}
	}
}
