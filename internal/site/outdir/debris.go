package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// recoverDebris runs under the lock: every out.tmp-* and out.old-* folder
// is left by a killed build. When out is missing and an out.old-* exists,
// the kill fell between the renames of the swap: that folder is the
// previous site, complete, and is put back before the rest is removed.
func recoverDebris(parent, base string, logf func(string, ...any)) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	var tmps, olds []string
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasPrefix(n, base+".tmp-"):
			tmps = append(tmps, n)
		case strings.HasPrefix(n, base+".old-"):
			olds = append(olds, n)
		}
	}
	out := filepath.Join(parent, base)
	if _, err := os.Lstat(out); errors.Is(err, os.ErrNotExist) && len(olds) > 0 {
		// One swap at a time (the lock), so there is one such folder;
		// should there be more, the newest is the previous site.
		sort.Slice(olds, func(i, j int) bool { return newer(parent, olds[i], olds[j]) })
		if err := os.Rename(filepath.Join(parent, olds[0]), out); err != nil {
			return err
		}
		logf("%s: put back the previous site from %s (a build was killed while swapping)", out, olds[0])
		step("restored")
		olds = olds[1:]
	}
	for _, n := range append(tmps, olds...) {
		if err := os.RemoveAll(filepath.Join(parent, n)); err != nil {
			return fmt.Errorf("removing %s, left by a killed build: %w", filepath.Join(parent, n), err)
		}
		logf("%s: removed %s, left by a killed build", out, n)
		step("cleaned")
	}
	return nil
}

func newer(dir, a, b string) bool {
	sa, ea := os.Stat(filepath.Join(dir, a))
	sb, eb := os.Stat(filepath.Join(dir, b))
	if ea != nil || eb != nil || sa.ModTime().Equal(sb.ModTime()) {
		return a > b
	}
	return sa.ModTime().After(sb.ModTime())
}
