package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The budgets a built site is held to: no file over 500 KB at any size
// (the pages that list every run, paginated), and, from 1,000 runs, at
// most 0.75 MB a run, the runs' files linked (at 1,000 runs their copies
// would pass GitHub Pages' 1 GB, the builds' pages_budget): the pages
// alone of 1,000 runs fit with room (below that the site's fixed part,
// about 20 MB, is a large share of each run's). Sizes are in 10⁶ bytes
// (MB) and 10³ bytes (KB), as the budgets are.
const (
	fileBudget   = 500_000
	perRunBudget = 750_000
	perRunFrom   = 1000
)

// runsURL is where every build links the runs' files once their copies
// would pass its budget: an address as long as the one the Pages
// workflow gives (the repository's raw files at a commit).
const runsURL = "https://raw.githubusercontent.com/discrimeval/leaderboard/0123456789abcdef0123456789abcdef01234567/runs/"

// sizes parses -n and -tries: the numbers of runs, ascending, each with
// the number of tries of its timed steps. tries is one number for every
// size, or one a size in the order of -n.
func sizes(n, tries string) ([]size, error) {
	var ss []size
	for _, s := range strings.Split(n, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("-n %q: want positive whole numbers, comma-separated", s)
		}
		ss = append(ss, size{runs: k})
	}
	ts := strings.Split(tries, ",")
	if len(ts) != 1 && len(ts) != len(ss) {
		return nil, fmt.Errorf("-tries %q: want one number, or one for each of the %d sizes of -n", tries, len(ss))
	}
	for i := range ss {
		t := ts[0]
		if len(ts) > 1 {
			t = ts[i]
		}
		k, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("-tries %q: want positive whole numbers, comma-separated", t)
		}
		ss[i].tries = k
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].runs < ss[j].runs })
	for i := 1; i < len(ss); i++ {
		if ss[i].runs == ss[i-1].runs {
			return nil, fmt.Errorf("-n: %d runs given twice", ss[i].runs)
		}
	}
	return ss, nil
}

// size is one number of runs to measure, and how many tries each timed
// step gets (the fastest kept).
type size struct{ runs, tries int }

// siteFile is one file of a built site: its path in the site and size.
type siteFile struct {
	path string
	size int64
}

// siteStats is what the table shows of a built site.
type siteStats struct {
	size, html int64
	files      []siteFile // largest first, then by path
	pages      int        // HTML files
}

// statSite walks a built site.
func statSite(site string) (siteStats, error) {
	var st siteStats
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(site, p)
		if err != nil {
			return err
		}
		st.files = append(st.files, siteFile{filepath.ToSlash(rel), info.Size()})
		st.size += info.Size()
		if strings.HasSuffix(p, ".html") {
			st.html += info.Size()
			st.pages++
		}
		return nil
	})
	sort.Slice(st.files, func(i, j int) bool {
		a, b := st.files[i], st.files[j]
		return a.size > b.size || a.size == b.size && a.path < b.path
	})
	return st, err
}

// overBudget lists, one message each, the site's files over the file
// budget and, from perRunFrom runs, a size a run over the per-run budget.
func overBudget(runs int, st siteStats) []string {
	var msgs []string
	for _, f := range st.files {
		if f.size <= fileBudget {
			break // largest first
		}
		msgs = append(msgs, fmt.Sprintf("%d runs: %s is %s bytes, over the budget of %s bytes a file", runs, f.path, group(f.size), group(fileBudget)))
	}
	if per := st.size / int64(runs); per > perRunBudget && runs >= perRunFrom {
		msgs = append(msgs, fmt.Sprintf("%d runs: the site is %s bytes, %s a run, over the budget of %s bytes a run", runs, group(st.size), group(per), group(perRunBudget)))
	}
	return msgs
}

// group writes n with thousands separated by commas.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// row is one size's measurements, a row of the table.
type row struct {
	runs          int
	floor         time.Duration
	build, verify usage
	cold          usage // the first build with an empty cache
	added, same   usage // cached rebuilds; zero wall when not measured
	cache         int64
	site          siteStats
	hugo          *rate // nil without -hugo, or when hugo failed
	// hugoFailed is why hugo did not finish (hugo 0.111 ran out of 24 GB
	// of memory on the pages of 1,000 runs): the row keeps the other
	// measurements and says so in hugo's column.
	hugoFailed string
	// hugoOver is -hugo-max when the row has more runs than that, and
	// hugo was not run.
	hugoOver int
}

