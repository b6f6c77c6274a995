//go:build !js

package browsertest

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// nextApp is what the Next.js test's app is built with, from npm.
var nextApp = []string{"next@16.4.6", "react@19.3.1", "react-dom@19.3.1"}

// linkDeps links the packages of the npm cache's deps into app's node_modules, as if the app had
// installed them.
func linkDeps(t *testing.T, app, deps string, pkgs ...string) {
	t.Helper()
	for _, pkg := range pkgs {
		link := filepath.Join(app, "node_modules", pkg)
		require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(deps, "node_modules", pkg), link))
	}
}

// TestNodeImportsPackage imports the packed package in Node, where there is no document: the
// ES module, its React hook and the classic script's file load without throwing, the inert API
// answers, and nothing is left pending that keeps Node from exiting.
func TestNodeImportsPackage(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	deps, err := npmcache.Install(ctx, "react@19.3.1")
	require.NoError(t, err)
	app := newApp(t, ctx, t.TempDir(), "nextapp")
	linkDeps(t, app, deps, "react")
	script := `const m = await import("webmcp-bridge-wasm");
		const { useWebMCPTool } = await import("webmcp-bridge-wasm/react");
		m.setAssets("/elsewhere/"); m.start(); m.configure({});
		const refused = await m.normalize("x").then(() => "resolved", (e) => e.message);
		console.log(JSON.stringify({ hook: typeof useWebMCPTool, text: m.content.text("hi").text, refused }));`
	out, err := commandIn(ctx, app, "node", "--input-type=module", "-e", script).CombinedOutput()
	require.NoError(t, err, "node: %s", out)
	assert.Contains(t, string(out), `"hook":"function","text":"hi"`)
	assert.Contains(t, string(out), "there is no document here", "normalize says why it cannot answer")
}

// TestNextApp builds a Next.js App Router app (nextapp/) with `next build` and serves it with
// `next start`: the package, installed from its tarball, is imported in the root layout (a
// server component) and in client components, which Next renders on the server too. The build
// succeeds, the server renders the client component's markup, and in the browser, in both modes,
// the hook's tool answers through the bridge — also on the page whose component mounts first
// and imports the bridge later, with import() in an effect.
func TestNextApp(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	deps, err := npmcache.Install(ctx, nextApp...)
	require.NoError(t, err)
	app := newApp(t, ctx, t.TempDir(), "nextapp", "next.config.mjs", "app/layout.jsx", "app/page.jsx",
		"app/Recipes.jsx", "app/late/page.jsx", "app/late/Late.jsx")
	linkDeps(t, app, deps, "next", "react", "react-dom")
	next := filepath.Join(app, "node_modules", "next", "dist", "bin", "next")
	env := append(os.Environ(), "NEXT_TELEMETRY_DISABLED=1", "NEXT_APP_ROOT="+commonDir(app, deps))
	build := commandIn(ctx, app, "node", next, "build")
	build.Env = env
	out, err := build.CombinedOutput()
	require.NoError(t, err, "next build: %s", out)

	port := freePort(t)
	server := exec.Command("node", next, "start", "-p", port, "-H", "localhost")
	server.Dir, server.Env = app, env
	log := startServer(t, server, "next start")
	base := "http://localhost:" + port
	var html string
	for html == "" {
		if resp, err := http.Get(base + "/"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				html = string(b)
			}
		}
		require.NoError(t, ctx.Err(), "next start never answered: %s", log.String())
		time.Sleep(100 * time.Millisecond)
	}
	assert.Contains(t, html, `<p id="recipes">Soup of the day</p>`, "the client component is rendered on the server")

	const untilTool = `const until = async (name) => {
			for (let i = 0; i < 1500; i++) {
				const mc = document.modelContext;
				if (mc && (await mc.getTools()).some((t) => t.name === name)) return;
				await new Promise((r) => setTimeout(r, 20));
			}
			throw new Error("the tool " + name + " was never registered");
		};`
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			bctx := browser(t, mode.native)
			open(t, bctx, base+"/")
			var recipe string
			eval(t, bctx, untilTool+`await until("recipe");
				return (await WebMCPBridge.agent.callTool("recipe", {})).content[0].resource.text;`, &recipe)
			assert.Contains(t, recipe, "<h2>Soup</h2><p>Boil</p>", "normalized by the module")
			assert.NotContains(t, recipe, "script")

			open(t, bctx, base+"/late")
			var late struct {
				Text   string
				Bridge bool
			}
			eval(t, bctx, untilTool+`await until("late_recipe");
				for (let i = 0; i < 1500 && !window.WebMCPBridge; i++) await new Promise((r) => setTimeout(r, 20));
				const tools = await document.modelContext.getTools();
				const out = JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === "late_recipe"), {}));
				return {Text: JSON.stringify(out), Bridge: !!window.WebMCPBridge};`, &late)
			assert.True(t, late.Bridge, "the bridge was imported by the effect")
			if !mode.native { // with native WebMCP the tool was registered before the bridge wrapped it
				assert.Contains(t, late.Text, "<p>Bread</p>", "normalized by the module")
				assert.NotContains(t, late.Text, "alert(1)")
			}
		})
	}
}

// commonDir is the deepest directory that holds both a and b.
func commonDir(a, b string) string {
	for {
		rel, err := filepath.Rel(a, b)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) || a == filepath.Dir(a) {
			return a
		}
		a = filepath.Dir(a)
	}
}
