//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extensionGuide is the extension authors' guide, whose blocks make the kit's extension.
const extensionGuide = "docs/extension-authors.md"

// kitExtension builds the guide's extension as a third party would, from the packed npm tarball
// alone (`npm pack` of web/, after make build): the guide's install lines run in a new project,
// then its blocks are written as the extension's files. files replaces some of them (a test's
// own manifest). It returns the extension's folder.
func kitExtension(t *testing.T, files map[string]string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	web := fromRoot("web")
	require.FileExists(t, filepath.Join(web, "dist", "webmcp-bridge-content.js"), "run make build")
	tmp := t.TempDir()
	packed := filepath.Join(tmp, "packed")
	require.NoError(t, os.MkdirAll(packed, 0o755))
	run(t, ctx, web, "npm", "pack", "--ignore-scripts", "--silent", "--pack-destination", packed)
	tarballs, err := filepath.Glob(filepath.Join(packed, "*.tgz"))
	require.NoError(t, err)
	require.Len(t, tarballs, 1)

	project := filepath.Join(tmp, "your-project")
	require.NoError(t, os.MkdirAll(project, 0o755))
	run(t, ctx, project, "npm", "init", "-y")
	lines := docBlock(t, extensionGuide, "## The kit", "sh")
	require.Contains(t, lines, "/path/to/webmcp-bridge-wasm-0.3.0.tgz")
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(tarballs[0]), "webmcp-bridge-wasm-"), ".tgz")
	require.Equal(t, "0.3.0", version, "the guide names the tarball of the package's version")
	script := strings.ReplaceAll(lines, "/path/to/webmcp-bridge-wasm-0.3.0.tgz", tarballs[0])
	script = strings.ReplaceAll(script, "/path/to/your-project", project)
	require.NotContains(t, script, "/path/to")
	run(t, ctx, tmp, "bash", "-e", "-c", script)

	// The kit's ES modules resolve as the package's exports, with their typings.
	out, err := commandIn(ctx, project, "node", "--input-type=module", "-e", `
		import { connectPage } from "webmcp-bridge-wasm/content";
		import { render, toolList, formFor, fitHTMLFrames } from "webmcp-bridge-wasm/render";
		console.log([connectPage, render, toolList, formFor, fitHTMLFrames].map((f) => typeof f).join(" "));`).
		CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "function function function function function\n", string(out))
	for _, f := range []string{"page-link.d.ts", "render.d.ts"} {
		require.FileExists(t, filepath.Join(project, "node_modules", "webmcp-bridge-wasm", "dist", "types", f))
	}

	ext := filepath.Join(project, "extension")
	blocks := map[string][2]string{
		"manifest.json":  {"## The manifest", "json"},
		"content.js":     {"## The content script", "js"},
		"panel.html":     {"## The side panel", "html"},
		"panel.js":       {"`panel.js` lists", "js"},
		"offscreen.html": {"`offscreen.html`:", "html"},
		"offscreen.js":   {"`offscreen.js`:", "js"},
		"background.js":  {"`background.js`:", "js"},
	}
	for name, at := range blocks {
		text, ok := files[name]
		if !ok {
			text = docBlock(t, extensionGuide, at[0], at[1])
		}
		require.NoError(t, os.WriteFile(filepath.Join(ext, name), []byte(text), 0o644))
	}
	return ext
}

