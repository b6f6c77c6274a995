//go:build !js

package browsertest

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtension loads the built extension (web/dist/extension) unpacked in headless Chromium. A page that never loads the
// bridge gets normalized results from plain WebMCP calls, and the side panel (opened as a tab
// pointed at that page) lists its tools, calls one and renders the re-normalized result.
func TestExtension(t *testing.T) {
	extDir, err := filepath.Abs(filepath.Join("..", "..", "web", "dist", "extension"))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(extDir, "dist", "webmcp-bridge.wasm"), "run make build (it builds the extension)")
	for _, native := range []bool{true, false} {
		base := serveWeb(t)
		ctx := browser(t, native,
			chromedp.Flag("disable-extensions-except", extDir),
			chromedp.Flag("load-extension", extDir))
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(420, 900)))
		open(t, ctx, base+"/test/plain.html")

		var r struct {
			Hello map[string]any `json:"hello"`
			Rich  map[string]any `json:"rich"`
		}
		eval(t, ctx, `await window.registered;
			const tools = await document.modelContext.getTools();
			const run = async (n) => JSON.parse(await document.modelContext.executeTool(tools.find((t) => t.name === n), {}));
			return {hello: await run("hello"), rich: await run("rich")};`, &r)
		assert.Equal(t, "complete", r.Hello["resultType"], "native=%v: a page without the script tag gets CallToolResults", native)
		assert.Equal(t, "hello from a plain page", r.Hello["content"].([]any)[0].(map[string]any)["text"])
		assert.NotContains(t, r.Rich["content"].([]any)[0].(map[string]any)["resource"].(map[string]any)["text"], "onerror")

		// A page cannot reach the bridge's extension channel: a forged relay message with a
		// guessed secret gets no answer, and the extension has no entry point for web pages.
		var forged struct {
			Answered bool `json:"answered"`
			Runtime  bool `json:"runtime"`
		}
		eval(t, ctx, `const ch = new MessageChannel(); let answered = false;
			ch.port1.onmessage = () => { answered = true; };
			window.postMessage({webmcpBridgeRelay: true, secret: "0-0-0-0"}, "*", [ch.port2]);
			ch.port1.postMessage({id: 1, secret: "0-0-0-0", op: "list"});
			await new Promise((r) => setTimeout(r, 300));
			return {answered, runtime: !!(globalThis.chrome && chrome.runtime && chrome.runtime.sendMessage)};`, &forged)
		assert.False(t, forged.Answered, "a forged relay port is ignored")
		assert.False(t, forged.Runtime, "pages get no chrome.runtime messaging into the extension")

		// Find the extension's id from its service worker, then open the panel as a tab.
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
		pageURL := base + "/test/plain.html"
		panel, cancel := chromedp.NewContext(ctx)
		defer cancel()
		require.NoError(t, chromedp.Do(panel, chromedp.EmulateViewport(420, 900)))
		open(t, panel, "chrome-extension://"+extID+"/panel.html?tabUrl="+url.QueryEscape(pageURL))
		var shown struct {
			Tools  []string `json:"tools"`
			Frames int      `json:"frames"`
			Text   string   `json:"text"`
			Errors []string `json:"errors"`
		}
		eval(t, panel, `
			await new Promise((r) => { const t = setInterval(() => { if (document.body.dataset.ready) { clearInterval(t); r(); } }, 20); });
			const tools = [...document.querySelectorAll(".tool")].map((c) => c.dataset.tool);
			document.querySelector('.tool[data-tool="rich"] button').click();
			await new Promise((r) => { const t = setInterval(() => { if (document.body.dataset.lastTool === "rich") { clearInterval(t); r(); } }, 20); });
			const box = document.querySelector("#result");
			return {tools, frames: box.querySelectorAll("iframe[sandbox='']").length, text: box.innerText, errors: []};`, &shown)
		assert.ElementsMatch(t, []string{"hello", "rich", "table"}, shown.Tools, "native=%v", native)
		assert.Equal(t, 1, shown.Frames, "the sanitized HTML renders in a sandboxed iframe")
		assert.Contains(t, shown.Text, "[html sanitized: removed")
		var waited bool
		eval(t, panel, `await new Promise((r) => setTimeout(r, 500)); return true`, &waited)
		png, err := chromedp.Run(panel, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		if native {
			saveScreenshot(t, "extension-panel.png", png)
		}
	}
}
