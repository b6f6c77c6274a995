//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFallbackRefuse: on a page whose CSP does not allow WebAssembly, a page that asked for
// checked results only — data-fallback="refuse" on the script tag, setFallback("refuse") after
// importing the ES module — gets, for every call that needs the module, an isError result that
// names the directive to add instead of the tool's unchecked output; a tool whose plain text
// needs no module still answers; the page is told once.
func TestFallbackRefuse(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	for _, page := range []string{"/csp/csp.html?fallback=refuse", "/csp/csp-module.html"} {
		t.Run(page, func(t *testing.T) {
			eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
				open(t, ctx, base+page)
				var got struct {
					Ready, Registered string
					Hello, Data       map[string]any
					Typed             map[string]any
					Warnings          []string
					Violations        []map[string]any
				}
				runJS(t, ctx, "fallback.js", "refused", &got)
				assert.Equal(t, "ok", got.Registered)
				for name, r := range map[string]map[string]any{"data": got.Data, "typed": got.Typed} {
					assert.Equal(t, true, r["isError"], "%s: %v", name, r)
					assert.Nil(t, r["structuredContent"], "%s: nothing unchecked", name)
					text := r["content"].([]any)[0].(map[string]any)["text"]
					assert.Contains(t, text, "add 'wasm-unsafe-eval' to script-src", name)
					assert.Contains(t, text, `data-fallback="refuse"`, name)
				}
				assert.Equal(t, "hello", got.Hello["content"].([]any)[0].(map[string]any)["text"], "plain text needs no module")
				assert.Contains(t, got.Ready, "'wasm-unsafe-eval'")
				require.Len(t, got.Warnings, 1, "one console warning: %v", got.Warnings)
				assert.Contains(t, got.Warnings[0], "calls that need it answer an error")
				assert.Len(t, got.Violations, 1)
			})
		})
	}
}
