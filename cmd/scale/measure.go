package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// rate is one generator's build of a number of pages.
type rate struct {
	name      string
	wall, cpu time.Duration
	files     int
	size      int64
}

// incremental builds the site of all runs but the last with a fresh cache,
// then times the build of all of them with that cache, and again with
// nothing changed, checking each result is byte for byte the clean
// build's (clean); and returns the cache's size after them. Each is
// tried tries times (the least kept, as best does): before each try of
// the run added, the cache and the site of one run fewer are put back
// as they were (copied, cp -a, from copies taken after their build, so
// that no try starts from another's cache; hard links would change the
// status-change times that a rebuild with nothing changed reads by).
func incremental(bin, dir, all string, ids []string, clean string, tries int) (added, same usage, cacheSize int64, err error) {
	cacheDir := filepath.Join(dir, "cache")
	runs := filepath.Join(dir, "runs-inc")
	out := filepath.Join(dir, "site-inc")
	saved := func(p string) string { return p + "-before" }
	for _, p := range []string{cacheDir, out, saved(cacheDir), saved(out)} {
		if err := os.RemoveAll(p); err != nil {
			return usage{}, usage{}, 0, err
		}
	}
	build := filepath.Join(bin, "build")
	if err := linkRuns(all, runs, ids[:len(ids)-1]); err != nil {
		return usage{}, usage{}, 0, err
	}
	if _, err := measure(build, "-runs", runs, "-runs-url", runsURL, "-o", out, "-q", "-cache", cacheDir); err != nil {
		return usage{}, usage{}, 0, err
	}
	if tries > 1 {
		for _, p := range []string{cacheDir, out} {
			if err := copyTree(p, saved(p)); err != nil {
				return usage{}, usage{}, 0, err
			}
		}
	}
	if err := linkRuns(all, runs, ids); err != nil {
		return usage{}, usage{}, 0, err
	}
	rebuild := func() (usage, error) {
		u, err := measure(build, "-runs", runs, "-runs-url", runsURL, "-o", out, "-q", "-cache", cacheDir)
		if err != nil {
			return usage{}, err
		}
		if diff, err := exec.Command("diff", "-r", "-q", clean, out).CombinedOutput(); err != nil {
			return usage{}, fmt.Errorf("the cached rebuild is not the clean build: %v\n%s", err, diff)
		}
		return u, nil
	}
	try := 0
	if added, err = best(tries, func() (usage, error) {
		if try++; try > 1 {
			for _, p := range []string{cacheDir, out} {
				if err := os.RemoveAll(p); err != nil {
					return usage{}, err
				}
				if err := copyTree(saved(p), p); err != nil {
					return usage{}, err
				}
			}
			if err := syncDisks(); err != nil {
				return usage{}, err
			}
		}
		return rebuild()
	}); err != nil {
		return usage{}, usage{}, 0, err
	}
	for _, p := range []string{saved(cacheDir), saved(out)} {
		if err := os.RemoveAll(p); err != nil {
			return usage{}, usage{}, 0, err
		}
	}
	if same, err = best(tries, rebuild); err != nil {
		return usage{}, usage{}, 0, err
	}
	st, err := statSite(cacheDir)
	return added, same, st.size, err
}

// copyTree copies the folder src to dst (which must not exist), modes
// and times kept.
func copyTree(src, dst string) error {
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("cp -a %s %s: %v: %s", src, dst, err, out)
	}
	return nil
}

// coldBuild times the first build with an empty cache (a build's
// default: the cache costs what it stores), each try into an empty folder
// with an empty cache, and checks it is byte for byte the clean build.
func coldBuild(bin, dir, runs, clean string, tries int) (usage, error) {
	out, cacheDir := filepath.Join(dir, "site-cold"), filepath.Join(dir, "cache-cold")
	u, err := best(tries, func() (usage, error) {
		for _, p := range []string{out, cacheDir} {
			if err := os.RemoveAll(p); err != nil {
				return usage{}, err
			}
		}
		return measure(filepath.Join(bin, "build"), "-runs", runs, "-runs-url", runsURL, "-o", out, "-q", "-cache", cacheDir)
	})
	if err != nil {
		return usage{}, err
	}
	if diff, err := exec.Command("diff", "-r", "-q", clean, out).CombinedOutput(); err != nil {
		return usage{}, fmt.Errorf("the first cached build is not the clean build: %v\n%s", err, diff)
	}
	for _, p := range []string{out, cacheDir} {
		if err := os.RemoveAll(p); err != nil {
			return usage{}, err
		}
	}
	return u, nil
}

// best runs f reps times, each after the disks have caught up with the
// writes before it, and keeps the least wall time and the least CPU time
// (user + system) of the tries, each on its own (on a shared machine the
// two need not be the same try's), and the largest resident memory.
func best(reps int, f func() (usage, error)) (usage, error) {
	var b usage
	for i := range max(1, reps) {
		if err := syncDisks(); err != nil {
			return usage{}, err
		}
		u, err := f()
		if err != nil {
			return usage{}, err
		}
		if i == 0 {
			b = u
			continue
		}
		b.wall, b.cpu, b.rssKB = min(b.wall, u.wall), min(b.cpu, u.cpu), max(b.rssKB, u.rssKB)
	}
	return b, nil
}

// syncDisks writes the page cache back, so that one measurement does not
// pay for the writes of the one before.
func syncDisks() error {
	if out, err := exec.Command("sync").CombinedOutput(); err != nil {
		return fmt.Errorf("sync: %v: %s", err, out)
	}
	return nil
}

