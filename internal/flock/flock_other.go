//go:build !unix

package flock

import (
	"errors"
	"os"
)

var errBusy = errors.New("locked by another process")

func lock(f *os.File, wait bool) error { return ErrUnsupported }
