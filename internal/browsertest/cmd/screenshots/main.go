// Command screenshots builds the site from the repository's committed
// inputs and writes full-page PNG screenshots of its main pages, at 1280
// and 375 px wide and in light and dark mode, for a person to look at.
//
//	go run ./internal/browsertest/cmd/screenshots [-o screenshots] [-site DIR]
//
// With -readme DIR it also writes the small pictures the README shows: the
// first screen of a few pages, scaled down, as WebP. `make screenshots`
// runs it with -readme .github/screenshots. It needs Debian's chromium.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/discrimeval/leaderboard/internal/browsertest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

// maxHeight caps a picture's height (CSS pixels): a prompt page of 135
// variants is tens of thousands of pixels tall.
const maxHeight = 6000

// readmeShots are the README's pictures: the first screen of a page at a
// window size and colour scheme, scaled by scale.
var readmeShots = []struct {
	name, page    string
	width, height int64
	scheme        string
	scale         float64
}{
	{"leaderboard-1280-light", "index.html", 1280, 800, "light", 0.5},
	{"leaderboard-375-dark", "index.html", 375, 667, "dark", 0.75},
	{"scenario-1280-light", "scenario", 1280, 800, "light", 0.5},
	{"compare-1280-dark", "compare", 1280, 800, "dark", 0.5},
	{"transcript-1280-light", "transcript", 1280, 800, "light", 0.5},
}

// screenShot captures the first screen, width × height, scaled, as WebP.
func screenShot(width, height, scale float64) chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		quality := int64(80)
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:  page.CaptureScreenshotFormatWebp,
			Quality: &quality,
			Clip:    &page.Viewport{Width: width, Height: height, Scale: scale},
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

// pageShot captures the page from its top, the width of the window and
// the height of the page up to max, as PNG.
func pageShot(width, max float64) chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		h := m.CSSContentSize.Height
		if h > max {
			h = max
		}
		beyond, surface := true, true
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{Width: width, Height: h, Scale: 1},
			CaptureBeyondViewport: &beyond,
			FromSurface:           &surface,
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

func run() error {
	out := flag.String("o", "screenshots", "folder to write the PNG files into")
	siteDir := flag.String("site", "", "a built site to take the pictures of (default: build one from the repository into a temporary folder)")
	repo := flag.String("repo", ".", "the repository root, for building the site")
	readme := flag.String("readme", "", "also write the README's small pictures into this folder")
	flag.Parse()

	dir, done, err := browsertest.BuiltSite(*siteDir, *repo)
	if err != nil {
		return err
	}
	defer done()
	*siteDir = dir
	p, err := browsertest.FindPages(*siteDir)
	if err != nil {
		return err
	}
	pages := []struct{ name, path string }{
		{"leaderboard", "index.html"},
		{"board-implicit-race", "board/implicit-race.html"},
		{"pairwise", "board/explicit-race-pairwise.html"},
		{"not-found", "404.html"},
		{"run-not-ranked", "runs/elder-3b-explicit/index.html"},
		{"run", p.Run},
		{"scenarios", "runs/" + p.RunID + "/scenarios.html"},
		{"scenario", p.Scenario},
		{"prompt", p.Prompt},
		{"compare", p.Compare},
		{"transcripts-hub", "transcripts.html"},
		{"transcript", p.Transcripts},
		{"prompt-index", strings.TrimSuffix(p.Prompt, "/"+p.Q+".html") + "/index.html"},
		{"benchmark", "benchmark.html"},
		{"methodology", "methodology.html"},
		{"mitigation", "mitigation.html"},
		{"rubric", "rubric.html"},
		{"provenance", "provenance.html"},
		{"run-provenance", "runs/" + p.RunID + "/provenance.html"},
		{"changes", "changes.html"},
		{"about", "pages/about.html"},
		{"downloads", "downloads.html"},
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx, cancel, err := browsertest.StartBrowser(context.Background(), 1280, 900)
	if err != nil {
		return err
	}
	defer cancel()
	n := 0
	for _, mode := range []struct {
		width  int64
		scheme string
	}{{1280, "light"}, {375, "light"}, {1280, "dark"}, {375, "dark"}} {
		if err := func() error {
			tab, cancel := chromedp.NewContext(ctx)
			defer cancel()
			if err := chromedp.Do(tab); err != nil {
				return err
			}
			tctx, cancelT := context.WithTimeout(tab, 5*time.Minute)
			defer cancelT()
			if err := browsertest.Emulate(tctx, mode.width, 900, mode.scheme); err != nil {
				return err
			}
			for _, pg := range pages {
				if pg.path == "" {
					continue
				}
				if _, err := os.Stat(filepath.Join(*siteDir, filepath.FromSlash(pg.path))); err != nil {
					continue // a page type this site does not have (yet)
				}
				if err := chromedp.Do(tctx, chromedp.Navigate(browsertest.FileURL(*siteDir, pg.path))); err != nil {
					return fmt.Errorf("%s: %w", pg.path, err)
				}
				png, err := chromedp.Run(tctx, pageShot(float64(mode.width), maxHeight))
				if err != nil {
					return fmt.Errorf("%s: %w", pg.path, err)
				}
				name := fmt.Sprintf("%s-%d-%s.png", pg.name, mode.width, mode.scheme)
				if err := os.WriteFile(filepath.Join(*out, name), png, 0o644); err != nil {
					return err
				}
				n++
			}
			return nil
		}(); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d screenshots to %s\n", n, *out)
	if *readme != "" {
		named := map[string]string{"scenario": p.Scenario, "compare": p.Compare, "transcript": p.Transcripts}
		if err := os.MkdirAll(*readme, 0o755); err != nil {
			return err
		}
		for _, r := range readmeShots {
			path := r.page
			if named[path] != "" {
				path = named[path]
			}
			if err := readmeShot(ctx, *siteDir, path, filepath.Join(*readme, r.name+".webp"), r.width, r.height, r.scheme, r.scale); err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
		}
		fmt.Printf("wrote %d README pictures to %s\n", len(readmeShots), *readme)
	}
	return nil
}

// readmeShot writes one README picture from a fresh tab.
func readmeShot(ctx context.Context, siteDir, path, file string, width, height int64, scheme string, scale float64) error {
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	tctx, cancelT := context.WithTimeout(tab, time.Minute)
	defer cancelT()
	if err := browsertest.Emulate(tctx, width, height, scheme); err != nil {
		return err
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(browsertest.FileURL(siteDir, path))); err != nil {
		return err
	}
	img, err := chromedp.Run(tctx, screenShot(float64(width), float64(height), scale))
	if err != nil {
		return err
	}
	return os.WriteFile(file, img, 0o644)
}
