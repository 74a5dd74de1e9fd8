package stats

import (
	"math"
	"runtime"
	"sync"
)

// RankSet is a set of ranks {Lo, …, Hi}, 1 the best.
type RankSet struct{ Lo, Hi int }

// Ranks holds confidence sets for the ranks of n estimates (lower is
// better), after Mogstad, Romano, Shaikh and Wilhelm, "Inference for
// Ranks with Applications to Mobility across Neighbourhoods and Academic
// Achievement across Countries" (Review of Economic Studies, 2024).
type Ranks struct {
	// Marginal[j] holds run j's true rank with probability at least
	// 1 − α: {1 + the runs better than j, …, n − the runs worse than j},
	// "better" and "worse" decided by a step-down test of the n − 1
	// differences between j and the others at family-wise level α.
	// MarginalCrit[j] is its last step's critical value.
	Marginal     []RankSet
	MarginalCrit []float64
	// Simultaneous holds every run's true rank at once with probability
	// at least 1 − α: the same from a step-down test of all n(n − 1)/2
	// differences at family-wise level α. SimCrits are its steps'
	// critical values, the first the single step's, non-increasing; a
	// difference is decided at the first step whose critical value its
	// |t| exceeds (Step).
	Simultaneous []RankSet
	SimCrits     []float64
	// floor is RankSetsFunc's floor.
	floor []bool
}

// SimCrit is the simultaneous step-down's last critical value: the
// differences it leaves undecided have |t| at most this.
func (r *Ranks) SimCrit() float64 {
	if len(r.SimCrits) == 0 {
		return math.NaN()
	}
	return r.SimCrits[len(r.SimCrits)-1]
}

// Step is the step of the simultaneous step-down at which the difference
// est[j] − est[k], with statistic t (the difference over its standard
// error), is decided (from 0), or −1 when it is not: the first step whose
// critical value |t| exceeds, unless the run it would place above the
// other is at its floor.
func (r *Ranks) Step(j, k int, t float64) int {
	if t > 0 && at(r.floor, j) || t < 0 && at(r.floor, k) {
		return -1
	}
	for s, c := range r.SimCrits {
		if math.Abs(t) > c {
			return s
		}
	}
	return -1
}

// at reports floor[j], false for a nil floor.
func at(floor []bool, j int) bool { return floor != nil && floor[j] }

// RankSets computes the marginal and simultaneous confidence sets for the
// ranks of est (lower is better) at level 1 − alpha. reps[j] are
// bootstrap replicates of est[j], drawn with the same weights for every j
// (a paired bootstrap: stats.QuestionWeights), and se[j][k] the standard
// error of est[j] − est[k]. floor (nil for none) marks the runs whose
// true value may be the least it can be (a magnitude that may be zero):
// no difference places such a run beyond doubt above another, since no
// true value is below it (the bootstrap of a difference is not valid
// there, and this keeps the sets valid). The critical values are
// bootstrap quantiles of the largest |t| over the family's differences
// still undecided, t the centred replicate difference over its standard
// error, step by step (Romano and Wolf 2005): the differences decided at
// one step leave the maximum at the next, until no more are decided; a
// difference a floor keeps undecided stays in the maximum. A difference
// with a zero standard error is beyond doubt when its estimate is not
// zero. The result is a deterministic function of the inputs.
func RankSets(est []float64, reps [][]float64, se [][]float64, alpha float64, floor []bool) *Ranks {
	return RankSetsFunc(est, reps, func(j, k int) float64 { return se[j][k] }, alpha, floor)
}

// RankSetsFunc is RankSets with the standard errors given by a function,
// se(j, k) that of est[j] − est[k], so that a caller need not hold them
// as an n × n matrix.
//
// The work is n² × B (replicates) a step. Two things keep it there, with
// the same numbers as folding every active difference at every step:
// the first step, which every family starts from, takes each pair once
// for both of its runs (|z_j − z_k| is |z_k − z_j| to the bit); and a
// later step recomputes only the replicates whose maximum came from a
// difference the step before decided (a maximum over fewer differences
// that still holds its largest is unchanged), or, for the simultaneous
// family when fewer differences are left than that would visit, the
// maximum over those left.
func RankSetsFunc(est []float64, reps [][]float64, seOf func(j, k int) float64, alpha float64, floor []bool) *Ranks {
	z := Centred(reps)
	return RankSetsFirst(est, z, seOf, alpha, floor, FirstMaxima(z, seOf))
}

