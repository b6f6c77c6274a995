//go:build linux

package browsertest

// The cross-browser tests: the fallback (the bridge's own ModelContext, which serves every
// browser without native WebMCP) in Chromium with WebMCP off, Firefox ESR and WebKitGTK, one
// test over the table crossBrowsers: Chromium over DevTools (crossbrowser_chromium_test.go), the
// others through internal/testing/webdriver, all with the same pages and test scripts (pages/js/,
// through run). Each test starts one browser of each kind, with its own profile, in parallel (at
// most crossBrowserSlots at once). A missing browser fails the test and names the Debian package
// (mk/browsers.mk installs them).

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// crossBrowserKnownFailures lists, per browser, the checks that fail there because of a bug in
// the loader (web/src) that is not fixed yet, with what the browser said. A listed check that
// fails is logged, not failed; a listed check that passes fails its test, so that its entry is
// removed. Check names are "<test>/<check>": the conformance checks are "conformance/<page>: <the
// name in pages/conformance.js>".
var crossBrowserKnownFailures = map[string]map[string]string{
	"chromium-webmcp": {},
	"chromium":        {},
	"firefox":         {},
	"webkit":          {},
}

// crossBrowsers are the browsers the cross-browser tests run in, and how each is started.
// native marks Chromium with its own WebMCP, which the bridge wraps rather than provides: only
// the tests that hold the bridge to the same results in both modes (forEachBrowserAndMode) run
// there; the fallback's tests (forEachBrowser) run in the others.
var crossBrowsers = []struct {
	name   string
	native bool
	start  func(ctx context.Context, profile string) (webdriver.Page, error)
}{
	{"chromium-webmcp", true, func(ctx context.Context, profile string) (webdriver.Page, error) {
		return startChromium(ctx, profile, true)
	}},
	{"chromium", false, func(ctx context.Context, profile string) (webdriver.Page, error) {
		// WebMCP off: the fallback, as in every browser without native WebMCP.
		return startChromium(ctx, profile, false)
	}},
	{"firefox", false, func(ctx context.Context, profile string) (webdriver.Page, error) {
		// Firefox's WebMCP prototype off: Firefox as it ships.
		return webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{ProfileDir: profile, Prefs: firefoxWebMCP(false)})
	}},
	{"firefox-webmcp", false, func(ctx context.Context, profile string) (webdriver.Page, error) {
		// The prototype on: the page gets the bridge's API all the same (mirrored into Firefox's).
		return webdriver.StartFirefox(ctx, webdriver.FirefoxOptions{ProfileDir: profile, Prefs: firefoxWebMCP(true)})
	}},
	{"webkit", false, func(ctx context.Context, profile string) (webdriver.Page, error) {
		return webdriver.StartWebKit(ctx, webdriver.WebKitOptions{ProfileDir: profile})
	}},
}

// crossBrowserSlots bounds the browsers these tests run at once (the machine has 2 cores).
var crossBrowserSlots = make(chan struct{}, 3)

// crossRun is one browser running one test: its page and what its checks found.
type crossRun struct {
	t       *testing.T
	browser string // a name of crossBrowsers
	native  bool   // the browser's own WebMCP, wrapped by the bridge
	ctx     context.Context
	page    webdriver.Page
	passed  int
	failed  int
	known   int
}

// forEachBrowser runs test in every browser of crossBrowsers that runs the fallback, as parallel
// subtests named after the browsers, each with a fresh browser of its own, and logs how many
// checks passed.
func forEachBrowser(t *testing.T, test func(r *crossRun)) {
	eachBrowser(t, false, test)
}

// forEachBrowserAndMode is forEachBrowser with Chromium's native WebMCP too (r.native).
func forEachBrowserAndMode(t *testing.T, test func(r *crossRun)) {
	eachBrowser(t, true, test)
}

func eachBrowser(t *testing.T, native bool, test func(r *crossRun)) {
	for _, b := range crossBrowsers {
		if b.native && !native {
			continue
		}
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			crossBrowserSlots <- struct{}{}
			t.Cleanup(func() { <-crossBrowserSlots }) // registered first, so it runs last
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			t.Cleanup(cancel)
			start := time.Now()
			page, err := b.start(ctx, t.TempDir())
			if err != nil {
				t.Fatalf(
					"starting %s: %v\n(`make firefox webkit`, from mk/browsers.mk, installs the browsers as root)",
					b.name,
					err,
				)
			}
			t.Cleanup(func() { page.Close() })
			t.Logf("%s started in %v", page.Browser(), time.Since(start).Round(time.Millisecond))
			r := &crossRun{t: t, browser: b.name, native: b.native, ctx: ctx, page: page}
			test(r)
			t.Logf(
				"%s: %d of %d checks pass (%d of the failures are known loader bugs listed in crossBrowserKnownFailures)",
				b.name,
				r.passed,
				r.passed+r.failed,
				r.known,
			)
		})
	}
}

