//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type conformanceResult struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// runConformance runs pages/conformance.js — the draft behaviours the WPT webmcp/imperative suite
// checks for one document — with normalization off, so results are raw as the draft gives them:
// against the bridge's own ModelContext (native false) or against Chromium's (native true, which
// the bridge then leaves alone).
func runConformance(t *testing.T, native bool) []conformanceResult {
	base := serveWeb(t)
	ctx := browser(t, native)
	open(t, ctx, base+"/test/conformance.html")
	var results []conformanceResult
	eval(t, ctx, `return await runConformance()`, &results)
	require.GreaterOrEqual(t, len(results), 40)
	return results
}

// TestFallbackConformance: the fallback passes every check.
func TestFallbackConformance(t *testing.T) {
	for _, r := range runConformance(t, false) {
		t.Run(r.Name, func(t *testing.T) {
			if !r.OK {
				t.Error(r.Error)
			}
		})
	}
}

// TestConformanceAgainstNative runs the same checks against native WebMCP, to keep the checks
// honest: the log lists where native Chromium differs, and no check may name a behaviour that
// native Chromium has and the fallback lacks.
func TestConformanceAgainstNative(t *testing.T) {
	fallback := map[string]bool{}
	for _, r := range runConformance(t, false) {
		fallback[r.Name] = r.OK
	}
	passed := 0
	for _, r := range runConformance(t, true) {
		if r.OK {
			passed++
			assert.True(t, fallback[r.Name], "%s: native Chromium passes it, the fallback does not", r.Name)
		} else {
			t.Logf("native Chromium fails %q: %s", r.Name, r.Error)
		}
	}
	t.Logf("native Chromium passes %d of %d checks; the fallback passes all it must", passed, len(fallback))
}