// Centred is every run's bootstrap replicates less their mean, as
// RankSetsFunc centres them (z_j).
func Centred(reps [][]float64) [][]float64 {
	z := make([][]float64, len(reps))
	for j := range reps {
		B := len(reps[j])
		m := 0.0
		for _, v := range reps[j] {
			m += v
		}
		m /= float64(B)
		z[j] = make([]float64, B)
		for b, v := range reps[j] {
			z[j][b] = v - m
		}
	}
	return z
}

// FirstStep is the first step of every run's family in RankSetsFunc, made
// from the centred replicates z and the standard errors alone (not the
// estimates, nor the floor): Max[j][b] the maximum of |z_j[b] − z_k[b]| /
// se(j, k) over every k ≠ j with se(j, k) ≠ 0 (0 when there is none), and
// Arg[j][b] a k it came from (−1 for none). Which k, when several give
// the maximum, does not change the sets nor the critical values: a later
// step recomputes a replicate's maximum when the difference it came from
// is decided, and a maximum over fewer differences that still holds its
// largest is unchanged.
type FirstStep struct {
	Max [][]float64
	Arg [][]int32
}

// FirstMaxima is the first step of every run's family.
func FirstMaxima(z [][]float64, seOf func(j, k int) float64) FirstStep {
	if len(z) == 0 {
		return FirstStep{}
	}
	first, arg := firstMaxima(z, seOf)
	return FirstStep{first, arg}
}

// ExtendFirst brings a first step over some of the runs to all of them:
// fs holds, for each run j with !added[j], the first step over the runs
// not added (Arg in the indices of all the runs), and the rows of the
// added runs are any (they are overwritten). The added runs' rows are made
// whole and the others' take in their differences with the added runs:
// the result is FirstMaxima(z, seOf)'s maxima, to the bit, with an Arg of
// the same maxima, at about 2n × B work an added run against n² × B.
func ExtendFirst(fs FirstStep, z [][]float64, seOf func(j, k int) float64, added []bool) {
	n := len(z)
	var add []int
	for k, a := range added {
		if a {
			add = append(add, k)
		}
	}
	if len(add) == 0 {
		return
	}
	spread(n, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			t, a, zj := fs.Max[j], fs.Arg[j], z[j]
			ks := add
			if added[j] {
				clear(t)
				for b := range a {
					a[b] = -1
				}
				ks = nil // every other run, in order
			}
			fold := func(k int) {
				if k == j {
					return
				}
				inv := inverse(seOf(j, k))
				if inv == 0 {
					return
				}
				zk := z[k][:len(zj)]
				for b, x := range zj {
					if v := math.Abs(x-zk[b]) * inv; v > t[b] {
						t[b], a[b] = v, int32(k)
					}
				}
			}
			if ks == nil {
				for k := range n {
					fold(k)
				}
			} else {
				for _, k := range ks {
					fold(k)
				}
			}
		}
	})
}

