//go:build !js

package browsertest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// TestCSPExternalExample serves, under Content-Security-Policy: script-src 'self'
// 'wasm-unsafe-eval', the README's first example as written and the external-file form the page
// authors' guide shows beside its CSP section: the inline script is blocked (no tool), the
// external form's tool answers its text and its PNG.
func TestCSPExternalExample(t *testing.T) {
	skipWithoutBuild(t)
	inline := docBlock(t, "README.md", "## In a page", "html")
	const marker = "**The README's first example under a CSP.**"
	page := docBlock(t, pageGuide, marker, "html")
	tools := docBlock(t, pageGuide, marker, "js")
	require.Contains(t, page, `<script src="/tools.js"></script>`)
	loader := func(p string) string {
		return strings.Replace(p, `src="/webmcp-bridge/webmcp-bridge.js"`, `src="/dist/webmcp-bridge.js"`, 1)
	}
	mux := http.NewServeMux()
	mux.Handle("/dist/", http.StripPrefix("/dist/", serve.Handler(fromRoot("web", "dist"))))
	for path, body := range map[string]string{"/inline": loader(inline), "/external": loader(page)} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><meta charset=utf-8>" + body))
		})
	}
	mux.HandleFunc("/tools.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(tools))
	})
	srv := httptest.NewServer(withHeader(csp, "script-src 'self' 'wasm-unsafe-eval'", mux))
	t.Cleanup(srv.Close)
	base := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	ctx := browser(t, false)
	const tools0 = `for (let i = 0; i < 50 && !(await document.modelContext.getTools()).length; ` +
		`i++) await new Promise((r) => setTimeout(r, 20));
		return (await document.modelContext.getTools()).length;`
	var n int
	open(t, ctx, base+"/inline")
	eval(t, ctx, tools0, &n)
	assert.Zero(t, n, "the CSP blocks the inline script: no tool")

	open(t, ctx, base+"/external")
	eval(t, ctx, tools0, &n)
	require.Equal(t, 1, n)
	var r result
	eval(t, ctx, `return await WebMCPBridge.agent.callTool("chart", {});`, &r)
	require.Len(t, r.Content, 2, "%v", r.Content)
	assert.Equal(t, "Sales are up", r.Content[0]["text"])
	assert.Equal(t, "image/png", r.Content[1]["mimeType"])
}
