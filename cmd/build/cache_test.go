package main

import (
	"os"
	"testing"
)

// TestMain keeps the tests' build cache in a folder of their own, not the
// user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "build-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