// RankSetsFirst is RankSetsFunc from the centred replicates z (Centred)
// and their first step (FirstMaxima, or ExtendFirst), which it
// overwrites.
func RankSetsFirst(est []float64, z [][]float64, seOf func(j, k int) float64, alpha float64, floor []bool, fs FirstStep) *Ranks {
	n := len(est)
	r := &Ranks{Marginal: make([]RankSet, n), MarginalCrit: make([]float64, n), Simultaneous: make([]RankSet, n), floor: floor}
	if n == 0 {
		return r
	}
	B := len(z[0])
	tstat := func(j, k int) float64 {
		d := est[j] - est[k]
		se := seOf(j, k)
		if se == 0 {
			if d == 0 {
				return 0
			}
			return math.Copysign(math.Inf(1), d)
		}
		return d / se
	}
	// decides says the difference j − k is beyond doubt at critical
	// value c.
	decides := func(j, k int, c float64) bool {
		switch t := tstat(j, k); {
		case t > c:
			return !at(floor, j)
		case t < -c:
			return !at(floor, k)
		}
		return false
	}
	crit := func(t, scratch []float64) float64 {
		return QuantileUnsorted(append(scratch[:0], t...), 1-alpha)
	}
	// The first step of every run's family: first[j][b] the maximum of
	// |z_j − z_k| / se(j, k) over every k ≠ j with se(j, k) ≠ 0 (0 when
	// there is none), and arg[j][b] the k it came from (−1 for none).
	first, arg := fs.Max, fs.Arg
	// The replicates transposed, zt[b*n+k] = z[k][b]: the step-downs
	// recompute a replicate's maximum over the runs left with their
	// values side by side, not 8·B bytes apart.
	zt := make([]float64, B*n)
	spread(B, func(lo, hi int) {
		for k := range n {
			for b := lo; b < hi; b++ {
				zt[b*n+k] = z[k][b]
			}
		}
	})
	// Marginal sets, a run per job, stepping down from its first step.
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			t := make([]float64, B)
			from := make([]int32, B)
			scratch := make([]float64, B)
			active := make([]bool, n)
			removed := make([]bool, n)
			var redo []int
			ks, ivs := make([]int32, 0, n), make([]float64, 0, n)
			for j := range jobs {
				for k := range active {
					active[k] = k != j
				}
				copy(t, first[j])
				copy(from, arg[j])
				c := crit(t, scratch)
				for {
					clear(removed)
					found := false
					for k := range n {
						if active[k] && decides(j, k, c) {
							active[k], removed[k], found = false, true, true
						}
					}
					if !found {
						break
					}
					// The replicates whose maximum was a removed
					// difference: their maximum over the active ones,
					// from 0 as the first step's.
					redo = redo[:0]
					for b, k := range from {
						if k >= 0 && removed[k] {
							redo = append(redo, b)
						}
					}
					if len(redo) > 0 {
						// Replicate by replicate over the runs still
						// active, in order (the same maximum, from the
						// same k, as run by run), their values side by
						// side in zt.
						ks, ivs = ks[:0], ivs[:0]
						for k := range n {
							if !active[k] {
								continue
							}
							se := seOf(j, k)
							if se == 0 {
								continue
							}
							if inv := 1 / se; inv != 0 { // 0 never raises a maximum
								ks, ivs = append(ks, int32(k)), append(ivs, inv)
							}
						}
						for _, b := range redo {
							row := zt[b*n : b*n+n]
							zjb := row[j]
							best, bk := 0.0, int32(-1)
							for i, k := range ks {
								if v := math.Abs(zjb-row[k]) * ivs[i]; v > best {
									best, bk = v, k
								}
							}
							t[b], from[b] = best, bk
						}
					}
					c = crit(t, scratch)
				}
				r.MarginalCrit[j] = c
				r.Marginal[j] = rankSet(n, j, c, decides, tstat)
			}
		})
	}
	for j := range n {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	// Simultaneous: the same step-down over all pairs at once, from the
	// maximum of the runs' own first steps.
	r.SimCrits = simultaneous(z, zt, first, arg, seOf, decides, func(t []float64) float64 { return crit(t, make([]float64, B)) })
	c := r.SimCrit()
	for j := range n {
		r.Simultaneous[j] = rankSet(n, j, c, decides, tstat)
	}
	return r
}

