package stats

import "math"

// FillMax makes Max of the rows given (rows[j]) from their Arg alone:
// Max[j][b] is |z_j[b] − z_k[b]| / se(j, k) for k = Arg[j][b], computed as
// FirstMaxima and ExtendFirst compute it (the absolute difference times
// the inverse standard error), so to the bit the maximum they kept; 0
// where Arg is −1. A first step can so be kept by its Arg alone (a
// build's cache keeps it so: score.PairMemo). false when an Arg is out of
// range, j itself, or names a difference that cannot be a maximum (not
// above 0: a zero standard error, or a NaN): no first step has it.
func FillMax(fs FirstStep, z [][]float64, seOf func(j, k int) float64, rows []bool) bool {
	n := len(z)
	for j, ok := range rows {
		if !ok {
			continue
		}
		t, zj := fs.Max[j], z[j]
		for b, k := range fs.Arg[j] {
			if k < 0 {
				if k != -1 {
					return false
				}
				t[b] = 0
				continue
			}
			if int(k) >= n || int(k) == j {
				return false
			}
			v := math.Abs(zj[b]-z[k][b]) * inverse(seOf(j, int(k)))
			if !(v > 0) {
				return false
			}
			t[b] = v
		}
	}
	return true
}
