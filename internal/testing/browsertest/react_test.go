//go:build !js

package browsertest

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// reactApp is what the React test's app is built with, from npm: Vite with its React plugin
// (Fast Refresh) and React itself.
var reactApp = []string{vite, "@vitejs/plugin-react@5.2.0", "react@19.3.1", "react-dom@19.3.1"}

// TestReactHook runs a Vite + React app (viteapp-react/) on Vite's dev server with hot reload,
// the package installed from its tarball and the hook imported from webmcp-bridge-wasm/react,
// under StrictMode, in both modes: after StrictMode's double mount the tool is registered once,
// without an error, and answers; a re-render calls the latest execute without registering again;
// after an edit of App.jsx (hot reload) the tool runs the edited code; unmounted, it is gone. The
// app also renders the page authors' guide's example component, as written.
func TestReactHook(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	deps, err := npmcache.Install(ctx, reactApp...)
	require.NoError(t, err)
	app := newApp(t, ctx, t.TempDir(), "viteapp-react", "index.html", "main.jsx", "App.jsx", "vite.config.js")
	// The guide's component, as written, rendered by App.jsx.
	readme := docBlock(t, pageGuide, "**React.**", "jsx")
	require.NoError(t, os.WriteFile(filepath.Join(app, "Readme.jsx"), []byte(readme+"\nexport default Cart;\n"), 0o644))
	// React and the plugin from the cache, as the app's own dependencies.
	linkDeps(t, app, deps, "react", "react-dom", "@vitejs/plugin-react")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	server := exec.Command(
		"node",
		filepath.Join(deps, "node_modules", "vite", "bin", "vite.js"),
		"--port",
		strconv.Itoa(port),
		"--strictPort",
		"--host",
		"localhost",
	)
	server.Dir = app
	var out strings.Builder
	server.Stdout, server.Stderr = &out, &out
	require.NoError(t, server.Start())
	t.Cleanup(func() {
		server.Process.Kill()
		server.Wait()
		t.Logf("vite dev server:\n%s", out.String())
	})
	base := "http://localhost:" + strconv.Itoa(port) + "/"
	for {
		resp, err := http.Get(base)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		require.NoError(t, ctx.Err(), "the dev server never answered: %s", out.String())
		time.Sleep(100 * time.Millisecond)
	}

	const untilJS = `const until = async (f) => {
			for (let i = 0; i < 1500; i++) { const v = await f(); if (v) return v; await new Promise((r) => setTimeout(r, 20)); }
			throw new Error("gave up waiting for " + f + "; errors: " + JSON.stringify(window.errors) + "; ` +
		`logs: " + JSON.stringify(window.logs) + "; page: " + document.body.innerHTML);
		};
		const counters = async () => (await document.modelContext.getTools()).filter((t) => t.name === "counter");
		const call = async () => JSON.parse(await document.modelContext.executeTool((await counters())[0], ` +
		`{})).content[0].text;`
	type state struct {
		Registered int
		Text       string
		Errors     []string
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			// Each mode opens the app as the previous one left it and edits its version.
			appJSX := filepath.Join(app, "App.jsx")
			src, err := os.ReadFile(appJSX)
			require.NoError(t, err)
			before := regexp.MustCompile(`const version = "([^"]*)"`).FindSubmatch(src)
			require.NotNil(t, before, "App.jsx has its version")
			edited := mode.name + " edit"
			bctx := browser(t, mode.native)
			open(t, bctx, base)

			var got state
			eval(t, bctx, untilJS+`await until(async () => (await counters()).length);
				return {Registered: (await counters()).length, Text: await call(), Errors: window.errors};`, &got)
			assert.Equal(t, 1, got.Registered, "StrictMode mounts twice: one tool")
			assert.Equal(t, string(before[1])+", count 0", got.Text)
			assert.Empty(t, got.Errors, "no InvalidStateError, nothing React complains of")
			var cart string
			eval(t, bctx, untilJS+`const tools = await document.modelContext.getTools();
				return JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === "cart_items"), `+
				`{})).content[0].text;`, &cart)
			assert.Equal(t, "tea, milk", cart, "the guide's component")
			// On the dev server too, the module and its Worker come from beside the package's ES module.
			var sanitized string
			eval(
				t,
				bctx,
				`return (await WebMCPBridge.normalize({type: "html", `+
					`html: "<p>Hi</p><script>alert(1)</script>"})).content[0].resource.text;`,
				&sanitized,
			)
			assert.Equal(t, "<p>Hi</p>", sanitized, "normalized by the module")

			eval(
				t,
				bctx,
				untilJS+`document.getElementById("increment").click(); document.getElementById("increment").click();
				await until(() => document.getElementById("increment").textContent === "count 2");
				return {Registered: (await counters()).length, Text: await call(), Errors: window.errors};`,
				&got,
			)
			assert.Equal(t, 1, got.Registered)
			assert.Equal(t, string(before[1])+", count 2", got.Text, "the latest render's execute, not the first one's")

			require.NoError(
				t,
				os.WriteFile(
					appJSX,
					[]byte(strings.Replace(string(src), string(before[0]), `const version = "`+edited+`"`, 1)),
					0o644,
				),
			)
			eval(
				t,
				bctx,
				untilJS+`await until(() => document.getElementById("version").textContent === `+mustJSON(t, edited)+`);
				await until(async () => (await counters()).length === 1);
				return {Registered: (await counters()).length, Text: await call(), Errors: window.errors};`,
				&got,
			)
			assert.Equal(t, 1, got.Registered, "hot reload: still one tool")
			assert.Equal(t, edited+", count 2", got.Text, "hot reload: the edited execute runs, the state is kept")
			assert.Empty(t, got.Errors)

			eval(t, bctx, untilJS+`document.getElementById("toggle").click();
				await until(() => !document.getElementById("increment"));
				return {Registered: (await counters()).length, Errors: window.errors};`, &got)
			assert.Zero(t, got.Registered, "unmounted: the tool is gone")
			assert.Empty(t, got.Errors)
		})
	}
}