// open navigates the page; a page that does not load ends the test.
func (r *crossRun) open(url string) {
	r.t.Helper()
	if err := r.page.Open(r.ctx, url); err != nil {
		r.t.Fatalf("%s: opening %s: %v", r.browser, url, err)
	}
}

// evalTimeout bounds one eval, so that a page that never answers fails its check, not the run.
const evalTimeout = 90 * time.Second

// evalPage runs body in the page within evalTimeout.
func (r *crossRun) evalPage(body string, out any) error {
	ctx, cancel := context.WithTimeout(r.ctx, evalTimeout)
	defer cancel()
	return r.page.Eval(ctx, body, out)
}

// eval runs an async function body in the page and decodes its result; an error ends the test.
func (r *crossRun) eval(body string, out any) {
	r.t.Helper()
	if err := r.evalPage(body, out); err != nil {
		r.t.Fatalf("%s: %v\nin:\n%s", r.browser, err, body)
	}
}

// run runs the export fn of pages/js/<file> in the page, as runJS does in Chromium, and decodes
// its result; an error ends the test.
func (r *crossRun) run(file, fn string, out any, args ...any) {
	r.t.Helper()
	body, err := importJS(file, fn, args)
	if err == nil {
		err = r.evalPage(body, out)
	}
	if err != nil {
		r.t.Fatalf("%s: %s %s: %v", r.browser, file, fn, err)
	}
}

// screenshot saves a PNG of the page in out/screenshots for people to look at.
func (r *crossRun) screenshot(name string) {
	png, err := r.page.Screenshot(r.ctx)
	if err != nil {
		r.t.Errorf("%s: screenshot: %v", r.browser, err)
		return
	}
	saveScreenshot(r.t, name, png)
}

// check runs fn as the check name ("<test>/<check>"): the failures fn records on its checkT fail
// the test, unless crossBrowserKnownFailures lists the check for this browser.
func (r *crossRun) check(name string, fn func(c *checkT)) {
	r.t.Helper()
	c := &checkT{in: r}
	func() {
		defer func() {
			if p := recover(); p != nil {
				c.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		fn(c)
	}()
	r.record(name, c.errs)
}

// record counts a check's outcome and reports it against the known failures.
func (r *crossRun) record(name string, errs []string) {
	r.t.Helper()
	known, listed := crossBrowserKnownFailures[r.browser][name]
	switch {
	case len(errs) == 0 && listed:
		r.passed++
		r.t.Errorf("%s: %q passes now: remove it from crossBrowserKnownFailures (it said %q)", r.browser, name, known)
	case len(errs) == 0:
		r.passed++
	case listed:
		r.failed++
		r.known++
		r.t.Logf(
			"%s: %q fails, as listed in crossBrowserKnownFailures (%s):\n%s",
			r.browser,
			name,
			known,
			strings.Join(errs, "\n"),
		)
	default:
		r.failed++
		r.t.Errorf("%s: %q fails:\n%s", r.browser, name, strings.Join(errs, "\n"))
	}
}

// checkT records the failures of one check; it is the assert.TestingT of the check's
// assertions.
type checkT struct {
	in   *crossRun // the run the check belongs to
	errs []string
}

// Errorf records a failure.
func (c *checkT) Errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// eval runs body in the page; a script error is recorded as the check's failure, and eval
// reports whether out holds the result.
func (c *checkT) eval(body string, out any) bool {
	if err := c.in.evalPage(body, out); err != nil {
		c.Errorf("%v", err)
		return false
	}
	return true
}

// run runs the export fn of pages/js/<file> in the page, as runJS does in Chromium; an error is
// recorded as the check's failure, and run reports whether out holds the result.
func (c *checkT) run(file, fn string, out any, args ...any) bool {
	body, err := importJS(file, fn, args)
	if err != nil {
		c.Errorf("%s %s: %v", file, fn, err)
		return false
	}
	return c.eval(body, out)
}

// TestCrossBrowserKnownFailuresAreWellFormed: the list names only browsers that run and gives a
// reason for every entry.
func TestCrossBrowserKnownFailuresAreWellFormed(t *testing.T) {
	skipWithoutBuild(t)
	names := map[string]bool{}
	for _, b := range crossBrowsers {
		names[b.name] = true
	}
	for browser, checks := range crossBrowserKnownFailures {
		if !names[browser] {
			t.Errorf("crossBrowserKnownFailures names %q, which is not in crossBrowsers", browser)
		}
		keys := make([]string, 0, len(checks))
		for k := range checks {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !strings.Contains(k, "/") || strings.TrimSpace(checks[k]) == "" {
				t.Errorf("%s: %q: an entry is \"<test>/<check>\" with the browser's error as its reason", browser, k)
			}
		}
		if len(keys) > 0 {
			t.Logf("%s: %d checks are known to fail: %s", browser, len(keys), strings.Join(keys, "; "))
		}
	}
}
