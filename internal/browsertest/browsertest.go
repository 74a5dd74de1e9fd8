// Package browsertest holds the real-browser and validator tests of the
// generated site: headless Chromium driven with chromedp over pages opened
// from file://, axe-core injected into pages, and the Nu Html Checker.
// This file has the few helpers the tests and cmd/screenshots share:
// building a site into a folder and starting Debian's chromium.
//
// The tools come from outside Go: chromium from Debian (`apt-get install
// chromium`), java for the Nu Html Checker, and axe-core and vnu-jar from
// npm (`npm ci --prefix .ci`, into .ci/node_modules). `.ci/run` installs
// them all; a test whose tool is missing is skipped with a message saying
// how to get it.
package browsertest

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/discrimeval/leaderboard/internal/site"
)

// BuildSite builds the site from the repository's content and methodology
// and the given runs folder (the repository's own when runs is nil) into
// out; each option, if any, changes the configuration before the build.
func BuildSite(repo string, runs fs.FS, out string, options ...func(*site.Config)) error {
	md, err := os.ReadFile(filepath.Join(repo, "METHODOLOGY.md"))
	if err != nil {
		return err
	}
	if runs == nil {
		runs = os.DirFS(filepath.Join(repo, "runs"))
	}
	cfg := site.Config{
		Content:     os.DirFS(filepath.Join(repo, "content")),
		Runs:        runs,
		Methodology: md,
		Version:     "test",
	}
	for _, o := range options {
		o(&cfg)
	}
	return site.Build(cfg, out, site.WriteOptions{})
}

// BuiltSite is dir when it names a built site; otherwise it builds the
// site of the repository at repo into a temporary folder and returns that
// folder, with a function that removes it.
func BuiltSite(dir, repo string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "browsertest-site-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(tmp) }
	dir = filepath.Join(tmp, "site")
	if err := BuildSite(repo, nil, dir); err != nil {
		done()
		return "", nil, fmt.Errorf("building the site: %w", err)
	}
	return dir, done, nil
}

// Chromium returns the path of Debian's chromium, or "" when it is not
// installed.
func Chromium() string {
	if st, err := os.Stat("/usr/bin/chromium"); err == nil && !st.IsDir() {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// Flags are the command-line flags chromium is started with: headless, no
// GPU, and nothing that would talk to the network by itself (QUIC,
// background networking, component updates, sync), so that any request the
// tests see comes from the page. Tabs open side by side are not treated
// as in the background (timers slowed to one a second, animation frames
// stopped): the tests run pages in several tabs at once.
//
// Nor does a tab make the address bar's suggestion popups: headless
// chromium 156 gives every new window two of them, WebUI pages of its own
// (chrome://omnibox-popup.top-chrome/) that nothing ever shows, which
// cost about 1 CPU-second a tab, several times a page's load (measured
// with the processes' CPU in /proc before and 8 s after a new tab:
// 1.2-1.4 CPU-s with them, 0.2-0.3 without).
//
// Nor does a tab make a new document host for every page it loads
// (RenderDocument: a new frame host, and its renderer-side state, for
// each navigation across documents, where the tests load hundreds of
// pages one after the other in the same few tabs): the pages load and run
// the same; 42 loads of the committed site's pages in two tabs,
// alternately, 7.4, 9.6, 12.7, 11.9 CPU-s with it, 6.3, 8.7, 9.6, 10.2
// without (the browser's whole process tree, load 7-17).
var Flags = []chromedp.ExecAllocatorOption{
	chromedp.Headless,
	chromedp.NoSandbox,
	chromedp.DisableGPU,
	chromedp.NoFirstRun,
	chromedp.NoDefaultBrowserCheck,
	chromedp.Flag("disable-quic", true),
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true),
	chromedp.Flag("disable-dev-shm-usage", true),
	chromedp.Flag("disable-background-timer-throttling", true),
	chromedp.Flag("disable-backgrounding-occluded-windows", true),
	chromedp.Flag("disable-renderer-backgrounding", true),
	chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup,RenderDocument"),
}

// StartBrowser starts chromium with Flags, a fresh profile folder and the
// given window size, and returns a chromedp context whose browser is
// running. cancel closes the browser through the protocol (chromedp.Cancel:
// chromium ends its renderer, GPU and zygote processes and waits for them,
// so that their CPU time is counted in the process that started it, as
// killing it would not), waits for it to exit and removes the profile.
func StartBrowser(parent context.Context, width, height int) (ctx context.Context, cancel func(), err error) {
	path := Chromium()
	if path == "" {
		return nil, nil, fmt.Errorf("chromium is not installed (apt-get install chromium)")
	}
	profile, err := os.MkdirTemp("", "browsertest-profile-")
	if err != nil {
		return nil, nil, err
	}
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(width, height),
	}, Flags...)
	actx, acancel := chromedp.NewExecAllocator(parent, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	cancel = func() {
		// A browser that does not close is ended by go test's -timeout.
		chromedp.Cancel(bctx)
		bcancel()
		acancel()
		os.RemoveAll(profile)
	}
	// The first Do starts the browser; it is bound to bctx, which has no
	// deadline, so per-test timeouts do not close it.
	if err := chromedp.Do(bctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return bctx, cancel, nil
}

// Emulate sets a tab's viewport (CSS pixels) and colour scheme ("light" or
// "dark", for prefers-color-scheme).
func Emulate(ctx context.Context, width, height int64, scheme string) error {
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
	return err
}

// FileURL is the file:// URL of a page of a site built into dir; page is
// slash-separated and may carry a "?query" and a "#fragment".
func FileURL(dir, page string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	page, frag, hasFrag := strings.Cut(page, "#")
	page, query, hasQuery := strings.Cut(page, "?")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(abs, filepath.FromSlash(page))), RawQuery: query, ForceQuery: hasQuery}
	if hasFrag {
		return u.String() + "#" + frag
	}
	return u.String()
}

