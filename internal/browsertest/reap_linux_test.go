package browsertest

import (
	"errors"
	"syscall"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (linux/prctl.h),
// which package syscall does not name.
const prSetChildSubreaper = 36

// becomeSubreaper makes the test process the one that inherits the
// processes its children leave behind (chromium's, when chromium is ended
// without closing them), instead of init, so that reapOrphans can wait for
// them: a process's CPU time counts in its parent's (in /usr/bin/time's and
// .ci/phase's figures) only once it has been waited for.
func becomeSubreaper() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	return nil
}

// reapOrphans waits for every child process left, until there is none. It
// runs last, when the children the tests started (chromium, java) have
// been waited for by os/exec: what is left are the processes chromium left
// behind, which end once chromium has. It returns how many it waited for.
func reapOrphans() (int, error) {
	n := 0
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case err == nil:
			n++
		case errors.Is(err, syscall.EINTR):
		case errors.Is(err, syscall.ECHILD):
			return n, nil
		default:
			return n, err
		}
	}
}
