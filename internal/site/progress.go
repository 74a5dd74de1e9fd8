package site

import (
	"fmt"
	"io"
	"time"
)

// progress prints one line per phase, with counts and the time taken.
type progress struct {
	w          io.Writer
	start      time.Time
	lastStep   time.Time
	stepsShown int
}

func newProgress(w io.Writer) *progress {
	now := time.Now()
	return &progress{w: w, start: now, lastStep: now}
}

func (p *progress) done(phase, format string, args ...any) {
	if p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "build: %-9s %s (%.1f s)\n", phase+":", fmt.Sprintf(format, args...), time.Since(p.start).Seconds())
}

// step reports progress within a long phase, at most every five seconds.
func (p *progress) step(phase string, i, n int) {
	if p.w == nil || i == n || time.Since(p.lastStep) < 5*time.Second {
		return
	}
	p.lastStep = time.Now()
	fmt.Fprintf(p.w, "build: %-9s %d of %d (%.1f s)\n", phase+":", i, n, time.Since(p.start).Seconds())
}
