package score

import (
	"fmt"
	"sort"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

// Comparison is the difference between two runs of the same model and
// variant on the same prompts (b − a: negative means b is less biased), with
// paired bootstrap intervals: both runs are resampled with the same
// decision questions, so what the questions have in common cancels.
type Comparison struct {
	Questions int // decision questions both runs answered
	Views     [NumViews]Estimate
	Coefs     [design.NumCoefs]Estimate
}

// Compare compares two scored logprob runs on the questions they share.
func Compare(a, b *Result) (*Comparison, error) {
	if a.mixed == nil || b.mixed == nil {
		return nil, fmt.Errorf("paired comparisons need two scored log-probability runs")
	}
	ia, ib := index(a.ids), index(b.ids)
	var common []int
	for q := range ia {
		if _, ok := ib[q]; ok {
			common = append(common, q)
		}
	}
	sort.Ints(common)
	if len(common) < 2 {
		return nil, fmt.Errorf("the runs share %d decision questions; a paired comparison needs two", len(common))
	}
	wa, wb := make([]float64, len(a.ids)), make([]float64, len(b.ids))
	coefs := func(w []float64) []float64 {
		for k := range wa {
			wa[k] = 0
		}
		for k := range wb {
			wb[k] = 0
		}
		for k, q := range common {
			wa[ia[q]], wb[ib[q]] = w[k], w[k]
		}
		ba, bb := a.mixed.Reweighted(wa), b.mixed.Reweighted(wb)
		d := make([]float64, 2*int(design.NumCoefs))
		copy(d, ba[1:])
		copy(d[int(design.NumCoefs):], bb[1:])
		return d
	}
	ones := make([]float64, len(common))
	for k := range ones {
		ones[k] = 1
	}
	// The point estimate is on the common questions too, so that it and
	// its interval describe the same thing.
	point := coefs(ones)
	c := &Comparison{Questions: len(common)}
	boot := make([][]float64, 0, BootstrapResamples)
	for _, w := range stats.ClusterWeights(len(common), BootstrapResamples, BootstrapSeed) {
		boot = append(boot, coefs(w))
	}
	diff := func(d []float64, v View) float64 {
		return v.Value(func(k design.Coef) float64 { return d[int(design.NumCoefs)+int(k)] }) -
			v.Value(func(k design.Coef) float64 { return d[k] })
	}
	vals := make([]float64, len(boot))
	for _, v := range Views {
		for i, d := range boot {
			vals[i] = diff(d, v)
		}
		c.Views[v] = Estimate{Estimate: diff(point, v), CI95: percentile(vals)}
	}
	for _, k := range design.Coefs {
		for i, d := range boot {
			vals[i] = d[int(design.NumCoefs)+int(k)] - d[k]
		}
		c.Coefs[k] = Estimate{Estimate: point[int(design.NumCoefs)+int(k)] - point[k], CI95: percentile(vals)}
	}
	return c, nil
}

func index(ids []int) map[int]int {
	m := make(map[int]int, len(ids))
	for i, q := range ids {
		m[q] = i
	}
	return m
}

// percentile returns the 2.5% and 97.5% quantiles; it sorts vals.
func percentile(vals []float64) [2]float64 {
	sort.Float64s(vals)
	return [2]float64{stats.Quantile(vals, 0.025), stats.Quantile(vals, 0.975)}
}
