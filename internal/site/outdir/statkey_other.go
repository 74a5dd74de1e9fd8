//go:build !linux

package outdir

import (
	"io/fs"
)

// statOf gives no record here: every file is read and hashed.
func StatOf(fs.FileInfo) (FileStat, bool) { return FileStat{}, false }
