// Command pagefigures prints how much a reader meets on the site's pages:
// for a page of each kind, at 1280 and 375 px, its height, the words and
// tables shown before any <details> is opened, and the table boxes that
// scroll sideways; and, over every page, the explanatory paragraphs that
// stand on many pages, the columns of numbers that name no unit and the
// spellings of a difference in P(yes).
//
//	go run ./internal/browsertest/cmd/pagefigures [-site DIR] [-page PATH]...
//
// It builds the site from the repository's committed inputs unless -site
// names a built one. The figures are those the issue of the answer-first
// pages was measured with; the tests hold the limits (internal/crawl's
// reading checks, TestPages in internal/browsertest). It needs Debian's
// chromium.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/discrimeval/leaderboard/internal/browsertest"
	"github.com/discrimeval/leaderboard/internal/crawl"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pagefigures:", err)
		os.Exit(1)
	}
}

type pagesFlag []string

func (p *pagesFlag) String() string     { return strings.Join(*p, ",") }
func (p *pagesFlag) Set(s string) error { *p = append(*p, s); return nil }

// figures is what the browser measures of a page at one width.
type figures struct {
	Height int      `json:"height"`
	Words  int      `json:"words"`
	Tables int      `json:"tables"`
	Scroll []string `json:"scroll"`
}

// measureJS measures the page as shown: innerText leaves out what a
// closed <details> hides, and checkVisibility a table in one (its
// content is content-visibility: hidden, which keeps a layout box).
const measureJS = `(() => {
	const words = document.body.innerText.split(/\s+/).filter(w => /[\p{L}\p{N}]/u.test(w)).length;
	const shown = el => el.getClientRects().length > 0 && (!el.checkVisibility || el.checkVisibility({contentVisibilityAuto: true}));
	const tables = [...document.querySelectorAll("table")].filter(shown).length;
	const scroll = [];
	for (const el of document.querySelectorAll(".table-wrap")) {
		if (shown(el) && el.scrollWidth > el.clientWidth + 1) {
			const t = el.querySelector("table, svg");
			const what = t && t.caption ? t.caption.textContent.trim().slice(0, 50) : (t ? t.tagName.toLowerCase() : "box");
			scroll.push(what + " (" + el.scrollWidth + " in " + el.clientWidth + ")");
		}
	}
	return {height: document.documentElement.scrollHeight, words, tables, scroll};
})()`

func run() error {
	siteDir := flag.String("site", "", "a built site (default: build one from the repository into a temporary folder)")
	repo := flag.String("repo", ".", "the repository root, for building the site")
	var extra pagesFlag
	flag.Var(&extra, "page", "a page to measure besides one of each kind (repeatable)")
	flag.Parse()

	dir, done, err := browsertest.BuiltSite(*siteDir, *repo)
	if err != nil {
		return err
	}
	defer done()
	*siteDir = dir
	files, err := readSite(*siteDir)
	if err != nil {
		return err
	}
	p, err := browsertest.FindPages(*siteDir)
	if err != nil {
		return err
	}
	pages := []string{"index.html", p.Run, "runs/" + p.RunID + "/scenarios.html", p.Scenario, "runs/" + p.RunID + "/swings.html",
		p.Compare, p.Prompt, "mitigation.html", "board/explicit-groups.html", "benchmark.html", "glossary.html"}
	pages = append(pages, extra...)

	ctx, cancel, err := browsertest.StartBrowser(context.Background(), 1280, 800)
	if err != nil {
		return err
	}
	defer cancel()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "page\twidth\theight px\twords\twords (HTML)\ttables\tboxes scrolling sideways")
	for _, width := range []int64{1280, 375} {
		if err := func() error {
			tab, cancel := chromedp.NewContext(ctx)
			defer cancel()
			tctx, cancelT := context.WithTimeout(tab, 5*time.Minute)
			defer cancelT()
			if err := browsertest.Emulate(tctx, width, 800, "light"); err != nil {
				return err
			}
			for _, pg := range pages {
				if _, ok := files[pg]; !ok {
					continue
				}
				if err := chromedp.Do(tctx, chromedp.Navigate(browsertest.FileURL(*siteDir, pg))); err != nil {
					return fmt.Errorf("%s: %w", pg, err)
				}
				f, err := chromedp.Run(tctx, chromedp.Evaluate[figures](measureJS))
				if err != nil {
					return fmt.Errorf("%s: %w", pg, err)
				}
				scroll := "none"
				if len(f.Scroll) > 0 {
					scroll = strings.Join(f.Scroll, "; ")
				}
				text := crawl.ReadPage(files[pg])
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", pg, width, f.Height, f.Words, text.Words, f.Tables, scroll)
			}
			return nil
		}(); err != nil {
			return err
		}
	}
	tw.Flush()

	fmt.Println()
	r := crawl.Read(files)
	fmt.Printf("explanatory paragraphs of %d words or more on more than %d pages: %d\n", crawl.ExplainWords, crawl.ExplainPages, len(r.Repeated))
	for _, rp := range r.Repeated {
		fmt.Printf("  %4d pages  %s\n", rp.Pages, rp.Text)
	}
	all, noUnit := r.NumberColumns()
	fmt.Printf("table columns of numbers, over every page: %d, of which name no unit (in the header or the caption): %d; headers to fix: %d\n", all, noUnit, len(r.ColumnProblems()))
	for _, p := range r.ColumnProblems() {
		fmt.Println("  " + p)
	}
	fmt.Println("spellings of a difference in P(yes), pages with each:")
	var names []string
	for s := range r.Units {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, s := range names {
		fmt.Printf("  %-12s %d\n", s, r.Units[s])
	}
	return nil
}

// readSite reads every HTML file of a built site.
func readSite(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	return files, err
}
