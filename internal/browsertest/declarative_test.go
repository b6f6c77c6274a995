//go:build !js

package browsertest

import (
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
	base := serveWeb(t)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			ctx := browser(t, m.native)
			open(t, ctx, base+"/test/declarative-tools.html")
			var got map[string]string
			eval(t, ctx, `
				const mc = document.modelContext;
				for (let i = 0; i < 100 && (await mc.getTools()).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
				const out = {};
				for (const [name, args] of [["greet", { who: "Ada" }], ["article", {}], ["broken", {}]]) {
					const tool = (await mc.getTools()).find((t) => t.name === name);
					try { out[name] = await mc.executeTool(tool, args); } catch (e) { out[name] = "rejected: " + e.name + ": " + e.message; }
				}
				out.schema = JSON.stringify((await mc.getTools()).find((t) => t.name === "greet").inputSchema);
				return out;`, &got)
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
			assert.JSONEq(t, `{"type":"object","properties":{"who":{"type":"string","description":"who to greet"}},"required":["who"]}`, got["schema"])
		})
	}
}
