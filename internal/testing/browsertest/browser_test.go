//go:build !js

// Package browsertest drives Debian's Chromium headless against pages served on localhost and
// checks the bridge end to end, in both modes: native WebMCP (--enable-features=WebMCP) and the
// bridge's own fallback ModelContext. `make browser` builds web/dist and the test build (out/testdist) first.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// serveWeb serves what a page sees on a loopback port: the repository's web/ folder (the built
// module in /dist/, the demo in /demo/), as `make demo` does, and the test pages in /test/.
func serveWeb(t testing.TB) string {
	base, _ := serveLogged(t, fromRoot("web", "dist"))
	return base
}

// serveTestBuild is serveWeb with /dist/ holding the test build of the module (make build-test):
// the same loader and module, plus the test-only exports (stats, panicForTest).
func serveTestBuild(t *testing.T) string {
	base, _ := serveLogged(t, fromRoot("out", "testdist"))
	return base
}

// serveLogged serves web/ with dist as /dist/ and logs the path of every request the server
// answers — the page's, its Worker's and its frames' alike.
func serveLogged(t testing.TB, dist string) (string, *requests) {
	t.Helper()
	mux := pageRoutes(t, dist)
	// The same pages under a CSP that allows scripts but not WebAssembly.
	noWasm := "script-src 'self' 'unsafe-inline'"
	mux.Handle("/csp/", withHeader(csp, noWasm, http.StripPrefix("/csp/", serve.Handler("pages"))))
	// A CSP without 'wasm-unsafe-eval' on the page and on the module's files alike (a Worker's
	// script brings its own CSP): the module can run nowhere.
	mux.Handle("/csp/dist/", withHeader(csp, noWasm, http.StripPrefix("/csp/dist/", serve.Handler(dist))))
	// WebAssembly allowed, Workers not: the module runs on the page's thread.
	mux.Handle(
		"/noworker/",
		withHeader(
			csp,
			"script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; worker-src 'none'",
			http.StripPrefix("/noworker/", serve.Handler("pages")),
		),
	)
	// The module's files from a server that sends the module as application/octet-stream.
	mux.Handle("/octet/", http.StripPrefix("/octet/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		serve.Handler(dist).ServeHTTP(w, r)
	})))
	log := &requests{}
	return listen(t, "localhost", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.URL.Path)
		mux.ServeHTTP(w, r)
	})), log
}

// pageRoutes are the routes every test server has: what a page sees as `make demo` serves it
// (the repository's web/ at /), the built module dist at /dist/ and the test pages at /test/.
func pageRoutes(t testing.TB, dist string) *http.ServeMux {
	t.Helper()
	web, err := filepath.Abs(fromRoot("web"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dist, "webmcp-bridge.wasm")); err != nil {
		t.Fatalf("%s is not built: run `make build` (or `make test`, which builds first): %v", dist, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(web)) // the server `make demo` runs
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(dist)))
	mux.Handle("/test/", http.StripPrefix("/test/", serve.Handler("pages")))
	return mux
}

// listen serves h on a loopback port until t ends and gives its URL, http://host:port. Host
// "localhost" (not 127.0.0.1) makes the page a secure context, as WebMCP requires.
func listen(t testing.TB, host string, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return fmt.Sprintf("http://%s:%d", host, ln.Addr().(*net.TCPAddr).Port)
}

// csp is the header withHeader sets most.
const csp = "Content-Security-Policy"

// withHeader serves h's responses with the header name set to value.
func withHeader(name, value string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(name, value)
		h.ServeHTTP(w, r)
	})
}

// modes are the two ways the bridge runs: wrapping native WebMCP, or providing it.
var modes = []struct {
	name   string
	native bool
}{{"native", true}, {"fallback", false}}

// modeName is the name of the mode native says: "native" or "fallback".
func modeName(native bool) string {
	if native {
		return modes[0].name
	}
	return modes[1].name
}

// browser starts a fresh headless Chromium; native turns WebMCP on.
func browser(t *testing.T, native bool, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx, _ := browserIn(t, t.TempDir(), native, extra...)
	return ctx
}

// browserIn starts headless Chromium on the profile userDataDir; the returned function closes it
// (as t's cleanup does).
func browserIn(
	t testing.TB,
	userDataDir string,
	native bool,
	extra ...chromedp.ExecAllocatorOption,
) (context.Context, func()) {
	t.Helper()
	chromium, err := headless.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	actx, cancel := chromedp.NewExecAllocator(
		context.Background(),
		headless.Options(chromium, userDataDir, native, extra...)...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(cancel3)
	require.NoError(t, chromedp.Do(ctx))
	return ctx, func() { cancel3(); cancel2(); cancel() }
}

// eval runs an async JS function body in the page and decodes its JSON-able return value.
func eval(t testing.TB, ctx context.Context, body string, out any) {
	t.Helper()
	require.NoError(t, headless.Eval(ctx, body, out), body)
}

func open(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
}

// runJS runs an exported function of a test script, internal/testing/browsertest/pages/js/<file> (an
// ES module served at /test/js/), in the open page, with args as JSON, and decodes its result.
// The tests' JavaScript lives in those files, not in Go strings.
func runJS(t *testing.T, ctx context.Context, file, fn string, out any, args ...any) {
	t.Helper()
	body, err := importJS(file, fn, args)
	require.NoError(t, err)
	require.NoError(t, headless.Eval(ctx, body, out), "%s %s", file, fn)
}

// importJS is the async function body that imports pages/js/<file> from the page's origin and
// answers what its export fn gives for args (as JSON): the same body for Chromium (runJS) and the
// WebDriver browsers (crossRun.run).
func importJS(file, fn string, args []any) (string, error) {
	a, err := jsArgs(args)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(
		`const m = await import(new URL(%q, location.origin).href); return await m[%q](...%s);`,
		"/test/js/"+file,
		fn,
		a,
	), nil
}

// jsArgs is args as a JSON array.
func jsArgs(args []any) (string, error) {
	if args == nil {
		return "[]", nil
	}
	b, err := json.Marshal(args)
	return string(b), err
}

// eachMode runs f in a fresh headless Chromium for each mode (native WebMCP, the fallback).
func eachMode(t *testing.T, f func(t *testing.T, ctx context.Context, native bool)) {
	eachModeOf(t, browser, f)
}

// eachModeOf is eachMode with the browser that start makes for a mode (extensionBrowser, say).
func eachModeOf(
	t *testing.T,
	start func(t *testing.T, native bool, extra ...chromedp.ExecAllocatorOption) context.Context,
	f func(t *testing.T, ctx context.Context, native bool),
) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) { f(t, start(t, mode.native), mode.native) })
	}
}
