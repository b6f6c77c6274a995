//go:build !js

package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// extensionBrowser starts headless Chromium with the built extension (web/dist/extension)
// loaded unpacked.
func extensionBrowser(t *testing.T, native bool, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	extDir, err := filepath.Abs(fromRoot("web", "dist", "extension"))
	require.NoError(t, err)
	require.FileExists(
		t,
		filepath.Join(extDir, "dist", "webmcp-bridge.wasm"),
		"run make build (it builds the extension)",
	)
	ctx := browser(t, native, append(extra,
		chromedp.Flag("disable-extensions-except", extDir),
		chromedp.Flag("load-extension", extDir))...)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(420, 900)))
	return ctx
}

// extensionID is the id of the extension loaded in the browser of ctx, from its service worker.
func extensionID(t *testing.T, ctx context.Context) string {
	t.Helper()
	var extID string
	for i := 0; i < 50 && extID == ""; i++ {
		targets, err := chromedp.Targets(ctx)
		require.NoError(t, err)
		for _, tg := range targets {
			if strings.HasPrefix(tg.URL, "chrome-extension://") {
				extID = strings.Split(strings.TrimPrefix(tg.URL, "chrome-extension://"), "/")[0]
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	require.NotEmpty(t, extID, "the extension's service worker did not start")
	return extID
}

// openPanel opens the side panel of the extension as a new tab pointed at the tab showing
// pageURL.
func openPanel(t *testing.T, ctx context.Context, pageURL string) context.Context {
	t.Helper()
	extID := extensionID(t, ctx)
	panel, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(panel, chromedp.EmulateViewport(420, 900)))
	open(t, panel, "chrome-extension://"+extID+"/panel.html?tabUrl="+url.QueryEscape(pageURL))
	return panel
}

// runJSInline is runJS for a page whose CSP lets it import nothing from the test server (the
// extension's side panel): it evaluates the text of pages/js/<file>, its exports made plain
// declarations, and calls fn with args (as JSON). The file must import nothing.
func runJSInline(t *testing.T, ctx context.Context, file, fn string, out any, args ...any) {
	t.Helper()
	require.NoError(t, headless.Eval(ctx, inlineJS(t, file, fn, args...), out), "%s %s", file, fn)
}

// inlineJS is the body runJSInline evaluates: the text of pages/js/<file>, its exports made
// plain declarations, and a call of fn with args (as JSON).
func inlineJS(t *testing.T, file, fn string, args ...any) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("pages", "js", file))
	require.NoError(t, err)
	a, err := jsArgs(args)
	require.NoError(t, err)
	return exportKeyword.ReplaceAllString(string(src), "") + fmt.Sprintf("\nreturn await %s(...%s);", fn, a)
}

// exportKeyword is the keyword that starts an export at the start of a line.
var exportKeyword = regexp.MustCompile(`(?m)^export `)

// TestExtension loads the built extension (web/dist/extension) unpacked in headless Chromium. A
// page that never loads the bridge gets normalized results from plain WebMCP calls, and the side
// panel (opened as a tab pointed at that page) lists its tools, calls one and renders the
// re-normalized result.
func TestExtension(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachModeOf(t, extensionBrowser, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, base+"/test/plain.html")

		var r struct {
			Hello map[string]any `json:"hello"`
			Rich  map[string]any `json:"rich"`
		}
		runJS(t, ctx, "extension.js", "plainResults", &r)
		assert.Equal(
			t,
			"complete",
			r.Hello["resultType"],
			"native=%v: a page without the script tag gets CallToolResults",
			native,
		)
		assert.Equal(t, "hello from a plain page", r.Hello["content"].([]any)[0].(map[string]any)["text"])
		assert.NotContains(
			t,
			r.Rich["content"].([]any)[0].(map[string]any)["resource"].(map[string]any)["text"],
			"onerror",
		)

		// A page cannot reach the bridge's extension channel: a forged relay message with a
		// guessed secret gets no answer, and the extension has no entry point for web pages.
		var forged struct {
			Answered bool `json:"answered"`
			Runtime  bool `json:"runtime"`
		}
		runJS(t, ctx, "extension.js", "forgedRelay", &forged)
		assert.False(t, forged.Answered, "a forged relay port is ignored")
		assert.False(t, forged.Runtime, "pages get no chrome.runtime messaging into the extension")

		pageURL := base + "/test/plain.html"
		panel := openPanel(t, ctx, pageURL)
		var shown struct {
			Tools  []string `json:"tools"`
			Origin string   `json:"origin"`
			Frames int      `json:"frames"`
			Text   string   `json:"text"`
			From   string   `json:"from"`
		}
		runJSInline(t, panel, "panel.js", "listAndCall", &shown, "rich")
		assert.ElementsMatch(t, []string{"hello", "rich", "table"}, shown.Tools, "native=%v", native)
		assert.Equal(t, base, shown.Origin, "the panel names the origin the tools belong to")
		assert.Contains(t, shown.From, base, "a result names the origin it came from")
		assert.Equal(t, 1, shown.Frames, "the sanitized HTML renders in a sandboxed iframe")
		assert.Contains(t, shown.Text, "[html sanitized: removed")
		time.Sleep(500 * time.Millisecond)
		png, err := chromedp.Run(panel, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		if native {
			saveScreenshot(t, "extension-panel.png", png)
		}
	})
}

