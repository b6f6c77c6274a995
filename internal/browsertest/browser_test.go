//go:build !js

// Package browsertest drives Debian's Chromium headless against pages served on localhost and
// checks the bridge end to end, in both modes: native WebMCP (--enable-features=WebMCP) and the
// bridge's own fallback ModelContext. `make browser` builds web/dist and the test build (out/testdist) first.
package browsertest

import (
	"context"
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
func serveWeb(t *testing.T) string { return serveWith(t, filepath.Join("..", "..", "web", "dist")) }

// serveTestBuild is serveWeb with /dist/ holding the test build of the module (make build-test):
// the same loader and module, plus the test-only exports (stats, panicForTest).
func serveTestBuild(t *testing.T) string {
	return serveWith(t, filepath.Join("..", "..", "out", "testdist"))
}

func serveWith(t *testing.T, dist string) string {
	t.Helper()
	web, err := filepath.Abs(filepath.Join("..", "..", "web"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dist, "webmcp-bridge.wasm")); err != nil {
		t.Fatalf("%s is not built: run `make build` (or `make test`, which builds first): %v", dist, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", serve.Handler(web)) // the server `make demo` runs
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(dist)))
	mux.Handle("/test/", http.StripPrefix("/test/", serve.Handler("pages")))
	// The same pages under a CSP that allows scripts but not WebAssembly.
	mux.Handle("/csp/", withCSP("script-src 'self' 'unsafe-inline'", http.StripPrefix("/csp/", serve.Handler("pages"))))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	// "localhost" (not 127.0.0.1) so that the page is a secure context, as WebMCP requires.
	return fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)
}

// withCSP serves h's responses with the Content-Security-Policy csp.
func withCSP(csp string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		h.ServeHTTP(w, r)
	})
}

// modes are the two ways the bridge runs: wrapping native WebMCP, or providing it.
var modes = []struct {
	name   string
	native bool
}{{"native", true}, {"fallback", false}}

// browser starts a fresh headless Chromium; native turns WebMCP on.
func browser(t *testing.T, native bool, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	chromium, err := headless.ChromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), headless.Options(chromium, t.TempDir(), native, extra...)...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(cancel3)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// eval runs an async JS function body in the page and decodes its JSON-able return value.
func eval(t *testing.T, ctx context.Context, body string, out any) {
	t.Helper()
	require.NoError(t, headless.Eval(ctx, body, out), body)
}

func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
}
