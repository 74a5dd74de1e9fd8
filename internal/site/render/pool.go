package render

// The render pool, which renders queued pages on every core, and the
// parallel loop of the steps that read, hash and link files.

import (
	"errors"
	"runtime"
	"sync"

	"github.com/discrimeval/leaderboard/internal/site/layout"
)

// errStopped is what jobs return once another job has failed.
var ErrStopped = errors.New("stopped after an error")

// A job builds pages and emits them. Jobs run in parallel; every page's
// content is settled before its job is queued.
type Job func(r *Renderer) error

// pool runs jobs on GOMAXPROCS workers. The queue is short, so a producer
// that gets ahead of rendering waits, and memory holds few pages at once.
// The first error stops the remaining jobs at their next page (every job
// still runs, so whoever waits for a job is told).
type Pool struct {
	R    *Renderer
	jobs chan Job
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

func NewPool(r *Renderer) *Pool {
	p := &Pool{R: r, jobs: make(chan Job, 4*runtime.GOMAXPROCS(0))}
	// The workers range over the channel itself, not the field, which
	// wait sets to nil (a worker not yet started would read it after).
	jobs := p.jobs
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range jobs {
				if err := j(p.R); err != nil && !errors.Is(err, ErrStopped) {
					p.mu.Lock()
					if p.err == nil {
						p.err = err
					}
					p.mu.Unlock()
					p.R.Stopped.Store(true)
				}
			}
		}()
	}
	return p
}

func (p *Pool) failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err != nil
}

// submit queues a job.
func (p *Pool) Submit(j Job) { p.jobs <- j }

// page queues a page already built.
func (p *Pool) Page(pg *layout.Page) { p.Submit(func(r *Renderer) error { return r.Emit(pg) }) }

// wait waits for every queued job and returns the first error.
func (p *Pool) Wait() error {
	if p.jobs != nil {
		close(p.jobs)
		p.jobs = nil
		p.wg.Wait()
	}
	return p.err
}

// parallel calls fn(0…n-1) on twice GOMAXPROCS workers: its callers read,
// hash and link files, and wait on the disk as much as they compute.
func Parallel(n int, fn func(i int)) {
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
