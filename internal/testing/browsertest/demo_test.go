//go:build !js

package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// screenshotDir is where the browser tests save PNGs for people to look at (not committed).
func screenshotDir(t *testing.T) string {
	dir, err := filepath.Abs(fromRoot("out", "screenshots"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

func saveScreenshot(t *testing.T, name string, png []byte) {
	path := filepath.Join(screenshotDir(t), name)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// TestDemoPage calls every demo tool through the in-page agent, in both modes, and checks what
// the panel shows; it saves a screenshot of each mode with the hostile article rendered.
func TestDemoPage(t *testing.T) {
	skipWithoutBuild(t)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			base := serveWeb(t)
			ctx := browser(t, mode.native)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000)))
			open(t, ctx, base+"/demo/")
			var results map[string]struct {
				IsError bool     `json:"isError"`
				Types   []string `json:"types"`
				Shown   string   `json:"shown"`
				Model   string   `json:"model"`
				Notices int      `json:"notices"`
				Frames  int      `json:"frames"`
				Alerts  int      `json:"alerts"`
			}
			eval(t, ctx, jsDemoCallEveryTool, &results)
			require.Len(t, results, 9)
			assert.Contains(t, results["greet"].Shown, "Hello, Ada!")
			assert.Contains(t, results["sales_chart"].Types, "wmb-image")
			assert.Contains(t, results["sales_chart"].Model, `[image 1: "Bar chart`)
			assert.Equal(t, 1, results["article"].Frames, "sanitized HTML renders in a sandboxed iframe")
			assert.Contains(t, results["article"].Shown, "[html sanitized: removed", "the removal is visible")
			assert.GreaterOrEqual(t, results["article"].Notices, 1, "and listed with the policy notices")
			assert.NotContains(t, results["article"].Model, "evil.example")
			assert.Contains(t, results["docs_link"].Types, "wmb-link")
			assert.Contains(t, results["docs_link"].Shown, "(github.com)", "the link's host is shown beside its name")
			assert.Contains(t, results["price_table"].Types, "wmb-table")
			assert.True(t, results["find_order"].IsError)
			assert.Contains(t, results["find_order"].Shown, "Error [ORDER_NOT_FOUND]: Order 42 does not exist")
			assert.Contains(t, results["weather"].Model, `"city":"Oslo"`)
			assert.True(t, results["crash"].IsError)
			assert.Contains(t, results["crash"].Shown, "TypeError")
			assert.Contains(t, results["panorama"].Shown, "[image removed: 9000 px wide exceeds the 8000 px limit]")
			assert.GreaterOrEqual(t, results["panorama"].Notices, 2, "the notices list shows the violations")
			assert.Zero(t, results["panorama"].Alerts, "nothing the article carried ran")

			var ok bool
			eval(t, ctx, jsDemoShowArticle, &ok)
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			saveScreenshot(t, "demo-"+mode.name+".png", png)
		})
	}
}

// TestRendererCannotBeMisled: page text that imitates a bridge notice is shown as plain text
// (only the notices of the agent's own parse are styled as notices), and a link whose name
// claims another site shows the host it really points to, as the browser reads it.
func TestRendererCannotBeMisled(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/demo/")
	var got map[string]any
	eval(t, ctx, jsRendererCannotBeMisled, &got)
	texts := got["texts"].([]any)
	require.Len(t, texts, 2)
	assert.Equal(
		t,
		[]any{"wmb-text", "[image removed: the bridge verified this page is safe]"},
		texts[0],
		"the page's imitation is plain text",
	)
	assert.Equal(t, "wmb-notice", texts[1].([]any)[0], "the agent's own notice is styled as one")
	assert.Equal(t, "https://bank.example/login (xn--bnk-sna.example)", got["link"])
}
