package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/discrimeval/leaderboard/internal/design"
	"github.com/discrimeval/leaderboard/internal/stats"
)

func TestStandardize(t *testing.T) {
	// R: mean 6.2, sd(c(1, 2, 4, 8, 16)) = 6.09918027279076
	m, sd := stats.Standardize([]float64{1, 2, 4, 8, 16})
	if math.Abs(m-6.2) > 1e-15 || math.Abs(sd-6.09918027279076) > 1e-13 {
		t.Errorf("mean %v sd %v", m, sd)
	}
	// The full grid, as rows: 70 questions × 135 cells, each age 1,050
	// times. R: sd(rep(seq(20, 100, 10), each = 1050)) = 25.8212552148406
	// (not √750 = 27.386, the sd of the nine distinct ages).
	var ages []float64
	for _, a := range design.Ages {
		for range 1050 {
			ages = append(ages, float64(a))
		}
	}
	if m, sd := stats.Standardize(ages); m != 60 || math.Abs(sd-25.8212552148406) > 1e-12 {
		t.Errorf("full grid: mean %v sd %v", m, sd)
	}
}

func TestClusters(t *testing.T) {
	cell := func(age int, g design.Gender, r design.Race) design.Cell {
		return design.Cell{Age: age, Gender: g, Race: r}
	}
	obs := []stats.Obs{
		{Q: 9, Cell: cell(20, design.Female, design.Black), Y: 1},
		{Q: 3, Cell: cell(60, design.Male, design.White), Y: 2},
		{Q: 9, Cell: cell(100, design.NonBinary, design.NativeAmerican), Y: 3},
		{Q: 3, Cell: cell(40, design.Male, design.Asian), Y: 4},
	}
	ids, cl, err := stats.Clusters(obs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []int{3, 9}) {
		t.Fatalf("ids %v, want [3 9]", ids)
	}
	mean, sd := stats.Standardize([]float64{20, 60, 100, 40})
	z := func(a float64) float64 { return (a - mean) / sd }
	// Columns: intercept, age_z, female, non_binary, black, asian, hispanic, native_american.
	want := []stats.Cluster{
		{X: []float64{1, z(60), 0, 0, 0, 0, 0, 0, 1, z(40), 0, 0, 0, 1, 0, 0}, Y: []float64{2, 4}},
		{X: []float64{1, z(20), 1, 0, 1, 0, 0, 0, 1, z(100), 0, 1, 0, 0, 0, 1}, Y: []float64{1, 3}},
	}
	for k := range want {
		if !slices.Equal(cl[k].X, want[k].X) || !slices.Equal(cl[k].Y, want[k].Y) {
			t.Errorf("question %d: got %+v, want %+v", ids[k], cl[k], want[k])
		}
	}
	if _, _, err := stats.Clusters(obs[1:2]); err == nil {
		t.Error("one row (no age variation) accepted")
	}
}

func TestCI95(t *testing.T) {
	// t quantiles from R: qt(0.975, 69), qt(0.975, 39).
	for _, c := range []struct {
		df int
		q  float64
	}{{69, 1.99494541510724}, {39, 2.02269092003676}} {
		f := &stats.MixedFit{Beta: []float64{0.5}, SE: []float64{0.1}, DF: c.df}
		ci := f.CI95(0)
		if math.Abs(ci[0]-(0.5-c.q*0.1)) > 1e-12 || math.Abs(ci[1]-(0.5+c.q*0.1)) > 1e-12 {
			t.Errorf("df %d: %v, want 0.5 ± %v·0.1", c.df, ci, c.q)
		}
	}
}
