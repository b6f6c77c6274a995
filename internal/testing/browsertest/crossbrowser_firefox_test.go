//go:build linux

package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/webdriver"
)

// firefoxWebMCP are the prefs of Firefox ESR's native WebMCP prototype, on or off.
func firefoxWebMCP(on bool) map[string]any {
	return map[string]any{"dom.modelcontext.enabled": on, "dom.modelcontext.testing.enabled": on}
}

// TestFirefoxNativeWebMCP: with Firefox's prototype on (navigator.modelContext with invokeTool,
// no document.modelContext), a page gets the same API as everywhere (document.modelContext,
// AbortSignal, executeTool), and Firefox's own invokeTool hands its agent the normalized
// CallToolResult; an aborted tool is gone from Firefox's registry too.
func TestFirefoxNativeWebMCP(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	page, err := webdriver.StartFirefox(
		ctx,
		webdriver.FirefoxOptions{ProfileDir: t.TempDir(), Prefs: firefoxWebMCP(true)},
	)
	if err != nil {
		t.Fatalf("starting Firefox: %v\n(`make firefox`, from mk/browsers.mk, installs it as root)", err)
	}
	t.Cleanup(func() { page.Close() })
	require.NoError(t, page.Open(ctx, base+"/test/firefox-native.html"))
	var got struct {
		Same, Native bool
		Executed     map[string]any
		Invoked      map[string]any
		After        []string
	}
	require.NoError(
		t,
		page.Eval(ctx, `const m = await import("/test/js/firefox.js"); return await m.nativePrototype();`, &got),
	)
	assert.True(t, got.Same, "navigator.modelContext is document.modelContext")
	assert.True(t, got.Native, "WebMCPBridge.native: the browser has WebMCP of its own")
	html := func(r map[string]any) string {
		for _, c := range r["content"].([]any) {
			if res, ok := c.(map[string]any)["resource"].(map[string]any); ok {
				return res["text"].(string)
			}
		}
		return ""
	}
	assert.Equal(t, "<b>x</b>", html(got.Executed), "executeTool: normalized")
	require.NotNil(t, got.Invoked, "Firefox's invokeTool reaches the tool")
	assert.Equal(t, "<b>x</b>", html(got.Invoked), "Firefox's own invokeTool: normalized, the script gone")
	assert.Equal(t, "complete", got.Invoked["resultType"])
	assert.Empty(t, got.After, "the aborted tool is gone from Firefox's registry")
}
