// Command scale measures the generator at scale (make scale): for each
// number of runs it generates synthetic runs (cmd/synth -n), measures the
// floor — what any build must do: decompress and hash every scored file,
// hash it, and copy the built output — then a clean build (-cache off), a
// -verify, and a rebuild with the build cache after adding one run to a
// site of one run fewer, then one with nothing changed (each checked
// byte-identical with the clean build), and the cache's size; and
// prints one Markdown table row per size for BENCHMARKS.md. With -hugo it
// also times Debian's hugo building the same number of pages of the same
// mean size.
//
//	go run ./cmd/scale [-n 25,50,100,200,400] [-dir /tmp/scale] [-hugo] [-reps 3]
//
// Times are wall-clock seconds on whatever the machine is doing: run it on
// a quiet machine, and compare ratios taken in the same run. Each clean
// build, floor, -verify and hugo build is the fastest of -reps, each after
// sync; the cached rebuild is timed once (each try needs a fresh cache).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("scale", flag.ContinueOnError)
	fl.SetOutput(stderr)
	sizes := fl.String("n", "25,50,100,200,400", "numbers of runs to measure, comma-separated")
	dir := fl.String("dir", filepath.Join(os.TempDir(), "discrim-scale"), "work folder (runs, sites, binaries)")
	hugo := fl.Bool("hugo", false, "also time hugo building as many pages of the same mean size")
	reps := fl.Int("reps", 3, "time each clean build, floor, -verify and hugo build this many times and keep the fastest")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-n %q: want positive whole numbers", s)
		}
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var vs [][2]rate // this generator and hugo, per size
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	bin := filepath.Join(*dir, "bin")
	for _, cmd := range []string{"build", "synth"} {
		c := exec.Command("go", "build", "-o", filepath.Join(bin, cmd), "./cmd/"+cmd)
		c.Stdout, c.Stderr = stderr, stderr
		if err := c.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/%s: %w (run from the repository root)", cmd, err)
		}
	}
	all := filepath.Join(*dir, "runs-all")
	max := ns[len(ns)-1]
	fmt.Fprintf(stderr, "scale: generating %d runs into %s\n", max, all)
	if _, err := measure(filepath.Join(bin, "synth"), "-n", strconv.Itoa(max), "-o", all, "-force"); err != nil {
		return err
	}
	ids, err := runIDs(all)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| runs | floor | build | build ÷ floor | CPU | peak RSS | verify | +1 run, cached | nothing changed, cached | cache | output | per run | files | largest files |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range ns {
		runs := filepath.Join(*dir, fmt.Sprintf("runs-%d", n))
		if err := linkRuns(all, runs, ids[:n]); err != nil {
			return err
		}
		out := filepath.Join(*dir, fmt.Sprintf("site-%d", n))
		fmt.Fprintf(stderr, "scale: %d runs: build\n", n)
		// A clean build: no cache, and no previous site to link from.
		b, err := best(*reps, func() (usage, error) {
			if err := os.RemoveAll(out); err != nil {
				return usage{}, err
			}
			return measure(filepath.Join(bin, "build"), "-runs", runs, "-o", out, "-q", "-cache", "off")
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "scale: %d runs: floor\n", n)
		fl, err := best(*reps, func() (usage, error) {
			d, err := floorTime(runs, out, filepath.Join(*dir, "copy"))
			return usage{wall: d}, err
		})
		if err != nil {
			return err
		}
		floor := fl.wall
		fmt.Fprintf(stderr, "scale: %d runs: verify\n", n)
		v, err := best(*reps, func() (usage, error) {
			return measure(filepath.Join(bin, "build"), "-runs", runs, "-verify", out, "-cache", "off")
		})
		if err != nil {
			return err
		}
		inc, same, cacheSize := "–", "–", "–"
		if n > 1 {
			fmt.Fprintf(stderr, "scale: %d runs: one run added, cached; then nothing changed\n", n)
			u, u2, cs, err := incremental(bin, *dir, all, ids[:n], out)
			if err != nil {
				return err
			}
			inc = fmt.Sprintf("%.1f s (%.0f%%)", u.wall.Seconds(), 100*u.wall.Seconds()/b.wall.Seconds())
			same = fmt.Sprintf("%.1f s (%.0f%%)", u2.wall.Seconds(), 100*u2.wall.Seconds()/b.wall.Seconds())
			cacheSize = fmt.Sprintf("%d MB", cs>>20)
		}
		size, files, largest, err := outputStats(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "| %d | %.1f s | %.1f s | %.1f× | %.1f s | %d MB | %.1f s (%.2f×), %d MB | %s | %s | %s | %d MB | %.2f MB | %d | %s |\n",
			n, floor.Seconds(), b.wall.Seconds(), b.wall.Seconds()/floor.Seconds(), b.cpu.Seconds(), b.rssKB/1024,
			v.wall.Seconds(), v.wall.Seconds()/b.wall.Seconds(), v.rssKB/1024, inc, same, cacheSize, size>>20, float64(size)/float64(n)/(1<<20), files, largest)
		if *hugo {
			fmt.Fprintf(stderr, "scale: %d runs: hugo\n", n)
			_, _, htmlSize, pages, _, err := htmlStats(out)
			if err != nil {
				return err
			}
			h, err := hugoBuild(*dir, pages, htmlSize, *reps)
			if err != nil {
				return err
			}
			// Ours is timed on the whole build (data files too) but
			// counted in HTML pages only, as hugo's.
			ours := rate{name: "this generator", wall: b.wall, cpu: b.cpu, files: pages, size: htmlSize}
			vs = append(vs, [2]rate{ours, h})
		}
	}
	if len(vs) > 0 {
		fmt.Fprintln(stdout, "\n| HTML pages | generator | wall | CPU | HTML | pages/s | MB/s |")
		fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
		for _, pair := range vs {
			for _, r := range pair {
				fmt.Fprintf(stdout, "| %d | %s | %.1f s | %.1f s | %d MB | %.0f | %.1f |\n", r.files, r.name, r.wall.Seconds(), r.cpu.Seconds(),
					r.size>>20, float64(r.files)/r.wall.Seconds(), float64(r.size)/1e6/r.wall.Seconds())
			}
		}
	}
	return nil
}

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
// build's (clean); and returns the cache's size after them.
func incremental(bin, dir, all string, ids []string, clean string) (added, same usage, cacheSize int64, err error) {
	cacheDir := filepath.Join(dir, "cache")
	runs := filepath.Join(dir, "runs-inc")
	out := filepath.Join(dir, "site-inc")
	for _, p := range []string{cacheDir, out} {
		if err := os.RemoveAll(p); err != nil {
			return usage{}, usage{}, 0, err
		}
	}
	build := filepath.Join(bin, "build")
	if err := linkRuns(all, runs, ids[:len(ids)-1]); err != nil {
		return usage{}, usage{}, 0, err
	}
	if _, err := measure(build, "-runs", runs, "-o", out, "-q", "-cache", cacheDir); err != nil {
		return usage{}, usage{}, 0, err
	}
	if err := linkRuns(all, runs, ids); err != nil {
		return usage{}, usage{}, 0, err
	}
	for _, u := range []*usage{&added, &same} {
		if err := syncDisks(); err != nil {
			return usage{}, usage{}, 0, err
		}
		if *u, err = measure(build, "-runs", runs, "-o", out, "-q", "-cache", cacheDir); err != nil {
			return usage{}, usage{}, 0, err
		}
		if diff, err := exec.Command("diff", "-r", "-q", clean, out).CombinedOutput(); err != nil {
			return usage{}, usage{}, 0, fmt.Errorf("the cached rebuild is not the clean build: %v\n%s", err, diff)
		}
	}
	cacheSize, _, _, err = outputStats(cacheDir)
	return added, same, cacheSize, err
}