// simultaneous steps down over every pair of runs: each step's critical
// value crit of the maximum over the replicates of the pairs still
// undecided (both orders of a pair, as the first step's rows), deciding
// those whose difference exceeds it (decides), until a step decides none.
// first and arg are the rows' first steps (firstMaxima), overwritten; zt
// is z transposed (zt[b*n+k] = z[k][b]).
func simultaneous(z [][]float64, zt []float64, first [][]float64, arg [][]int32, seOf func(j, k int) float64, decides func(j, k int, c float64) bool, crit func([]float64) float64) []float64 {
	n, B := len(z), len(z[0])
	t := make([]float64, B)
	for j := range n {
		for b, v := range first[j] {
			t[b] = math.Max(t[b], v)
		}
	}
	decided := make([]bool, n*n) // decided[j*n+k], both orders
	left := n * (n - 1)          // undecided ordered pairs
	direct := false              // t is the maximum over the pairs left, not over rows
	var redo [][]int32           // per row, the replicates to recompute, reused
	var crits []float64
	for {
		c := crit(t)
		crits = append(crits, c)
		newly := 0
		for j := range n {
			for k := j + 1; k < n; k++ {
				if !decided[j*n+k] && decides(j, k, c) {
					decided[j*n+k], decided[k*n+j] = true, true
					newly++
				}
			}
		}
		if newly == 0 {
			return crits
		}
		left -= 2 * newly
		// The rows' replicates whose maximum was a newly decided pair,
		// unless fewer pairs are left than recomputing them would
		// visit: then, and at every later step, the maximum over the
		// pairs left, replicate by replicate.
		if !direct {
			if redo == nil {
				redo = make([][]int32, n)
			}
			visits := 0
			for j := range n {
				redo[j] = redo[j][:0]
				for b, k := range arg[j] {
					if k >= 0 && decided[j*n+int(k)] {
						redo[j] = append(redo[j], int32(b))
					}
				}
				visits += len(redo[j]) * n
			}
			direct = left*B < visits
		}
		if direct {
			// Each core a range of the replicates (a maximum is the
			// same whatever the order).
			clear(t)
			// Both orders of a pair in one pass (|z_j − z_k| is
			// |z_k − z_j| to the bit); a zero standard error leaves
			// its order out, as 0 does in the maximum.
			spread(B, func(lo, hi int) {
				tt := t[lo:hi]
				for j := range n {
					for k := j + 1; k < n; k++ {
						if decided[j*n+k] {
							continue
						}
						ijk, ikj := inverse(seOf(j, k)), inverse(seOf(k, j))
						if ijk == 0 && ikj == 0 {
							continue
						}
						zj, zk := z[j][lo:hi], z[k][lo:hi]
						for b := range tt {
							d := math.Abs(zj[b] - zk[b])
							if v := d * ijk; v > tt[b] {
								tt[b] = v
							}
							if v := d * ikj; v > tt[b] {
								tt[b] = v
							}
						}
					}
				}
			})
			continue
		}
		// Each core a range of the rows (each writes its own), over the
		// replicates transposed (zt), each row's pairs left listed with
		// their inverse standard errors.
		spread(n, func(lo, hi int) {
			ks, ivs := make([]int32, 0, n), make([]float64, 0, n)
			for j := lo; j < hi; j++ {
				if len(redo[j]) == 0 {
					continue
				}
				ks, ivs = ks[:0], ivs[:0]
				for k := range n {
					if k != j && !decided[j*n+k] {
						if se := seOf(j, k); se != 0 {
							if iv := 1 / se; iv != 0 {
								ks, ivs = append(ks, int32(k)), append(ivs, iv)
							}
						}
					}
				}
				for _, b := range redo[j] {
					row := zt[int(b)*n : int(b)*n+n]
					zjb := row[j]
					best, from := 0.0, int32(-1)
					for i, k := range ks {
						if v := math.Abs(zjb-row[k]) * ivs[i]; v > best {
							best, from = v, k
						}
					}
					first[j][b], arg[j][b] = best, from
				}
			}
		})
		clear(t)
		for j := range n {
			for b, v := range first[j] {
				t[b] = math.Max(t[b], v)
			}
		}
	}
}

// inverse is 1/se, 0 for a zero standard error (a difference that does
// not count in a maximum).
func inverse(se float64) float64 {
	if se == 0 {
		return 0
	}
	return 1 / se
}

