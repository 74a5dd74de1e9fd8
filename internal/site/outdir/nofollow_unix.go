//go:build unix

package outdir

import (
	"syscall"
)

// oNoFollow makes opening a symbolic link fail.
const ONoFollow = syscall.O_NOFOLLOW
