//go:build !js

package browsertest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// ssrApp is a server-rendering framework's test app: a folder of this package whose package.json
// and package-lock.json pin the framework (npm ci installs them into the npm cache, on the Node.js
// npmcache.PinnedNode installs), the files the app is made of, and node's arguments that build it
// and that serve the build. In the arguments, "$deps" is the folder of the installed packages.
type ssrApp struct {
	folder string
	files  []string
	build  []string
	serve  []string
	env    []string // what the build and the server get beside PORT and HOST
}

// servedApp is an ssrApp built and served, behind a proxy on localhost that logs what it serves.
type servedApp struct {
	base string // http://localhost:port, the proxy
	log  *transfers
}

// buildAndServe makes the app as a page author would — the framework from its lockfile, the
// bridge from `npm pack` of web/ installed with npm — builds it once and serves it until t ends.
// The app's folder is made inside the cache's folder of the framework's packages, so that Node
// finds them there as in an installed project, without links or copies.
func buildAndServe(t *testing.T, ctx context.Context, app ssrApp) servedApp {
	t.Helper()
	node, err := npmcache.PinnedNode(ctx)
	require.NoError(t, err)
	env := append(npmcache.WithNode(os.Environ(), node), app.env...)
	deps, err := npmcache.InstallLocked(ctx, app.folder, env)
	require.NoError(t, err)
	runDir, err := os.MkdirTemp(deps, "run-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(runDir) })
	dir := newApp(t, ctx, runDir, app.folder, app.files...)
	args := func(a []string) []string {
		out := make([]string, len(a))
		for i, s := range a {
			out[i] = strings.ReplaceAll(s, "$deps", deps)
		}
		return out
	}

	start := time.Now()
	build := exec.CommandContext(ctx, node, args(app.build)...)
	build.Dir, build.Env = dir, env
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s build: %s", app.folder, out)
	t.Logf("%s: built in %s", app.folder, time.Since(start).Round(100*time.Millisecond))

	port := freePort(t)
	server := exec.Command(node, args(app.serve)...)
	server.Dir, server.Env = dir, append(env, "PORT="+port, "HOST=127.0.0.1")
	log := startServer(t, server, app.folder+"'s server")
	target, err := url.Parse("http://127.0.0.1:" + port)
	require.NoError(t, err)
	served := servedApp{log: &transfers{}}
	served.base = listen(t, "localhost", served.log.proxy(target))
	for {
		resp, err := http.Get(target.String() + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		require.NoError(t, ctx.Err(), "%s's server never answered: %s", app.folder, log)
		time.Sleep(100 * time.Millisecond)
	}
	return served
}

// freePort is a loopback port free a moment ago, for a server the test starts.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// startServer starts cmd, a server, until t ends, and then logs what it printed under the name
// what. The returned log fills as the server prints.
func startServer(t *testing.T, cmd *exec.Cmd, what string) *syncLog {
	t.Helper()
	log := &syncLog{}
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		t.Logf("%s:\n%s", what, log)
	})
	return log
}

// syncLog is a server's output, written by the process's copiers and read by the test.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// transfers logs what a proxy served: each response's path, its Content-Encoding and the bytes
// of its body as sent.
type transfers struct {
	mu   sync.Mutex
	list []transfer
}

type transfer struct {
	path, encoding string
	bytes          int64
}

// proxy passes requests to target and logs each response once its body has been sent.
func (l *transfers) proxy(target *url.URL) http.Handler {
	p := httputil.NewSingleHostReverseProxy(target)
	p.ModifyResponse = func(resp *http.Response) error {
		resp.Body = &countingBody{ReadCloser: resp.Body, done: func(n int64) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.list = append(l.list, transfer{resp.Request.URL.Path, resp.Header.Get("Content-Encoding"), n})
		}}
		return nil
	}
	return p
}

// since is what was served after the first n transfers.
func (l *transfers) since(n int) []transfer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]transfer(nil), l.list[n:]...)
}

func (l *transfers) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.list)
}

