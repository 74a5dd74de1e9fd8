package site

// The render pool, which renders queued pages on every core, and the
// parallel loop of the steps that read, hash and link files.

import (
	"errors"
	"runtime"
	"sync"
)

// errStopped is what jobs return once another job has failed.
var errStopped = errors.New("stopped after an error")

// A job builds pages and emits them. Jobs run in parallel; every page's
// content is settled before its job is queued.
type job func(r *renderer) error

// pool runs jobs on GOMAXPROCS workers. The queue is short, so a producer
// that gets ahead of rendering waits, and memory holds few pages at once.
// The first error stops the remaining jobs at their next page (every job
// still runs, so whoever waits for a job is told).
type pool struct {
	r    *renderer
	jobs chan job
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

func newPool(r *renderer) *pool {
	p := &pool{r: r, jobs: make(chan job, 4*runtime.GOMAXPROCS(0))}
	// The workers range over the channel itself, not the field, which
	// wait sets to nil (a worker not yet started would read it after).
	jobs := p.jobs
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range jobs {
				if err := j(p.r); err != nil && !errors.Is(err, errStopped) {
					p.mu.Lock()
					if p.err == nil {
						p.err = err
					}
					p.mu.Unlock()
					p.r.stopped.Store(true)
				}
			}
		}()
	}
	return p
}

func (p *pool) failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err != nil
}

// submit queues a job.
func (p *pool) submit(j job) { p.jobs <- j }

// page queues a page already built.
func (p *pool) page(pg *page) { p.submit(func(r *renderer) error { return r.emit(pg) }) }

// wait waits for every queued job and returns the first error.
func (p *pool) wait() error {
	if p.jobs != nil {
		close(p.jobs)
		p.jobs = nil
		p.wg.Wait()
	}
	return p.err
}

// parallel calls fn(0…n-1) on twice GOMAXPROCS workers: its callers read,
// hash and link files, and wait on the disk as much as they compute.
func parallel(n int, fn func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}
