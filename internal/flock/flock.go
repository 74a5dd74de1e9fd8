// Package flock holds the lock file that keeps two builds from writing the
// same output folder at once. The lock is the operating system's (flock),
// so a build that is killed releases it; the file itself is removed on
// unlock and is harmless when a kill leaves it behind.
package flock

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// ErrUnsupported is returned where the system has no file locks.
var ErrUnsupported = errors.New("file locks are not supported on this system")

// Lock takes the lock file at path, creating it, and returns a function
// that releases it (safe to call more than once). When another process holds it, waiting (called once,
// may be nil) is told so before Lock blocks until it is free.
func Lock(path string, waiting func()) (unlock func() error, err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := lock(f, false); err != nil {
			if !errors.Is(err, errBusy) {
				f.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if waiting != nil {
				waiting()
				waiting = nil
			}
			if err := lock(f, true); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		// The holder before us removes the file before it unlocks, so a
		// lock on a file no longer at path is a lock on nothing: retry.
		if same(f, path) {
			var once sync.Once
			var uerr error
			return func() error {
				// Once only: a second remove could take the file of the
				// next holder.
				once.Do(func() {
					rerr := os.Remove(path)
					cerr := f.Close() // releases the lock
					uerr = errors.Join(rerr, cerr)
				})
				return uerr
			}, nil
		}
		f.Close()
	}
}

func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
