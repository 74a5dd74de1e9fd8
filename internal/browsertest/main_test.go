package browsertest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
	os.Exit(code)
}

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel func()
	browserErr    error
)

func stopBrowser() {
	if browserCancel != nil {
		browserCancel()
	}
}

// browser returns the shared headless chromium, started on first use, or
// skips the test when chromium is not installed.
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
type tab struct {
	t *testing.T
	// base is the tab, without a deadline; ctx bounds the actions on the
	// current page (see setPage).
	base       context.Context
	ctx        context.Context
	cancelPage context.CancelFunc
	page       string

	mu       sync.Mutex
	errors   []string
	requests []string
	dialogs  []string
}

// pageTimeout bounds the actions on one page. It is generous, since a
// busy 2-core machine can take many times longer than an idle one; when it
// is exceeded the failure names the page. There is no deadline over a
// whole test.
const pageTimeout = 4 * time.Minute

// newTab opens a tab with a viewport of the given size (CSS pixels) and
// colour scheme ("light" or "dark"); it closes when the test ends. The
// actions on each page have pageTimeout.
func newTab(t *testing.T, width, height int64, scheme string) *tab {
	t.Helper()
	tb := &tab{t: t}
	var dismiss func()
	tctx, cancel := chromedp.NewContext(browser(t), chromedp.WithListener(func(ev any) {
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
	t.Cleanup(cancel)
	// Open the tab with no deadline, so that the deadline below bounds the
	// actions and does not close the tab.
	if err := chromedp.Do(tctx); err != nil {
		t.Fatal(err)
	}
	tb.base = tctx
	t.Cleanup(func() {
		if tb.cancelPage != nil {
			tb.cancelPage()
		}
	})
	tb.setPage(fmt.Sprintf("new tab %dx%d %s", width, height, scheme))
	if err := Emulate(tb.ctx, width, height, scheme); err != nil {
		tb.fail("emulating the viewport", err)
	}
	return tb
}

// setPage starts the deadline of the actions on a page, named in errors
// and in the progress lines of go test -v.
func (tb *tab) setPage(name string) {
	if tb.cancelPage != nil {
		tb.cancelPage()
	}
	tb.page = name
	tb.ctx, tb.cancelPage = context.WithTimeout(tb.base, pageTimeout)
}

// fail ends the test with an error that names the page, and says so
// plainly when the page's deadline passed.
func (tb *tab) fail(what string, err error) {
	tb.t.Helper()
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(tb.ctx.Err(), context.DeadlineExceeded) {
		tb.t.Fatalf("%s: %s: chromium did not finish within %v on this page (a very busy machine, or the page hangs): %v", tb.page, what, pageTimeout, err)
	}
	tb.t.Fatalf("%s: %s: %v", tb.page, what, err)
}

// do runs actions, failing the test on an error.
func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.fail("browser action", err)
	}
}

// open loads a page of the site in dir (a path relative to the site root,
// optionally with a #fragment) and waits for its load event.
func (tb *tab) open(dir, page string) {
	tb.t.Helper()
	tb.setPage(page)
	start := time.Now()
	tb.do(chromedp.Navigate(FileURL(dir, page)))
	tb.t.Logf("opened %s (%v)", page, time.Since(start).Round(time.Millisecond))
}

// eval evaluates a JavaScript expression and decodes its value into T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.fail(fmt.Sprintf("evaluating %.80s…", expr), err)
	}
	return v
}

// clickAndLoad clicks the element the CSS selector finds and waits for the
// new page's load event.
func (tb *tab) clickAndLoad(sel string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.WaitEvent(page.LoadEventFired, nil,
		chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))); err != nil {
		tb.fail("clicking "+sel, err)
	}
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
