//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeclarativeResultsAreNormalized: with normalization on, a form's respondWith value reaches
// an agent as an MCP CallToolResult, in both modes — the fallback runs it through the same path
// as script tools, and with native WebMCP the bridge wraps SubmitEvent.prototype.respondWith.
// A rejected promise is an isError result with its message, not an opaque UnknownError.
func TestDeclarativeResultsAreNormalized(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, _ bool) {
		open(t, ctx, base+"/test/declarative-tools.html")
		var got map[string]string
		runJS(t, ctx, "declarative.js", "results", &got)
		result := func(name string) map[string]any {
			var r map[string]any
			require.NoError(t, json.Unmarshal([]byte(got[name]), &r), "%s: %s", name, got[name])
			assert.Equal(t, "complete", r["resultType"], name)
			return r
		}
		greet := result("greet")
		assert.Equal(t, []any{map[string]any{"type": "text", "text": "Hello Ada"}}, greet["content"])
		article := result("article")
		blocks := article["content"].([]any)
		require.NotEmpty(t, blocks)
		res := blocks[0].(map[string]any)["resource"].(map[string]any)
		assert.Equal(t, "text/html", res["mimeType"])
		assert.NotContains(t, res["text"], "onerror", "the HTML is sanitized")
		broken := result("broken")
		assert.Equal(t, true, broken["isError"])
		assert.Contains(t, got["broken"], "out of range")
		assert.JSONEq(
			t,
			`{"type":"object","properties":{"who":{"type":"string","description":"who to greet"}},"required":["who"]}`,
			got["schema"],
		)
	})
}