type usage struct {
	wall, cpu time.Duration
	rssKB     int64
}

// measure runs a command and returns its wall time, CPU time and peak
// resident memory (from the kernel's rusage of the child).
func measure(name string, args ...string) (usage, error) {
	c := exec.Command(name, args...)
	var errb strings.Builder
	c.Stderr = &errb
	start := time.Now()
	if err := c.Run(); err != nil {
		return usage{}, fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, errb.String())
	}
	u := usage{wall: time.Since(start)}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.rssKB = ru.Maxrss
	}
	u.cpu = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	return u, nil
}

func runIDs(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range es {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// linkRuns makes a runs folder of the given runs, hard-linking the files
// (regular files, as the loader requires, without copying).
func linkRuns(all, dst string, ids []string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	for _, id := range ids {
		if err := os.MkdirAll(filepath.Join(dst, id), 0o755); err != nil {
			return err
		}
		files, err := os.ReadDir(filepath.Join(all, id))
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := os.Link(filepath.Join(all, id, f.Name()), filepath.Join(dst, id, f.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// floorTime is what any build must do, timed: every scored file
// decompressed and hashed (gzip -dc | sha256sum) and hashed as stored
// (sha256sum), and the built output copied (cp -r), in one plain shell
// loop.
func floorTime(runs, site, copyTo string) (time.Duration, error) {
	var scored []string
	err := filepath.WalkDir(runs, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "scored.") {
			scored = append(scored, p)
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	if err := os.RemoveAll(copyTo); err != nil {
		return 0, err
	}
	const script = `site=$1 copy=$2; shift 2
for f do
  sha256sum "$f" >/dev/null || exit 1
  case $f in *.gz) gzip -dc "$f" | sha256sum >/dev/null || exit 1;; esac
done
cp -r "$site" "$copy"`
	start := time.Now()
	if out, err := exec.Command("sh", append([]string{"-c", script, "floor", site, copyTo}, scored...)...).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("the floor: %v: %s", err, out)
	}
	return time.Since(start), nil
}

// hugoBuild times hugo building as many pages as the site has, each of
// the site's mean page size.
func hugoBuild(dir string, files int, size int64, reps int) (rate, error) {
	if _, err := exec.LookPath("hugo"); err != nil {
		return rate{}, fmt.Errorf("-hugo: no hugo on PATH (apt-get install hugo)")
	}
	src := filepath.Join(dir, "hugo-src")
	if err := os.RemoveAll(src); err != nil {
		return rate{}, err
	}
	if err := os.MkdirAll(filepath.Join(src, "content", "p"), 0o755); err != nil {
		return rate{}, err
	}
	if err := os.MkdirAll(filepath.Join(src, "layouts", "_default"), 0o755); err != nil {
		return rate{}, err
	}
	cfg := "baseURL = '/'\ndisableKinds = ['taxonomy', 'term', 'RSS', 'sitemap']\n"
	if err := os.WriteFile(filepath.Join(src, "hugo.toml"), []byte(cfg), 0o644); err != nil {
		return rate{}, err
	}
	layout := "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><main>{{ .Content }}</main></body></html>\n"
	for _, n := range []string{"single.html", "list.html"} {
		if err := os.WriteFile(filepath.Join(src, "layouts", "_default", n), []byte(layout), 0o644); err != nil {
			return rate{}, err
		}
	}
	// Pages of the site's mean size, as hugo writes them: a table of
	// numbers, as most pages here are, with as many rows as make one
	// page of that size (measured on one page first).
	mean := int(size) / files
	out := filepath.Join(dir, "hugo-out")
	pages := func(n, rows int) error {
		for _, d := range []string{filepath.Join(src, "content", "p"), out} {
			if err := os.RemoveAll(d); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(filepath.Join(src, "content", "p"), 0o755); err != nil {
			return err
		}
		var body strings.Builder
		for i := range rows {
			fmt.Fprintf(&body, "| %d | %d.%02d | −0.%02d | +0.%02d |\n", i, i%3, i%97, i%89, i%83)
		}
		for i := range n {
			page := fmt.Sprintf("---\ntitle: page %d\n---\n| n | a | b | c |\n|---|---|---|---|\n%s", i, body.String())
			if err := os.WriteFile(filepath.Join(src, "content", "p", fmt.Sprintf("%05d.md", i)), []byte(page), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	const probe = 1000
	if err := pages(1, probe); err != nil {
		return rate{}, err
	}
	if _, err := measure("hugo", "--quiet", "-s", src, "-d", out); err != nil {
		return rate{}, err
	}
	one, err := os.Stat(filepath.Join(out, "p", "00000", "index.html"))
	if err != nil {
		return rate{}, err
	}
	if err := pages(files, max(1, probe*mean/int(one.Size()))); err != nil {
		return rate{}, err
	}
	u, err := best(reps, func() (usage, error) {
		if err := os.RemoveAll(out); err != nil {
			return usage{}, err
		}
		return measure("hugo", "--quiet", "-s", src, "-d", out)
	})
	if err != nil {
		return rate{}, err
	}
	st, err := statSite(out)
	if err != nil {
		return rate{}, err
	}
	hsize, hfiles := st.html, st.pages
	v, _ := exec.Command("hugo", "version").Output()
	name := "hugo " + strings.Fields(string(v) + " ? ?")[1]
	return rate{name: name, wall: u.wall, cpu: u.cpu, files: hfiles, size: hsize}, nil
}