// header is the table's head, Markdown.
const header = "| runs | floor | build | build ÷ floor | CPU | peak RSS | first build, cached | verify | site | per run | files | largest file | over 500 KB | +1 run, cached | nothing changed, cached | cache | hugo, same pages |\n" +
	"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"

// markdown is the row as a line of the table.
func (r row) markdown() string {
	secs := func(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
	// A cached build against the clean build, wall and CPU.
	cached := func(u usage) string {
		if u.wall == 0 {
			return "–"
		}
		return fmt.Sprintf("%s (%.0f%%), %s CPU (%.0f%%)", secs(u.wall), 100*u.wall.Seconds()/r.build.wall.Seconds(), secs(u.cpu), 100*u.cpu.Seconds()/r.build.cpu.Seconds())
	}
	cold := "–"
	if r.cold.wall != 0 {
		cold = fmt.Sprintf("%s (%.2f×), %s CPU (%.2f×), %d MB", secs(r.cold.wall), r.cold.wall.Seconds()/r.build.wall.Seconds(), secs(r.cold.cpu), r.cold.cpu.Seconds()/r.build.cpu.Seconds(), rssMB(r.cold.rssKB))
	}
	cache, largest, hugo := "–", "–", "–"
	if r.added.wall != 0 {
		cache = mb(r.cache)
	}
	if len(r.site.files) > 0 {
		largest = fmt.Sprintf("%s %d KB", r.site.files[0].path, (r.site.files[0].size+500)/1000)
	}
	over := 0
	for _, f := range r.site.files {
		if f.size > fileBudget {
			over++
		}
	}
	if r.hugoFailed != "" {
		hugo = "failed: " + r.hugoFailed
	}
	if r.hugoOver > 0 {
		hugo = fmt.Sprintf("not run: over -hugo-max %d runs", r.hugoOver)
	}
	if r.hugo != nil {
		hugo = fmt.Sprintf("%s (%.2f×)", secs(r.hugo.wall), r.build.wall.Seconds()/r.hugo.wall.Seconds())
	}
	ratio := "–"
	if r.floor > 0 {
		ratio = fmt.Sprintf("%.1f×", r.build.wall.Seconds()/r.floor.Seconds())
	}
	return fmt.Sprintf("| %d | %s | %s | %s | %s | %d MB | %s | %s (%.2f×), %d MB | %s | %.2f MB | %d | %s | %d | %s | %s | %s | %s |\n",
		r.runs, secs(r.floor), secs(r.build.wall), ratio, secs(r.build.cpu), rssMB(r.build.rssKB), cold,
		secs(r.verify.wall), r.verify.wall.Seconds()/r.build.wall.Seconds(), rssMB(r.verify.rssKB),
		mb(r.site.size), float64(r.site.size)/float64(r.runs)/1e6, len(r.site.files), largest, over,
		cached(r.added), cached(r.same), cache, hugo)
}

// mb is a size in MB (10⁶ bytes).
func mb(n int64) string { return fmt.Sprintf("%d MB", (n+500_000)/1_000_000) }

// rssMB is getrusage's maximum resident set (KiB) in MB (10⁶ bytes).
func rssMB(kib int64) int64 { return (kib*1024 + 500_000) / 1_000_000 }

// hugoHeader and hugoRows are the table of this generator and hugo
// building as many pages of the same mean size.
const hugoHeader = "| HTML pages | generator | wall | CPU | HTML | pages/s | MB/s |\n|---|---|---|---|---|---|---|\n"

func (r rate) markdown() string {
	return fmt.Sprintf("| %d | %s | %.1f s | %.1f s | %s | %.0f | %.1f |\n", r.files, r.name, r.wall.Seconds(), r.cpu.Seconds(),
		mb(r.size), float64(r.files)/r.wall.Seconds(), float64(r.size)/1e6/r.wall.Seconds())
}