// TestExtensionKit (issue 37): an extension built from the guide and the npm tarball alone,
// loaded unpacked into headless Chromium, calls a page's text, HTML and image tools from its side
// panel (rendered) and from its service worker (normalized in the offscreen document), with
// native WebMCP and with the bridge's own ModelContext. The sanitizer's notice is the
// extension's own (webmcp-bridge/notice), and the hand-off is gone from the page.
func TestExtensionKit(t *testing.T) {
	skipWithoutBuild(t)
	ext := kitExtension(t, nil)
	base := serveWeb(t)
	pageURL := base + "/test/agent-tools.html"
	for _, native := range []bool{true, false} {
		t.Run(map[bool]string{true: "native", false: "fallback"}[native], func(t *testing.T) {
			browserCtx := browser(t, native,
				chromedp.Flag("disable-extensions-except", ext), chromedp.Flag("load-extension", ext))
			page, cancel := chromedp.NewContext(browserCtx)
			t.Cleanup(cancel)
			open(t, page, pageURL)
			var state struct {
				Native   bool `json:"native"`
				HandOff  bool `json:"handOff"`
				Tools    int  `json:"tools"`
				Bridging bool `json:"bridging"`
			}
			eval(t, page, `await window.registered; return {native: WebMCPBridge.native,
				handOff: document.documentElement.hasAttribute("data-webmcp-bridge"),
				tools: (await document.modelContext.getTools()).length, bridging: WebMCPBridge.normalizing}`, &state)
			assert.Equal(t, native, state.Native)
			assert.False(t, state.HandOff, "the hand-off is not on the page")
			assert.Equal(t, 6, state.Tools)

			// The service worker's agent, through the offscreen document.
			worker := serviceWorker(t, browserCtx)
			var tabID int
			eval(t, worker, `return (await chrome.tabs.query({url: `+jsString(pageURL)+`}))[0].id`, &tabID)
			call := func(name string, args map[string]any) map[string]any {
				t.Helper()
				a, _ := json.Marshal(args)
				var out map[string]any
				eval(t, worker, `return await callTool(`+strconv.Itoa(tabID)+`, `+jsString(name)+`, `+string(a)+`)`, &out)
				return out
			}
			var answers string
			eval(t, worker, `return JSON.stringify([
				await chrome.tabs.sendMessage(`+strconv.Itoa(tabID)+`, {op: "list"}),
				await chrome.tabs.sendMessage(`+strconv.Itoa(tabID)+`, {op: "call", name: "echo", args: {text: "hi"}})])`, &answers)
			assert.NotContains(t, answers, "secret", "what the helper hands on carries no secret")
			assert.Contains(t, answers, `"raw":"you said hi"`)
			echo := call("echo", map[string]any{"text": "hi"})
			assert.Equal(t, "you said hi", blockAt(echo, 0)["text"], "%v", echo)
			rich := call("rich", map[string]any{})
			text, _ := json.Marshal(rich["result"])
			t.Logf("service worker agent, rich: %s", text)
			assert.Contains(t, string(text), `"mimeType":"text/html"`)
			html, _ := blockAt(rich, 0)["resource"].(map[string]any)
			assert.Equal(t, "<p>Rich <b>text</b></p> ", html["text"], "sanitized")
			var noticeMarked bool
			for i := range 4 {
				b := blockAt(rich, i)
				if s, _ := b["text"].(string); strings.Contains(s, "html sanitized: removed") {
					meta, _ := b["_meta"].(map[string]any)
					_, noticeMarked = meta["webmcp-bridge/notice"]
				}
			}
			assert.True(t, noticeMarked, "the sanitizer's notice is the extension's own: %s", text)
			chart := call("chart", map[string]any{})
			assert.Equal(t, "image", blockAt(chart, 0)["type"], "%v", chart)
			assert.Equal(t, "image/png", blockAt(chart, 0)["mimeType"])
			assert.NotContains(t, blockAt(chart, 0)["data"], "data:", "plain base64")
			model, _ := chart["modelInput"].(map[string]any)
			assert.NotEmpty(t, model["attachments"], "the image is an attachment of the model input")

			// The side panel, opened as a page for the tab: it lists, calls and renders.
			panel, cancelPanel := chromedp.NewContext(browserCtx)
			t.Cleanup(cancelPanel)
			open(t, panel, "chrome-extension://"+extensionID(t, browserCtx)+"/panel.html?tab="+strconv.Itoa(tabID))
			var shown struct {
				Tools  []string `json:"tools"`
				Echo   string   `json:"echo"`
				Notice string   `json:"notice"`
				Frame  string   `json:"frame"`
				Image  string   `json:"image"`
			}
			eval(t, panel, `
				const until = async (f) => { for (let i = 0; i < 100; i++) { const v = f(); if (v) return v; await new Promise((r) => setTimeout(r, 100)); } return null; };
				const press = async (name, fill) => {
					const card = await until(() => document.querySelector('.tool[data-tool="' + name + '"]'));
					if (fill) card.querySelector("input").value = fill;
					document.getElementById("result").replaceChildren();
					card.querySelector("button").click();
					return until(() => document.querySelector("#result .wmb-result"));
				};
				await until(() => document.querySelectorAll(".tool").length === 6);
				const out = {tools: [...document.querySelectorAll(".tool")].map((c) => c.dataset.tool)};
				out.echo = (await press("echo", "hi")).querySelector(".wmb-text").textContent;
				const rich = await press("rich");
				out.notice = rich.querySelector(".wmb-notice")?.textContent ?? "";
				out.frame = rich.querySelector("iframe.wmb-html")?.srcdoc ?? "";
				out.image = (await press("chart")).querySelector("img")?.src ?? "";
				return out;`, &shown)
			assert.Equal(t, []string{"buy", "chart", "echo", "rich", "slow", "table"}, shown.Tools)
			assert.Equal(t, "you said hi", shown.Echo)
			assert.Contains(t, shown.Notice, "html sanitized: removed", "highlighted as the panel's own notice")
			assert.Contains(t, shown.Frame, "<b>text</b>")
			assert.NotContains(t, shown.Frame, "onerror")
			assert.True(t, strings.HasPrefix(shown.Image, "data:image/png;base64,"), shown.Image)
			t.Logf("side panel: tools %v; echo %q; notice %q; image %.40s…", shown.Tools, shown.Echo, shown.Notice, shown.Image)
		})
	}
}

// blockAt is content block i of a {result} answer of the guide's callTool (nil when absent).
func blockAt(answer map[string]any, i int) map[string]any {
	r, _ := answer["result"].(map[string]any)
	content, _ := r["content"].([]any)
	if i >= len(content) {
		return nil
	}
	b, _ := content[i].(map[string]any)
	return b
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
