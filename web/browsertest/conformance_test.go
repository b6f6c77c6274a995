//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFallbackConformance runs web/test/conformance.js — the draft behaviours the WPT
// webmcp/imperative suite checks for one document — against the bridge's own ModelContext
// (Chromium without WebMCP, normalization off so results are raw as the draft gives them).
func TestFallbackConformance(t *testing.T) {
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/conformance.html")
	var results []struct {
		Name  string `json:"name"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	eval(t, ctx, `return await runConformance()`, &results)
	require.GreaterOrEqual(t, len(results), 40)
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			if !r.OK {
				t.Error(r.Error)
			}
		})
	}
}
