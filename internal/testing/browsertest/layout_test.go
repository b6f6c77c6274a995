//go:build !js

package browsertest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layoutWidths are the widths the demo and the panel are laid out at: a phone (390 px CSS, as an
// iPhone 12–15) and a desktop window.
var layoutWidths = []int64{390, 1280}

// TestDemoLayout lays the demo out at each width (Emulation.setDeviceMetricsOverride): nothing is
// wider than the viewport before or after any call, and after Call, pressed where the tool's card
// is, the result is in view. It saves a screenshot of the viewport after the article's Call.
func TestDemoLayout(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	for _, w := range layoutWidths {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			ctx := browser(t, false)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w, 844)))
			open(t, ctx, base+"/demo/")
			var got struct {
				Loaded int
				Calls  []struct {
					Tool         string
					ScrollWidth  int
					ResultTop    int
					ResultBottom int
					Height       int
				}
				Cards []int
			}
			eval(t, ctx, until+`await until(() => document.body.dataset.ready, 20000);
				const width = () => document.documentElement.scrollWidth;
				const out = {Loaded: width(), Calls: [], Cards: [...document.querySelectorAll(".tool")]`+
				`.map((c) => Math.ceil(c.getBoundingClientRect().right))};
				for (const name of ["greet", "sales_chart", "article", "docs_link", "price_table", "find_order", "weather", `+
				`"crash", "panorama"]) {
					const card = document.querySelector('.tool[data-tool="' + name + '"]');
					card.scrollIntoView({block: "center"});
					card.querySelector("button").click();
					await until(() => document.body.dataset.lastTool === name, 10000);
					document.body.dataset.lastTool = "";
					await new Promise(requestAnimationFrame);
					const r = document.getElementById("result").getBoundingClientRect();
					out.Calls.push({Tool: name, ScrollWidth: width(), ResultTop: Math.round(r.top), `+
				`ResultBottom: Math.round(r.bottom), Height: innerHeight});
				}
				return out;`, &got)
			assert.LessOrEqual(t, got.Loaded, int(w), "at %d px the page is no wider than the viewport", w)
			for i, right := range got.Cards {
				assert.LessOrEqual(t, right, int(w), "tool card %d fits", i)
			}
			for _, c := range got.Calls {
				assert.LessOrEqual(t, c.ScrollWidth, int(w), "after %s", c.Tool)
				assert.True(
					t,
					c.ResultTop >= 0 && c.ResultTop < c.Height,
					"after Call of %s the result's top is in view: %+v",
					c.Tool,
					c,
				)
			}
			var shown bool
			eval(
				t,
				ctx,
				`const card = document.querySelector('.tool[data-tool="article"]'); card.scrollIntoView({block: "center"});
				card.querySelector("button").click();
				for (let i = 0; i < 500 && document.body.dataset.lastTool !== "article"; `+
					`i++) await new Promise((r) => setTimeout(r, 20));
				await new Promise((r) => setTimeout(r, 300)); return true;`,
				&shown,
			)
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			saveScreenshot(t, fmt.Sprintf("demo-%d.png", w), png)
		})
	}
}

// inProcessSandboxedFrames keeps sandboxed frames in their parent's process, so that DevTools'
// DOM of the page reaches into them (frameDocumentHeight); it changes nothing of the layout.
var inProcessSandboxedFrames = chromedp.Flag("disable-features", "IsolateSandboxedIframes")

// TestExtensionPanelLayout opens the extension's panel at each width, calls a tool whose HTML is
// short and checks that the panel is no wider than its window and that the HTML's frame is as high
// as the document inside it (read through DevTools' DOM, which reaches into the sandboxed frame):
// no blank space under it, no scrolling inside it. It saves a screenshot at each width.
func TestExtensionPanelLayout(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	for _, w := range layoutWidths {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			ctx := extensionBrowser(t, false, inProcessSandboxedFrames)
			pageURL := base + "/test/plain.html"
			open(t, ctx, pageURL)
			panel := openPanel(t, ctx, pageURL)
			require.NoError(t, chromedp.Do(panel, chromedp.EmulateViewport(w, 900)))
			var got struct {
				ScrollWidth, FrameHeight, FrameWidth int
			}
			eval(t, panel, until+`
				await until(() => document.body.dataset.ready, 10000);
				document.querySelector('.tool[data-tool="rich"] button').click();
				await until(() => document.body.dataset.lastTool === "rich", 10000);
				const frame = document.querySelector("#result iframe.wmb-html");
				let last = -1;
				await until(() => { const h = frame.clientHeight; const same = h === last; last = h; `+
				`return same && frame.dataset.fitted; }, 10000);
				return {ScrollWidth: document.documentElement.scrollWidth, FrameHeight: frame.clientHeight, `+
				`FrameWidth: frame.clientWidth};`, &got)
			assert.LessOrEqual(t, got.ScrollWidth, int(w))
			content := frameDocumentHeight(t, panel)
			t.Logf("at %d px: the frame is %d px high, its document %.0f px", w, got.FrameHeight, content)
			assert.InDelta(t, content, float64(got.FrameHeight), 2, "the frame is as high as its document")
			png, err := chromedp.Run(panel, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			saveScreenshot(t, fmt.Sprintf("extension-panel-%d.png", w), png)
		})
	}
}

// frameDocumentHeight is the border-box height of the <html> of the first sanitized-HTML frame in
// #result, from DevTools' DOM (the frame runs no script, so nothing inside it can say it).
func frameDocumentHeight(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	depth, pierce := int64(-1), true
	doc, err := chromedp.Call(ctx, dom.GetDocument, dom.GetDocumentParams{Depth: &depth, Pierce: &pierce})
	require.NoError(t, err)
	var html *cdp.Node
	var walk func(n *cdp.Node)
	walk = func(n *cdp.Node) {
		if html != nil {
			return
		}
		if n.LocalName == "iframe" && slices.Contains(n.Attributes, "wmb-html") && n.ContentDocument != nil {
			for _, c := range n.ContentDocument.Children {
				if c.LocalName == "html" {
					html = c
				}
			}
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(doc.Root)
	require.NotNil(t, html, "a sanitized-HTML frame with a document")
	box, err := chromedp.Call(ctx, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: html.BackendNodeID})
	require.NoError(t, err)
	height := box.Model.Border[5] - box.Model.Border[1]
	return height
}

// until is a JS helper for the layout tests' eval bodies: it polls f every 20 ms and resolves
// true once f returns something truthy, or false after ms milliseconds.
const until = `const until = (f, ms = 5000) => new Promise((r) => { const t0 = Date.now();
	const t = setInterval(() => { const v = f(); if (v || Date.now() - t0 > ms) { clearInterval(t); r(!!v); } }, 20); });
`
