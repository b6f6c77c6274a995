//go:build !js

package browsertest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/npmcache"
)

// esbuild is the bundler of the README's esbuild lines, from npm.
const esbuild = "esbuild@0.28.2"

// docBlock is the first fenced block of the language lang after the text marker in doc, a path
// from the repository's root ("README.md", "docs/page-authors.md").
func docBlock(t *testing.T, doc, marker, lang string) string {
	t.Helper()
	text, err := os.ReadFile(fromRoot(filepath.FromSlash(doc)))
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)" + regexp.QuoteMeta(marker) + ".*?```" + lang + "\n(.*?)```").FindSubmatch(text)
	require.NotNil(t, m, "%s's %s block after %q", doc, lang, marker)
	return string(m[1])
}

// pageGuide is the page authors' guide, where the install, bundler and framework blocks are.
const pageGuide = "docs/page-authors.md"

// TestREADMEInstall runs the README's install lines from a new app (made by `npm init -y`) in a
// copy of web/'s package and build, the two paths filled in; `make build` is the build make test
// has made. The app then has the package, its hook and typings, and Node resolves its entries.
func TestREADMEInstall(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	lines := docBlock(t, pageGuide, "## With npm and a bundler", "sh")
	require.Contains(t, lines, "make build")
	script := strings.Replace(lines, "make build", "true", 1)
	tmp := t.TempDir()
	repo, app := filepath.Join(tmp, "webmcp-bridge"), filepath.Join(tmp, "your-app")
	script = strings.ReplaceAll(script, "/path/to/webmcp-bridge", repo)
	script = strings.ReplaceAll(script, "/path/to/your-app", app)
	require.NotContains(t, script, "/path/to", "every placeholder is one of the two paths")

	web := fromRoot("web")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "web", "dist"), 0o755))
	require.NoError(t, os.MkdirAll(app, 0o755))
	data, err := os.ReadFile(filepath.Join(web, "package.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "web", "package.json"), data, 0o644))
	built, err := os.ReadDir(filepath.Join(web, "dist"))
	require.NoError(t, err)
	for _, f := range built {
		if f.Type().IsRegular() {
			data, err := os.ReadFile(filepath.Join(web, "dist", f.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(repo, "web", "dist", f.Name()), data, 0o644))
		}
	}
	require.NoError(
		t,
		os.CopyFS(filepath.Join(repo, "web", "dist", "types"), os.DirFS(filepath.Join(web, "dist", "types"))),
	)
	run(t, ctx, app, "npm", "init", "-y")
	run(t, ctx, repo, "bash", "-e", "-c", script)

	pkg := filepath.Join(app, "node_modules", "webmcp-bridge-wasm", "dist")
	for _, f := range []string{
		"webmcp-bridge.mjs", "webmcp-bridge.js", "webmcp-bridge-worker.js", "webmcp-bridge.wasm", "types/entry-module.d.ts",
		"webmcp-bridge-react.mjs", "types/react.d.ts", "nuxt.mjs", "types/nuxt.d.ts",
	} {
		assert.FileExists(t, filepath.Join(pkg, f))
	}
	for entry, file := range map[string]string{
		"webmcp-bridge-wasm": "webmcp-bridge.mjs", "webmcp-bridge-wasm/react": "webmcp-bridge-react.mjs",
		"webmcp-bridge-wasm/script": "webmcp-bridge.js", "webmcp-bridge-wasm/nuxt": "nuxt.mjs",
	} {
		var out strings.Builder
		cmd := commandIn(ctx, app, "node", "--input-type=module", "-e", `console.log(import.meta.resolve("`+entry+`"))`)
		cmd.Stdout = &out
		require.NoError(t, cmd.Run(), entry)
		assert.True(
			t,
			strings.HasSuffix(strings.TrimSpace(out.String()), "/dist/"+file),
			"%s resolves to %s: %s",
			entry,
			file,
			out.String(),
		)
	}
}

// TestREADMEEsbuild bundles an app with the README's esbuild lines as written (esbuild from npm,
// the package from its tarball) and serves the output folder: a tool whose result needs the
// module answers, normalized in the Worker, from the files the README says to copy.
func TestREADMEEsbuild(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	deps, err := npmcache.Install(ctx, esbuild)
	require.NoError(t, err)
	tmp := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "src"), 0o755))
	require.NoError(
		t,
		os.WriteFile(filepath.Join(tmp, "src", "app.js"), []byte(`import { content } from "webmcp-bridge-wasm";
document.modelContext.registerTool({ name: "article", description: "an article", `+
			`execute: () => content.html("<p>Hi</p><script>alert(1)</script>") });
`), 0o644),
	)
	app := newApp(t, ctx, tmp, filepath.Join(tmp, "src"), "app.js")
	require.NoError(
		t,
		os.Symlink(filepath.Join(deps, "node_modules", "esbuild"), filepath.Join(app, "node_modules", "esbuild")),
	)
	require.NoError(t, os.MkdirAll(filepath.Join(app, "node_modules", ".bin"), 0o755))
	require.NoError(t, os.Symlink("../esbuild/bin/esbuild", filepath.Join(app, "node_modules", ".bin", "esbuild")))
	run(t, ctx, app, "bash", "-e", "-c", docBlock(t, pageGuide, "**esbuild**", "sh"))
	require.NoError(
		t,
		os.WriteFile(
			filepath.Join(app, "public", "index.html"),
			[]byte(`<!doctype html><meta charset="utf-8"><script type="module" src="app.js"></script>`),
			0o644,
		),
	)

	srv := httptest.NewServer(serve.Handler(filepath.Join(app, "public")))
	t.Cleanup(srv.Close)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			bctx := browser(t, mode.native)
			open(t, bctx, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+"/")
			var got struct{ Resource map[string]any }
			eval(
				t,
				bctx,
				`for (let i = 0; i < 500 && !(await document.modelContext.getTools()).length; `+
					`i++) await new Promise((r) => setTimeout(r, 20));
				const article = await WebMCPBridge.agent.callTool("article", {});
				return {Resource: article.content[0].resource};`,
				&got,
			)
			assert.Equal(t, "<p>Hi</p>", got.Resource["text"], "sanitized by the module")
			assert.Equal(t, 1, workerTargets(t, bctx), "the module runs in the bridge's Worker")
		})
	}
}