// spread runs f on ranges [lo, hi) that cover [0, n), one a core, and
// waits for them.
func spread(n int, f func(lo, hi int)) {
	procs := min(runtime.GOMAXPROCS(0), max(n, 1))
	var wg sync.WaitGroup
	for p := range procs {
		lo, hi := n*p/procs, n*(p+1)/procs
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// firstMaxima is the first step of every run's family (RankSetsFunc):
// for each j and replicate b, the largest |z_j[b] − z_k[b]| / se(j, k)
// over k ≠ j with se(j, k) ≠ 0, starting from 0 (a NaN never counts),
// and the k it came from (−1 when none is above 0). Each pair is taken
// once for both of its runs, on every core a block of replicates at a
// time (a block of every run's replicates stays in cache).
func firstMaxima(z [][]float64, seOf func(j, k int) float64) (first [][]float64, arg [][]int32) {
	n, B := len(z), len(z[0])
	first, arg = make([][]float64, n), make([][]int32, n)
	for j := range n {
		first[j], arg[j] = make([]float64, B), make([]int32, B)
	}
	// A block of replicates of every run is copied together, so that the
	// runs' rows of it are not 8·B bytes apart (which the cache maps onto
	// few of its sets).
	const block = 64
	blocks := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			zs, ts, as := make([]float64, n*block), make([]float64, n*block), make([]int32, n*block)
			// The inverse standard errors of j's pairs with the runs
			// after it, both ways (se need not be symmetric): ij[k] that
			// of j − k, kj[k] that of k − j; 0 stands for a zero standard
			// error, left out. They are computed again for every block,
			// so that no n × n matrix is held (n(n − 1) calls of seOf a
			// block, against n(n − 1)/2 × block replicate pairs).
			ij, kj := make([]float64, n), make([]float64, n)
			for lo := range blocks {
				w := min(block, B-lo)
				for j := range n {
					copy(zs[j*w:(j+1)*w], z[j][lo:])
				}
				clear(ts[:n*w])
				for i := range as[:n*w] {
					as[i] = -1
				}
				for j := range n {
					zj, tj, aj := zs[j*w:(j+1)*w], ts[j*w:(j+1)*w], as[j*w:(j+1)*w]
					for k := j + 1; k < n; k++ {
						ij[k], kj[k] = inverse(seOf(j, k)), inverse(seOf(k, j))
					}
					for k := j + 1; k < n; k++ {
						ijk, ikj := ij[k], kj[k]
						zk, tk, ak := zs[k*w:(k+1)*w], ts[k*w:(k+1)*w], as[k*w:(k+1)*w]
						zk, tk, ak = zk[:len(zj)], tk[:len(zj)], ak[:len(zj)]
						switch {
						case ijk != 0 && ikj != 0:
							for b, x := range zj {
								d := math.Abs(x - zk[b])
								if v := d * ijk; v > tj[b] {
									tj[b], aj[b] = v, int32(k)
								}
								if v := d * ikj; v > tk[b] {
									tk[b], ak[b] = v, int32(j)
								}
							}
						case ijk != 0:
							for b, x := range zj {
								if v := math.Abs(x-zk[b]) * ijk; v > tj[b] {
									tj[b], aj[b] = v, int32(k)
								}
							}
						case ikj != 0:
							for b, x := range zj {
								if v := math.Abs(x-zk[b]) * ikj; v > tk[b] {
									tk[b], ak[b] = v, int32(j)
								}
							}
						}
					}
				}
				for j := range n {
					copy(first[j][lo:lo+w], ts[j*w:])
					copy(arg[j][lo:lo+w], as[j*w:])
				}
			}
		})
	}
	for lo := 0; lo < B; lo += block {
		blocks <- lo
	}
	close(blocks)
	wg.Wait()
	return first, arg
}

// rankSet is run j's set of ranks when the differences decides says are
// beyond doubt at critical value c are.
func rankSet(n, j int, c float64, decides func(j, k int, c float64) bool, tstat func(j, k int) float64) RankSet {
	s := RankSet{Lo: 1, Hi: n}
	for k := range n {
		if k == j || !decides(j, k, c) {
			continue
		}
		if tstat(j, k) > 0 { // j − k > 0: k is better
			s.Lo++
		} else {
			s.Hi--
		}
	}
	return s
}
