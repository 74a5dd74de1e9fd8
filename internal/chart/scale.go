package chart

// The diverging colour scale of the site's grids and tables: Bucket gives
// the class, .b0 … .b8 in site.css (ColorBrewer's 9-class PuOr, orange
// favouring the baseline group, purple the named group).

import "math"

// LogitCuts are Bucket's cut points in logit points; the site colours its
// HTML grids with the same scale (BucketCuts).
var LogitCuts = [...]float64{0.1, 0.5, 1, 1.5}

var cuts = LogitCuts

// Bucket is the colour class of a value in logit points: 4 when |v| < 0.1,
// then one class further from 4 for each of |v| ≥ 0.1, 0.5, 1 and 1.5,
// below 4 for a negative v: 0 is v ≤ −1.5, 8 is v ≥ 1.5. It is −1 for NaN
// or an infinite v.
func Bucket(v float64) int { return BucketCuts(v, cuts[:]) }

// BucketCuts is Bucket with other cut points (four, ascending), e.g. in
// percentage points.
func BucketCuts(v float64, cuts []float64) int {
	if !finite(v) {
		return -1
	}
	k := 0
	for _, c := range cuts {
		if math.Abs(v) >= c {
			k++
		}
	}
	if v < 0 {
		return 4 - k
	}
	return 4 + k
}
