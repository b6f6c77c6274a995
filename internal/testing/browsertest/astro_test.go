//go:build !js

package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestAstroApp builds an Astro app (astroapp/) with `astro build` and the Node adapter in
// middleware mode, served by Express with compression (server.mjs), as docs/page-authors.md
// tells Astro authors: the layout registers the page's tool on astro:page-load and aborts it on
// astro:before-swap, for the client router. Beside the checks every framework gets, a navigation
// by the client router keeps the document and the bridge, and leaves one tool, the new page's.
func TestAstroApp(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	app := buildAndServe(t, ctx, ssrApp{
		folder: "astroapp",
		files: []string{"astro.config.mjs", "server.mjs", "src/layouts/Page.astro", "src/pages/index.astro",
			"src/pages/two.astro"},
		build: []string{"$deps/node_modules/astro/bin/astro.mjs", "build"},
		serve: []string{"server.mjs"},
		env:   []string{"ASTRO_TELEMETRY_DISABLED=1"},
	})
	checkLoadsNothingUntilCalled(t, app, func(t *testing.T, bctx context.Context) {
		before := app.log.len()
		var got struct {
			SameDocument bool
			Tools        []string
			Text         string
		}
		eval(t, bctx, `window.sameDocument = true;
			document.getElementById("two").click();
			for (let i = 0; i < 500 && document.title !== "Bread"; i++) await new Promise((r) => setTimeout(r, 20));
			let tools = [], text = "";
			for (let i = 0; i < 250 && !text.includes("Bread"); i++) { // until astro:page-load has registered
				await new Promise((r) => setTimeout(r, 20));
				tools = (await document.modelContext.getTools()).map((t) => t.name);
				if (tools.length) text = (await WebMCPBridge.agent.callTool("recipe", {})).content[0].resource.text;
			}
			return {SameDocument: window.sameDocument === true, Tools: tools, Text: text};`, &got)
		assert.True(t, got.SameDocument, "the client router swapped the page in the same document")
		assert.Equal(t, []string{"recipe"}, got.Tools, "the first page's tool went with it")
		assert.Contains(t, got.Text, "<h2>Bread</h2><p>Boil</p>", "the tool is the new page's, normalized")
		for _, tr := range app.log.since(before) {
			assert.False(t, isBridgeFile(tr.path), "the navigation fetched %s again", tr.path)
		}
	})
}
