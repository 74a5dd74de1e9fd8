package score

import (
	"runtime"
	"sync"
	"testing"
)

// simulate returns work(in(i)) for i = 0…n−1, computed on GOMAXPROCS
// goroutines. in is called in order of i on the calling goroutine, so
// inputs drawn from one seeded stream are those that drawing them one
// after the other gives (and in may call t.Fatal); work runs on any
// goroutine; the results come back indexed by i, so that a test adding
// them up in that order gets the same sums, to the bit, however the
// goroutines were scheduled.
func simulate[In, Out any](n int, in func(i int) In, work func(In) Out) []Out {
	out := make([]Out, n)
	type job struct {
		i int
		x In
	}
	procs := runtime.GOMAXPROCS(0)
	jobs := make(chan job, procs)
	var wg sync.WaitGroup
	for range procs {
		wg.Go(func() {
			for j := range jobs {
				out[j.i] = work(j.x)
			}
		})
	}
	for i := range n {
		jobs <- job{i, in(i)}
	}
	close(jobs)
	wg.Wait()
	return out
}

// simulate hands each input to work and each result back at its index,
// drawing the inputs in order on the calling goroutine, with four
// goroutines or one.
func TestSimulate(t *testing.T) {
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		var order []int
		got := simulate(100, func(i int) int {
			order = append(order, i)
			return 3 * i
		}, func(x int) int {
			runtime.Gosched()
			return x + 1
		})
		runtime.GOMAXPROCS(old)
		for i, v := range got {
			if v != 3*i+1 || order[i] != i {
				t.Fatalf("GOMAXPROCS %d: result %d is %d (input %d drawn %d-th)", procs, i, v, order[i], i)
			}
		}
	}
}
