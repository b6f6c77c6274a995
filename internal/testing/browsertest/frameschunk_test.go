//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFramesCodeFetchedOnFirstNeed: the loader a page pays at load leaves the fallback's frames
// exchange out (webmcp-bridge-frames.js, a chunk of its own): a page of one document never
// fetches it; once a child frame with the bridge says hello, the page fetches it (and so does
// the child, a frame from its start) and lists the child's tools as before. Where the browser has
// WebMCP of its own, frames are its own: the chunk is never fetched.
func TestFramesCodeFetchedOnFirstNeed(t *testing.T) {
	skipWithoutBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		reqs := openWithLoader(t, ctx, "/test/empty.html")
		var alone []string
		runJS(t, ctx, "frameschunk.js", "alone", &alone)
		assert.Equal(t, []string{"mine"}, alone)
		assert.Zero(t, reqs.count("webmcp-bridge-frames.js"), "no frame, no frames code: %v", reqs.urls)

		var listed []string
		runJS(t, ctx, "frameschunk.js", "withChild", &listed)
		if native {
			assert.Zero(t, reqs.count("webmcp-bridge-frames.js"), "native WebMCP's frames are the browser's")
			return
		}
		assert.Equal(t, []string{"kid", "mine"}, listed, "the child's tool, through the exchange")
		assert.Equal(t, 2, reqs.count("webmcp-bridge-frames.js"), "once by the page, once by its child")
	})
}
