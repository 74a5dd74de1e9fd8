//go:build !linux

package browsertest

// On systems other than Linux, the processes chromium leaves behind are
// not waited for (and their CPU time not counted in the test's).
func becomeSubreaper() error { return nil }

func reapOrphans() (int, error) { return 0, nil }
