//go:build !js

package browsertest

import (
	"context"
	"testing"
	"time"
)

// TestSvelteKitApp builds a SvelteKit 3 app (svelteapp/) with `vite build` and the Node adapter
// and serves the standalone server it writes: a page that imports the package and registers a
// tool in onMount. SvelteKit hints only the JavaScript and CSS a page imports, so with no
// configuration the page fetches neither the module nor the Worker until an agent calls, and the
// adapter's precompressed files serve them compressed.
func TestSvelteKitApp(t *testing.T) {
	skipWithoutBuild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	app := buildAndServe(t, ctx, ssrApp{
		folder: "svelteapp",
		files:  []string{"vite.config.js", "src/app.html", "src/routes/+page.svelte"},
		build:  []string{"$deps/node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"},
		serve:  []string{"build/index.js"},
	})
	checkLoadsNothingUntilCalled(t, app)
}