// countingBody counts what is read of a body and reports it when the body is closed.
type countingBody struct {
	io.ReadCloser
	n    int64
	done func(int64)
	once sync.Once
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

func (b *countingBody) Close() error {
	b.once.Do(func() { b.done(b.n) })
	return b.ReadCloser.Close()
}

// isBridgeFile says whether a path is the bridge's module or its Worker's script, under
// whatever name the bundler gave them.
func isBridgeFile(path string) bool {
	return strings.HasSuffix(path, ".wasm") || strings.Contains(path, "webmcp-bridge-worker")
}

// bridgeHint matches a resource hint (or any link) to the bridge's module or Worker script.
var bridgeHint = regexp.MustCompile(`(?i)<link[^>]*(\.wasm|webmcp-bridge-worker)[^>]*>`)

// checkLoadsNothingUntilCalled is what a page author of the framework relies on: the
// server-rendered page names neither the module nor the Worker's script (no resource hint,
// no Link header), a browser that loads it fetches neither, and then, in both modes, an agent's
// call fetches each once, compressed, and answers a normalized result. more, if given, runs
// next in the same page.
func checkLoadsNothingUntilCalled(t *testing.T, app servedApp, more ...func(t *testing.T, ctx context.Context)) {
	t.Helper()
	resp, err := http.Get(app.base + "/")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	html := string(body)
	assert.Contains(t, html, `<p id="recipes">Soup of the day</p>`, "the page is rendered on the server")
	assert.Empty(t, bridgeHint.FindAllString(html, -1), "no hint names the bridge's files")
	for _, link := range resp.Header.Values("Link") {
		assert.False(t, isBridgeFile(link) || strings.Contains(link, ".wasm"), "the Link header names %s", link)
	}

	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			bctx := browser(t, mode.native)
			before := app.log.len()
			open(t, bctx, app.base+"/")
			var settled bool
			eval(t, bctx, `for (let i = 0; i < 1500; i++) {
					const mc = document.modelContext;
					if (mc && (await mc.getTools()).some((t) => t.name === "recipe")) break;
					await new Promise((r) => setTimeout(r, 20));
				}
				// Then until no request has started for half a second: hints are fetched after load.
				let n = -1, quiet = 0;
				for (let i = 0; i < 100 && quiet < 5; i++) {
					const now = performance.getEntriesByType("resource").length;
					quiet = now === n ? quiet + 1 : 0;
					n = now;
					await new Promise((r) => setTimeout(r, 100));
				}
				return quiet >= 5;`, &settled)
			require.True(t, settled, "the page kept fetching")
			var atLoad int64
			for _, tr := range app.log.since(before) {
				assert.False(t, isBridgeFile(tr.path), "the page fetched %s at load", tr.path)
				atLoad += tr.bytes
			}
			t.Logf("at load: %d requests, %d bytes", len(app.log.since(before)), atLoad)
			loaded := app.log.len()

			var got struct{ Agent, Page string }
			eval(t, bctx, `const agent = await WebMCPBridge.agent.callTool("recipe", {});
				const tools = await document.modelContext.getTools();
				const page = JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === "recipe"), {}));
				return {Agent: agent.content[0].resource.text, Page: page.content[0].resource.text};`, &got)
			for _, text := range []string{got.Agent, got.Page} {
				assert.Contains(t, text, "<h2>Soup</h2><p>Boil</p>", "normalized by the module")
				assert.NotContains(t, text, "script")
			}
			var wasm, worker int
			for _, tr := range app.log.since(loaded) {
				if !isBridgeFile(tr.path) {
					continue
				}
				if strings.HasSuffix(tr.path, ".wasm") {
					wasm++
				} else {
					worker++
				}
				assert.Contains(t, []string{"gzip", "br", "zstd"}, tr.encoding, "%s is served compressed", tr.path)
				t.Logf("first call: %s, %d bytes (%s)", tr.path, tr.bytes, tr.encoding)
			}
			assert.Equal(t, 1, wasm, "the first call fetches the module once")
			assert.Equal(t, 1, worker, "the first call fetches the Worker's script once")
			for _, f := range more {
				f(t, bctx)
			}
		})
	}
}
