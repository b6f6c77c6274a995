//go:build !js

package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// vite is the bundler the package is tried with, from npm.
const vite = "vite@7.3.8"

// TestViteApp installs the package as a page author would: `npm pack` of web/ gives the tarball,
// which goes into a fresh Vite app (viteapp/) built with `vite build`. Served, in both modes,
// the app's tools answer through the bridge: the module's files are the ones Vite copied (its
// hashed names) and the module runs in the Worker; with setAssets, the files come from there.
func TestViteApp(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	viteDir, err := npmcache.Install(ctx, vite)
	require.NoError(t, err)

	tmp := t.TempDir()
	app := newApp(t, ctx, tmp, "viteapp", "index.html", "main.js")
	run(
		t,
		ctx,
		app,
		"node",
		filepath.Join(viteDir, "node_modules", "vite", "bin", "vite.js"),
		"build",
		"--logLevel",
		"warn",
	)

	built, _ := filepath.Glob(filepath.Join(app, "dist", "assets", "*"))
	var names []string
	for _, b := range built {
		names = append(names, filepath.Base(b))
	}
	t.Logf("vite build wrote %v", names)
	has := func(prefix, suffix string) bool {
		for _, n := range names {
			if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, suffix) {
				return true
			}
		}
		return false
	}
	require.True(t, has("webmcp-bridge-", ".wasm"), "Vite copies the module")
	require.True(t, has("webmcp-bridge-worker-", ".js"), "Vite copies the Worker's script (not inlined)")

	log := &requests{} // the paths the server answers, the Worker's too
	mux := http.NewServeMux()
	mux.Handle(
		"/cdn/",
		http.StripPrefix("/cdn/", serve.Handler(filepath.Join(app, "node_modules", "webmcp-bridge-wasm", "dist"))),
	)
	mux.Handle("/", serve.Handler(filepath.Join(app, "dist")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.URL.Path)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	base := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			for _, c := range []struct{ hash, from string }{{"", "/assets/"}, {"#cdn", "/cdn/"}} {
				before := log.countUnder(c.from, ".wasm")
				bctx := browser(t, mode.native)
				open(t, bctx, base+"/"+c.hash)
				var got struct {
					Imported bool
					Hello    string
					Article  map[string]any
				}
				eval(t, bctx, `await window.registered;
					const tools = await document.modelContext.getTools();
					const hello = JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === "hello"), {}));
					const article = await WebMCPBridge.agent.callTool("article", {});
					return {Imported: window.imported, Hello: hello.content[0].text, Article: article.content[0].resource};`, &got)
				assert.True(t, got.Imported, "the default export is window.WebMCPBridge")
				assert.Equal(t, "hello", got.Hello)
				assert.Equal(t, "text/html", got.Article["mimeType"])
				assert.Equal(t, "<p>Hi</p>", got.Article["text"], "sanitized by the module")
				assert.Equal(t, 1, workerTargets(t, bctx), "the module runs in the bridge's Worker")
				assert.Equal(t, before+1, log.countUnder(c.from, ".wasm"), "the module comes from %s", c.from)
			}
		})
	}
}

// newApp packs web/ as a page author gets it (`npm pack` gives the tarball) and makes a fresh app
// in tmp/app from the files of the folder src, with the tarball installed by `npm install`.
func newApp(t *testing.T, ctx context.Context, tmp, src string, files ...string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	require.NoError(t, err, "npm is needed: install Debian's nodejs and npm (make test does this as root)")
	web, err := filepath.Abs(fromRoot("web"))
	require.NoError(t, err)
	run(t, ctx, web, npm, "pack", "--silent", "--pack-destination", tmp)
	tarballs, _ := filepath.Glob(filepath.Join(tmp, "webmcp-bridge-wasm-*.tgz"))
	require.Len(t, tarballs, 1, "npm pack gives one tarball")
	app := filepath.Join(tmp, "app")
	require.NoError(t, os.MkdirAll(app, 0o755))
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(app, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(app, f), data, 0o644))
	}
	require.NoError(
		t,
		os.WriteFile(
			filepath.Join(app, "package.json"),
			[]byte(`{"name": "app", "private": true, "type": "module"}`+"\n"),
			0o644,
		),
	)
	run(t, ctx, app, npm, "install", "--no-audit", "--no-fund", "--loglevel=error", tarballs[0])
	return app
}

// run runs a command in dir and fails the test with its output if it fails.
func run(t *testing.T, ctx context.Context, dir, name string, args ...string) {
	t.Helper()
	out, err := commandIn(ctx, dir, name, args...).CombinedOutput()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
}

// commandIn is the command name args, run in dir.
func commandIn(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	return cmd
}
