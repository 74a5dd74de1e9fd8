package browsertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// repo is the repository root, relative to this package.
const repo = "../.."

// siteDir holds the site built from the repository's committed runs, once
// for the whole test binary.
var siteDir string

func TestMain(m *testing.M) {
	flag.Parse()
	// Chromium's processes count in this process's CPU time (so in
	// /usr/bin/time's and .ci/phase's) only once waited for: stopBrowser
	// closes chromium through the protocol, which waits for its own, and
	// reapOrphans, last, waits for any it left to this process.
	if err := becomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "prctl(PR_SET_CHILD_SUBREAPER):", err)
	}
	code := func() int {
		dir, err := os.MkdirTemp("", "browsertest-site-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		siteDir = filepath.Join(dir, "site")
		start := time.Now()
		if err := BuildSite(repo, nil, siteDir); err != nil {
			fmt.Fprintln(os.Stderr, "building the site:", err)
			return 1
		}
		if testing.Verbose() {
			fmt.Printf("built the site in %v\n", time.Since(start).Round(time.Millisecond))
		}
		defer stopBrowser()
		return m.Run()
	}()
	n, err := reapOrphans()
	if err != nil {
		fmt.Fprintln(os.Stderr, "waiting for chromium's processes:", err)
	}
	if testing.Verbose() && n > 0 {
		fmt.Printf("waited for %d processes chromium left\n", n)
	}
	os.Exit(code)
}

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel func()
	browserErr    error
)

// stopBrowser closes the browser, if it was started, and waits for it.
func stopBrowser() {
	if browserCancel != nil {
		start := time.Now()
		browserCancel()
		if testing.Verbose() {
			fmt.Printf("closed the browser in %v\n", time.Since(start).Round(time.Millisecond))
		}
	}
}

// browser returns the shared headless chromium, started on first use, or
// skips the test when chromium is not installed.
//
// Every test of this package calls t.Parallel: as many run at once as go
// test's -parallel (GOMAXPROCS by default), each in tabs of this one
// browser, over the built sites, which no test writes. A test's failures
// name its pages, so they read the same whatever ran beside it.
func browser(t *testing.T) context.Context {
	t.Helper()
	if Chromium() == "" {
		t.Skip("chromium is not installed: `apt-get install -y chromium` (Debian's package; .ci/run installs it)")
	}
	browserOnce.Do(func() {
		browserCtx, browserCancel, browserErr = StartBrowser(context.Background(), 1280, 900)
	})
	if browserErr != nil {
		t.Fatal(browserErr)
	}
	return browserCtx
}

// tab is one browser tab, with what the page did that a test checks on
// every page: console errors, uncaught exceptions, requests that did not
// go to a file:// URL, and dialogs (alert, confirm, prompt), which are
// dismissed.
//
// Tabs are lent to tests (newTab) and kept, when a test is done with its
// tab, for the next: a new tab costs more CPU than loading a page in one
// (a window, a renderer process), and a tab holds nothing of its last
// page but its viewport, which the next test sets. At most one tab is
// open for each test running at once.
type tab struct {
	ctx    context.Context // the tab, without a deadline
	cancel func()          // closes the tab

	// owner is the test the tab is lent to, until it ends; nil while it
	// is not lent.
	owner *testing.T

	mu sync.Mutex
	// t is the test the tab reports to: owner, or a subtest of it
	// (reportTo); nil while it is not lent.
	t *testing.T
	// The viewport and colour scheme set.
	width, height int64
	scheme        string
	// page is the page open; busy is what the tab waits on chromium for,
	// and since when ("" when idle), for the progress lines of watch.
	page     string
	busy     string
	since    time.Time
	errors   []string
	requests []string
	dialogs  []string
}

// stillWaiting is how often a tab that is waiting on chromium says so, and
// for which page. It is a progress line, not a deadline: no test fails for
// taking long (a busy 2-core machine can take many times longer than an
// idle one). A page that hangs is ended by go test's -timeout, and these
// lines name it.
const stillWaiting = time.Minute

// idleTabs are the tabs no test is using.
var idleTabs struct {
	sync.Mutex
	tabs []*tab
}

