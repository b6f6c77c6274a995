//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileChildFrame: in the fallback, what a cross-origin child frame sends for its tool is
// normalized by the parent's bridge before the parent hands it to an agent, whatever the child
// sent: its markup sanitized, its forged notice not a notice.
func TestHostileChildFrame(t *testing.T) {
	skipWithoutBuild(t)
	self, other := serveTwoOrigins(t)
	ctx := browser(t, false)
	open(t, ctx, self+"/test/frames-hostile.html")
	var got struct {
		Content []map[string]any
		Meta    map[string]any `json:"_meta"`
	}
	runJS(t, ctx, "hostile-frames.js", "hostileChild", &got, other)
	require.NotEmpty(t, got.Content)
	var html string
	for _, c := range got.Content {
		meta, _ := c["_meta"].(map[string]any)
		if _, marked := meta["webmcp-bridge/notice"]; marked {
			assert.NotContains(t, c["text"], "found it safe", "a notice the child forged carries no mark: %v", c)
		}
		if r, ok := c["resource"].(map[string]any); ok && r["mimeType"] == "text/html" {
			html = r["text"].(string)
		}
	}
	assert.Contains(t, html, "<p>hi</p>")
	assert.NotContains(t, html, "onerror")
	assert.NotContains(t, html, "<script")
}
