//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPatternCheckerFetchedOnFirstNeed: the loader a page pays at load leaves the pattern
// checker out; a page without a pattern in its schemas never fetches it, and the first schema
// with one fetches it once, beside the loader. Registration then decides as before, on the page
// (no module): a name is held while its schema waits, a pattern RE2 cannot parse or that uses
// ECMAScript-only syntax is refused with its path, and the others are registered.
func TestPatternCheckerFetchedOnFirstNeed(t *testing.T) {
	skipWithoutBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		reqs := openWithLoader(t, ctx, "/test/empty.html")
		assert.Zero(t, reqs.count("/dist/webmcp-bridge-patterns.mjs"), "no pattern, no checker: %v", reqs.urls)

		var got struct {
			First, Taken, Good, Wrong, EcmaOnly string
			Names                               []string
		}
		runJS(t, ctx, "chunks.js", "registerPatterns", &got)
		assert.Equal(t, "registered", got.First)
		assert.Regexp(t, `^InvalidStateError: `, got.Taken, "the name was held")
		assert.Equal(t, "registered", got.Good)
		assert.Equal(t, `TypeError: registerTool: inputSchema/properties/q/pattern: "(a" is not a valid regular expression`+
			` @/properties/q/pattern`, got.Wrong)
		assert.Equal(t, `TypeError: registerTool: inputSchema/properties/q/pattern: "(?=a)" uses lookahead, which this `+
			`bridge does not support (ECMAScript-only regular expression syntax) @/properties/q/pattern`, got.EcmaOnly)
		assert.Equal(t, []string{"good", "held"}, got.Names)
		assert.Equal(t, 1, reqs.count("/dist/webmcp-bridge-patterns.mjs"), "fetched once, at the first need")
		assert.Zero(t, reqs.count(".wasm"), "decided on the page, without the module")
	})
}

// openWithLoader opens page (served with the test build, every request logged) and adds the
// loader to it, as the chunk tests start.
func openWithLoader(t *testing.T, ctx context.Context, page string) *requests {
	t.Helper()
	base, reqs := serveLogged(t, fromRoot("out", "testdist"))
	open(t, ctx, base+page)
	var loaded bool
	runJS(t, ctx, "chunks.js", "addLoader", &loaded)
	require.True(t, loaded, "the loader ran")
	return reqs
}
