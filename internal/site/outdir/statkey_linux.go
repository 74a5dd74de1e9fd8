//go:build linux

package outdir

import (
	"io/fs"
	"syscall"
)

// statOf is what the kernel says of a file that any change of its bytes
// changes: its device and inode, size, mode, and modification and
// status-change times (the status-change time, ctime, no program can set:
// a write, a rename over it or a change of its times or mode sets it to
// the clock); false when the system gives no such record.
func StatOf(info fs.FileInfo) (FileStat, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return FileStat{}, false
	}
	return FileStat{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mode: uint32(info.Mode()),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
	}, true
}
