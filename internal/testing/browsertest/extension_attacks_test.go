//go:build !js

package browsertest

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionPageServiceWorkerCannotAnswerTheBridge (issue 35, point 11): a page's service
// worker answers every URL that names webmcp-bridge with a script of its own. Chromium asks it
// for what the module's Worker imports, the extension's URL included; so on a page a service
// worker controls, the extension's bridge starts no module and steps aside, saying why: the
// service worker is asked for none of the bridge's files and none of its scripts runs, the
// tools still answer, and the schema checker (on the page) still refuses.
func TestExtensionPageServiceWorkerCannotAnswerTheBridge(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachModeOf(t, extensionBrowser, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/sw.html")
		var ok bool
		eval(t, ctx, `return await window.controlled`, &ok)
		require.NoError(t, chromedp.Do(ctx, chromedp.Reload())) // now controlled from the start
		var got struct {
			Ready, Rich, Refused string
			Seen                 []string
			Forged, Controlled   bool
		}
		runJS(t, ctx, "extension.js", "underServiceWorker", &got)
		require.True(t, got.Controlled, "the page is under its service worker")
		for _, u := range got.Seen {
			assert.False(t, strings.Contains(u, "webmcp-bridge"), "the page's service worker was asked %s", u)
		}
		assert.False(t, got.Forged, "no script of the service worker's ran")
		assert.Contains(t, got.Ready, "a service worker controls this page", "the bridge says why it steps aside")
		assert.Equal(t, "answered", got.Rich, "the tools still answer")
		assert.Equal(t, "TypeError", got.Refused, "the schema checker on the page still refuses")
	})
}
