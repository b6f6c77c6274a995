//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModuleFetchedOnce: where the page's CSP (and the Worker's) does not allow WebAssembly, the
// module is never requested — not by the Worker, not by the page's thread; where the server sends
// it as application/octet-stream, it is requested once, compiled from those bytes, and the page
// hears one warning that names application/wasm.
func TestModuleFetchedOnce(t *testing.T) {
	skipWithoutBuild(t)
	t.Run("csp", func(t *testing.T) {
		base, log := serveLogged(t, fromRoot("web", "dist"))
		ctx := browser(t, false)
		open(t, ctx, base+"/csp/csp.html")
		var got struct {
			Ready, Data string
			Warnings    []string
		}
		runJS(t, ctx, "hostile.js", "withoutModule", &got)
		assert.Contains(t, got.Ready, "'wasm-unsafe-eval'")
		assert.JSONEq(t, `{"temperature":21.5}`, got.Data, "the tools work as the page wrote them")
		assert.Len(t, got.Warnings, 1, "%v", got.Warnings)
		assert.Zero(t, log.count(".wasm"), "a module that cannot run is not fetched")
	})
	t.Run("octet-stream", func(t *testing.T) {
		base, log := serveLogged(t, fromRoot("web", "dist"))
		ctx := browser(t, false)
		open(t, ctx, base+"/test/csp.html?dist=/octet/")
		var got struct {
			Data     map[string]any
			Ready    string
			Warnings []string
		}
		runJS(t, ctx, "fallback.js", "fetchedOnce", &got)
		assert.Equal(t, map[string]any{"temperature": 21.5}, got.Data, "normalized by the module")
		assert.Equal(t, "resolved", got.Ready)
		require.Len(t, got.Warnings, 1, "%v", got.Warnings)
		assert.Contains(t, got.Warnings[0], "served as application/octet-stream: serve it as application/wasm")
		assert.Equal(t, 1, log.count(".wasm"), "the module is fetched once")
	})
}