// Pages are pages of a built site that the tests and the screenshots
// visit, found from the site itself so that they follow the runs it was
// built from.
type Pages struct {
	Run      string // runs/<id>/index.html of the leaderboard's first run
	RunID    string
	Scenario string // runs/<id>/q<N>.html, its lowest question
	Q        string // "q<N>"
	// The question's prompt page and the page comparing every run on it.
	Prompt, Compare string
	// A transcript page of any run that stored transcripts, or "".
	Transcripts string
}

// FindPages finds Pages in the site built into dir.
func FindPages(dir string) (Pages, error) {
	var p Pages
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return p, err
	}
	m := regexp.MustCompile(`href="?runs/([a-z0-9._-]+)/index\.html`).FindSubmatch(index)
	if m == nil {
		return p, fmt.Errorf("index.html links to no run")
	}
	p.RunID = string(m[1])
	p.Run = "runs/" + p.RunID + "/index.html"
	qs, err := filepath.Glob(filepath.Join(dir, "runs", p.RunID, "q*.html"))
	if err != nil {
		return p, err
	}
	re := regexp.MustCompile(`^q(\d+)\.html$`)
	var nums []int
	for _, q := range qs {
		if m := re.FindStringSubmatch(filepath.Base(q)); m != nil {
			var n int
			fmt.Sscan(m[1], &n)
			nums = append(nums, n)
		}
	}
	if len(nums) == 0 {
		return p, fmt.Errorf("run %s has no scenario pages", p.RunID)
	}
	sort.Ints(nums)
	p.Q = fmt.Sprintf("q%d", nums[0])
	p.Scenario = "runs/" + p.RunID + "/" + p.Q + ".html"
	scen, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p.Scenario)))
	if err != nil {
		return p, err
	}
	for _, f := range []struct {
		dst *string
		re  string
	}{
		{&p.Prompt, `href="?\.\./\.\./(prompts/[a-z]+/` + p.Q + `\.html)`},
		{&p.Compare, `href="?\.\./\.\./(compare/[a-z]+/` + p.Q + `\.html)`},
	} {
		if m := regexp.MustCompile(f.re).FindSubmatch(scen); m != nil {
			*f.dst = string(m[1])
		}
	}
	// Transcripts are stored by some runs only: take the first page found.
	tr, err := filepath.Glob(filepath.Join(dir, "runs", "*", "q*-transcripts.html"))
	if err != nil {
		return p, err
	}
	if len(tr) > 0 {
		sort.Strings(tr)
		rel, _ := filepath.Rel(dir, tr[0])
		p.Transcripts = filepath.ToSlash(rel)
	}
	if p.Prompt == "" || p.Compare == "" {
		return p, fmt.Errorf("%s links to no prompt page or no comparison page", p.Scenario)
	}
	return p, nil
}