// best runs f reps times, each after the disks have caught up with the
// writes before it, and keeps the fastest (its CPU time; the largest
// resident memory of all).
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
		rss := max(b.rssKB, u.rssKB)
		if i == 0 || u.wall < b.wall {
			b = u
		}
		b.rssKB = rss
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
// (sha256sum), and the built output copied (cp -r).
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
	start := time.Now()
	for _, f := range scored {
		cmd := "sha256sum " + shellQuote(f) + " >/dev/null"
		if strings.HasSuffix(f, ".gz") {
			cmd += " && gzip -dc " + shellQuote(f) + " | sha256sum >/dev/null"
		}
		if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%s: %v: %s", cmd, err, out)
		}
	}
	if out, err := exec.Command("cp", "-r", site, copyTo).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("cp -r: %v: %s", err, out)
	}
	return time.Since(start), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// outputStats is the size and file count of a built site and its three
// largest files.
func outputStats(site string) (size int64, files int, largest string, err error) {
	size, files, _, _, largest, err = htmlStats(site)
	return
}

// htmlStats is outputStats with the count and size of the HTML pages
// among the files.
func htmlStats(site string) (size int64, files int, htmlSize int64, pages int, largest string, err error) {
	type f struct {
		path string
		size int64
	}
	var all []f
	err = filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		all = append(all, f{filepath.ToSlash(rel), info.Size()})
		size += info.Size()
		if strings.HasSuffix(p, ".html") {
			htmlSize += info.Size()
			pages++
		}
		return nil
	})
	sort.Slice(all, func(i, j int) bool {
		return all[i].size > all[j].size || all[i].size == all[j].size && all[i].path < all[j].path
	})
	var top []string
	for _, x := range all[:min(3, len(all))] {
		top = append(top, fmt.Sprintf("%s %d KB", x.path, x.size>>10))
	}
	return size, len(all), htmlSize, pages, strings.Join(top, ", "), err
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
	_, _, hsize, hfiles, _, err := htmlStats(out)
	if err != nil {
		return rate{}, err
	}
	v, _ := exec.Command("hugo", "version").Output()
	name := "hugo " + strings.Fields(string(v) + " ? ?")[1]
	return rate{name: name, wall: u.wall, cpu: u.cpu, files: hfiles, size: hsize}, nil
}