// TestExtensionNavigation: the panel's tool list belongs to one document of one origin. With the
// panel open for a page on one origin, the same tab navigates to another origin whose page
// registers a different tool of the same name. A call from the stale list must not run the new
// page's tool, nor show its result under the old origin; the panel then lists the new page's
// tools under the new origin on its own. The relay refuses calls addressed to another origin and
// stamps every answer with its page's origin.
func TestExtensionNavigation(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t) // http://localhost:PORT
	second := base
	first := strings.Replace(base, "//localhost:", "//127.0.0.1:", 1) // the same server, another origin
	require.NotEqual(t, first, second)
	firstURL, secondURL := first+"/test/greet-first.html", second+"/test/greet-second.html"
	eachModeOf(t, extensionBrowser, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, firstURL)
		var ok bool
		eval(t, ctx, `await window.registered; return true`, &ok)
		panel := openPanel(t, ctx, firstURL)

		type listing struct {
			Ready  bool   `json:"ready"`
			Origin string `json:"origin"`
			Tools  []string
			Desc   string `json:"desc"`
		}
		var before listing
		runJSInline(t, panel, "panel.js", "listing", &before)
		runJSInline(t, panel, "panel.js", "keepGreetButton", &ok)
		require.True(t, before.Ready)
		assert.Equal(t, first, before.Origin, "the panel shows the origin of the tools it lists")
		assert.Equal(t, "Greets you from the first site", before.Desc)

		// The same tab goes to another origin that registers its own "greet".
		open(t, ctx, secondURL)
		eval(t, ctx, `await window.registered; return true`, &ok)

		// A call from the list the panel showed for the first origin.
		type result struct {
			Done  bool   `json:"done"`
			Title string `json:"title"`
			From  string `json:"from"`
			Text  string `json:"text"`
		}
		var stale result
		runJSInline(t, panel, "panel.js", "callGreet", &stale, true)
		require.True(t, stale.Done, "the stale call gives an answer")
		assert.NotContains(
			t,
			stale.Text,
			"second site",
			"the second origin's result is never shown for the first origin's tool",
		)
		assert.Contains(t, stale.Text, "not called")
		assert.Contains(t, stale.Title+" "+stale.From, first, "the refusal names the origin the stale list was for")

		// The panel has refreshed on its own: the second origin's tool, under that origin.
		var after listing
		runJSInline(t, panel, "panel.js", "listing", &after, map[string]string{"origin": second})
		assert.True(t, after.Ready, "the panel refreshes when the tab navigates")
		assert.Equal(t, second, after.Origin)
		assert.Equal(t, "Greets you from the second site", after.Desc)
		var fresh result
		runJSInline(t, panel, "panel.js", "callGreet", &fresh, false)
		assert.True(t, fresh.Done)
		assert.Contains(t, fresh.Text, "hello from the second site")
		assert.Contains(t, fresh.From, second, "the result names the origin it came from")

		// The relay's side of the protocol, spoken directly from the extension page: every
		// answer carries the page's origin and URL; a call addressed to another origin, or
		// naming a tool this port was never shown, is refused unrun.
		var wire struct {
			List     map[string]any `json:"list"`
			Wrong    map[string]any `json:"wrong"`
			NoOrigin map[string]any `json:"noOrigin"`
			Unlisted map[string]any `json:"unlisted"`
			Right    map[string]any `json:"right"`
		}
		runJSInline(t, panel, "panel.js", "relayWire", &wire, secondURL, first)
		assert.Equal(t, second, wire.List["origin"], "a list answer carries the page's origin")
		assert.Equal(t, secondURL, wire.List["url"], "and its URL")
		for name, refused := range map[string]map[string]any{
			"wrong origin": wire.Wrong, "no origin": wire.NoOrigin, "unlisted": wire.Unlisted,
		} {
			assert.NotEmpty(t, refused["refused"], "%s: refused", name)
			assert.Nil(t, refused["raw"], "%s: the tool did not run", name)
			assert.Equal(t, second, refused["origin"], "%s: the refusal carries the page's origin", name)
		}
		assert.Equal(t, second, wire.Right["origin"])
		assert.Contains(t, wire.Right["raw"], "hello from the second site")

		// In the same document, the page replaces "greet" by another tool of that name. A
		// call made from the earlier listing is refused unrun; the panel never shows the new
		// tool's result under the old description, and lists the new tool.
		eval(t, ctx, `await window.swap(); return true`, &ok)
		var swapped struct {
			Refused string `json:"refused"`
			Raw     any    `json:"raw"`
			Desc    string `json:"desc"`
			Text    string `json:"text"`
			Listed  bool   `json:"listed"`
		}
		runJSInline(t, panel, "panel.js", "afterSwap", &swapped, second)
		assert.Equal(
			t,
			"toolchange",
			swapped.Refused,
			"a call for a tool that has changed since it was listed is refused",
		)
		assert.Nil(t, swapped.Raw)
		if strings.Contains(swapped.Text, "swapped tool") {
			assert.Equal(
				t,
				"Another greet, swapped in",
				swapped.Desc,
				"the new tool's result only under its own description",
			)
		} else {
			assert.Contains(t, swapped.Text, "not called")
		}
		assert.True(t, swapped.Listed, "the panel lists the tool that replaced greet")

		// A tool registered later appears without a refresh: the browser's toolchange (native) or
		// the loader's forwarded one (fallback) reaches the relay.
		runJS(t, ctx, "extension.js", "registerLater", &ok)
		var later listing
		runJSInline(t, panel, "panel.js", "listing", &later, map[string]string{"tool": "later"})
		assert.True(t, later.Ready, "the panel refreshes on toolchange")
		assert.ElementsMatch(t, []string{"greet", "later"}, later.Tools)
		assert.Equal(t, second, later.Origin)
	})
}
