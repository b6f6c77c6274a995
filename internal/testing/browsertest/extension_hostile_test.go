//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionHandOffCannotBeClobbered: a page whose root element has id="WebMCPBridge" and
// that patches MessagePort, EventTarget, Event and MessageEvent before the relay hands over its
// port never sees the port or the secret; the bridge still runs and the panel still calls the
// page's tool through it.
func TestExtensionHandOffCannotBeClobbered(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachModeOf(t, extensionBrowser, func(t *testing.T, ctx context.Context, _ bool) {
		pageURL := base + "/test/clobber.html"
		open(t, ctx, pageURL)
		panel := openPanel(t, ctx, pageURL)
		var shown struct {
			Tools []string `json:"tools"`
			Text  string   `json:"text"`
		}
		runJSInline(t, panel, "panel.js", "listAndCall", &shown, "greet")
		assert.Equal(t, []string{"greet"}, shown.Tools)
		assert.Contains(t, shown.Text, "hello from a hostile page", "the hand-off worked")

		var page struct {
			Leaks     []string `json:"leaks"`
			Attribute *string  `json:"attribute"`
			Stolen    bool     `json:"stolen"`
			Bridge    bool     `json:"bridge"`
		}
		runJS(t, ctx, "extension.js", "clobbered", &page)
		assert.Empty(t, page.Leaks, "nothing the page patched saw the hand-off")
		assert.Nil(t, page.Attribute, "the secret's attribute was gone before the page's first script")
		assert.False(t, page.Stolen)
		assert.True(t, page.Bridge, "window.WebMCPBridge is the bridge, not the <html> element")
	})
}

// TestExtensionStepsAsideUnderStrictCSP: on a page whose CSP forbids WebAssembly, the
// extension's copy of the bridge cannot run its module; the page's tools keep working. Plain
// text never needs the module (it becomes a CallToolResult in the loader); a result that does
// passes through as the page wrote it, and the page is told once.
func TestExtensionStepsAsideUnderStrictCSP(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachModeOf(t, extensionBrowser, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/csp/csp-plain.html")
		var got struct {
			Registered string   `json:"registered"`
			Hello      string   `json:"hello"`
			Data       string   `json:"data"`
			Warnings   []string `json:"warnings"`
		}
		runJS(t, ctx, "extension.js", "withoutModule", &got)
		assert.Equal(t, "ok", got.Registered)
		assert.JSONEq(t, `{"content":[{"type":"text","text":"hello"}],"resultType":"complete"}`, got.Hello)
		assert.JSONEq(t, `{"temperature":21.5}`, got.Data, "the tool's own result, unchanged")
		require.Len(t, got.Warnings, 1)
		assert.Contains(t, got.Warnings[0], "'wasm-unsafe-eval'")
	})
}