// newTab lends t a tab with a viewport of the given size (CSS pixels) and
// colour scheme ("light" or "dark") until t ends: a tab another test has
// given back, or a new one.
func newTab(t *testing.T, width, height int64, scheme string) *tab {
	t.Helper()
	ctx := browser(t)
	idleTabs.Lock()
	var tb *tab
	if n := len(idleTabs.tabs); n > 0 {
		tb = idleTabs.tabs[n-1]
		idleTabs.tabs = idleTabs.tabs[:n-1]
	}
	idleTabs.Unlock()
	if tb == nil {
		tb = openTab(t, ctx)
	}
	t.Cleanup(func() { tb.giveBack() })
	tb.lend(t)
	tb.emulate(width, height, scheme)
	return tb
}

// openTab opens a new tab, reporting to t, with focus emulation on.
func openTab(t *testing.T, browser context.Context) *tab {
	t.Helper()
	tb := &tab{t: t, page: "a new tab"}
	var dismiss func()
	tctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(func(ev any) {
		// Runs in the tab's event loop: record and return, no commands.
		tb.mu.Lock()
		defer tb.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range ev.Args {
					if a.Value != nil {
						parts = append(parts, string(a.Value))
					} else {
						parts = append(parts, a.Description)
					}
				}
				tb.errors = append(tb.errors, "console."+string(ev.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			tb.errors = append(tb.errors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				tb.errors = append(tb.errors, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			if !strings.HasPrefix(ev.Request.URL, "file://") {
				tb.requests = append(tb.requests, ev.Request.URL)
			}
		case *page.EventJavascriptDialogOpening:
			tb.dialogs = append(tb.dialogs, string(ev.Type)+": "+ev.Message)
			go dismiss()
		}
	}))
	dismiss = func() {
		chromedp.Call(tctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	}
	tb.ctx, tb.cancel = tctx, cancel
	go tb.watch()
	tb.run("opening the tab", func() error {
		if err := chromedp.Do(tctx); err != nil {
			return err
		}
		// Tabs run side by side (t.Parallel): each acts as the focused
		// page, as a reader's one window is, for :focus-visible and focus
		// events (TestKeyboard).
		_, err := chromedp.Call(tctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	return tb
}

// lend makes the tab report to t, forgetting what its last page did.
func (tb *tab) lend(t *testing.T) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.owner, tb.t = t, t
	tb.errors, tb.requests, tb.dialogs = nil, nil, nil
}

// reportTo makes the tab report to t, a subtest of its owner, or the owner
// again.
func (tb *tab) reportTo(t *testing.T) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.t = t
}

// emulate sets the tab's viewport and colour scheme, unless they are set.
func (tb *tab) emulate(width, height int64, scheme string) {
	tb.t.Helper()
	if tb.width == width && tb.height == height && tb.scheme == scheme {
		return
	}
	tb.run(fmt.Sprintf("setting the viewport to %dx%d %s", width, height, scheme), func() error {
		return Emulate(tb.ctx, width, height, scheme)
	})
	tb.width, tb.height, tb.scheme = width, height, scheme
}

// giveBack keeps the tab for the next test, or closes it if its test
// failed (a tab that failed a command may be broken).
func (tb *tab) giveBack() {
	tb.mu.Lock()
	failed := tb.owner.Failed()
	tb.owner, tb.t = nil, nil
	tb.mu.Unlock()
	if failed {
		tb.cancel()
		return
	}
	idleTabs.Lock()
	idleTabs.tabs = append(idleTabs.tabs, tb)
	idleTabs.Unlock()
}

// watch writes a progress line on the test the tab is lent to every
// stillWaiting while it waits on chromium, until the tab closes.
func (tb *tab) watch() {
	tick := time.NewTicker(stillWaiting)
	defer tick.Stop()
	for {
		select {
		case <-tb.ctx.Done():
			return
		case <-tick.C:
			// Under the lock: giveBack, which its test's clean-up runs,
			// cannot return while the line is written.
			tb.mu.Lock()
			if d := time.Since(tb.since); tb.t != nil && tb.busy != "" && d >= stillWaiting {
				tb.t.Logf("%s: %s: still waiting on chromium after %v", tb.page, tb.busy, d.Round(time.Second))
			}
			tb.mu.Unlock()
		}
	}
}

// run runs f, an exchange with chromium on the page open, as what, and
// fails the test, naming the page, on its error.
func (tb *tab) run(what string, f func() error) {
	tb.t.Helper()
	tb.mu.Lock()
	tb.busy, tb.since = what, time.Now()
	tb.mu.Unlock()
	err := f()
	tb.mu.Lock()
	tb.busy = ""
	page := tb.page
	tb.mu.Unlock()
	if err != nil {
		tb.t.Fatalf("%s: %s: %v", page, what, err)
	}
}

// do runs actions, failing the test on an error.
func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	tb.run("browser action", func() error { return chromedp.Do(tb.ctx, actions...) })
}

// open loads a page of the site in dir (a path relative to the site root,
// optionally with a #fragment) and waits for its load event.
func (tb *tab) open(dir, page string) {
	tb.t.Helper()
	tb.mu.Lock()
	tb.page = page
	tb.mu.Unlock()
	start := time.Now()
	tb.run("opening the page", func() error { return chromedp.Do(tb.ctx, chromedp.Navigate(FileURL(dir, page))) })
	tb.t.Logf("opened %s (%v)", page, time.Since(start).Round(time.Millisecond))
}

// eval evaluates a JavaScript expression and decodes its value into T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	var v T
	tb.run(fmt.Sprintf("evaluating %.80s…", expr), func() error {
		var err error
		v, err = chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
		return err
	})
	return v
}

// clickAndLoad clicks the element the CSS selector finds and waits for the
// new page's load event.
func (tb *tab) clickAndLoad(sel string) {
	tb.t.Helper()
	tb.run("clicking "+sel, func() error {
		_, err := chromedp.Run(tb.ctx, chromedp.WaitEvent(page.LoadEventFired, nil,
			chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)))
		return err
	})
}

// clickHash clicks the element the CSS selector finds, a link to another
// fragment of the page, and waits for the page's hashchange listeners:
// the event comes after the click, in a task of its own.
func (tb *tab) clickHash(sel string) {
	tb.t.Helper()
	// Added after the page's own listeners, this one runs after them.
	eval[bool](tb, `(window.__hashchanged = new Promise(r => addEventListener("hashchange", () => r(true), {once: true})), true)`)
	tb.do(clickCSS(sel))
	eval[bool](tb, `window.__hashchanged`)
}

// setHash sets the page's address to another fragment, as a reader
// editing it would, and waits for the page's hashchange listeners.
func (tb *tab) setHash(hash string) {
	tb.t.Helper()
	eval[bool](tb, `new Promise(r => { addEventListener("hashchange", () => r(true), {once: true}); location.hash = `+strconv.Quote(hash)+`; })`)
}

// checkClean fails the test for any console error, uncaught exception,
// request that left file://, or dialog seen so far.
func (tb *tab) checkClean(what string) {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errors {
		tb.t.Errorf("%s: %s", what, e)
	}
	for _, r := range tb.requests {
		tb.t.Errorf("%s: a request left file://: %s", what, r)
	}
	for _, d := range tb.dialogs {
		tb.t.Errorf("%s: a dialog opened: %s", what, d)
	}
	tb.errors, tb.requests, tb.dialogs = nil, nil, nil
}

func clickCSS(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)
}

func focusCSS(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Focus(chromedp.CSS(sel), chromedp.NodeVisible)
}

func chromeSendKeys(sel, keys string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), keys, chromedp.NodeVisible)
}

// key types keys into the focused element.
func key(keys string) chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(keys) }

var (
	pagesOnce sync.Once
	thePages  Pages
	pagesErr  error
)

// sitePages finds the pages the tests visit in the site built from the
// committed runs.
func sitePages(t *testing.T) Pages {
	t.Helper()
	pagesOnce.Do(func() { thePages, pagesErr = FindPages(siteDir) })
	if pagesErr != nil {
		t.Fatal(pagesErr)
	}
	return thePages
}

// existing returns the pages, once each, that the site built from the
// committed runs has.
func existing(pages ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, page := range pages {
		if page == "" || seen[page] {
			continue
		}
		seen[page] = true
		file, _, _ := strings.Cut(page, "#") // a page opened at a fragment
		if _, err := os.Stat(filepath.Join(siteDir, filepath.FromSlash(file))); err == nil {
			out = append(out, page)
		}
	}
	return out
}
