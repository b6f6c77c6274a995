//go:build linux

package browsertest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// callTool calls a tool of tools.html through the page's executeTool (bridge.js) and reports
// whether it gave a complete CallToolResult.
func (c *checkT) callTool(name string, args map[string]any) (result, bool) {
	var r result
	if !c.run("bridge.js", "callTool", &r, name, args) {
		return r, false
	}
	return r, assert.Equal(c, "complete", r.ResultType, "every result is a complete CallToolResult")
}

// endToEnd are the calls of tools.html's tools, with what each result must be, in order.
var endToEnd = []struct {
	tool  string
	args  map[string]any
	check func(c *checkT, r result)
}{
	{"text", noArgs, func(c *checkT, r result) {
		assert.Equal(c, []map[string]any{{"type": "text", "text": "hello"}}, r.Content)
	}},
	{"html", noArgs, func(c *checkT, r result) {
		if assert.Len(c, r.Content, 3) {
			assert.Equal(
				c,
				"<p>Hi <b>there</b></p>",
				strings.TrimSpace(r.Content[0]["resource"].(map[string]any)["text"].(string)),
			)
			assert.Equal(c, "Hi there", r.Content[1]["text"])
			assert.Contains(c, r.Content[2]["text"], "[html sanitized: removed")
		}
	}},
	{"link", noArgs, func(c *checkT, r result) {
		assert.Equal(
			c,
			map[string]any{"type": "resource_link", "uri": "https://example.com/docs", "name": "Docs", "title": "Docs"},
			r.Content[0],
		)
	}},
	{"table", noArgs, func(c *checkT, r result) {
		assert.Equal(c, "| a | b |\n| --- | --- |\n| 1 | x\\|y |", r.Content[0]["text"])
		assert.Equal(c, "text/csv", r.Content[1]["resource"].(map[string]any)["mimeType"])
	}},
	{"error", noArgs, func(c *checkT, r result) {
		assert.True(c, r.IsError)
		assert.Equal(c, "Error [E404]: not found", r.Content[0]["text"])
	}},
	{"image", noArgs, func(c *checkT, r result) {
		assert.Equal(c, "image", r.Content[0]["type"])
		assert.Equal(c, "image/png", r.Content[0]["mimeType"])
		assert.NotContains(c, r.Content[0]["data"], "data:")
		assert.Equal(c, map[string]any{"alt": "dot"}, r.Content[0]["_meta"])
	}},
	{"canvas", noArgs, func(c *checkT, r result) {
		assert.Equal(c, "image/png", r.Content[0]["mimeType"], "a canvas becomes a PNG")
	}},
	{"mcp", noArgs, func(c *checkT, r result) {
		assert.Equal(
			c,
			map[string]any{
				"type":        "text",
				"text":        "native",
				"annotations": map[string]any{"audience": []any{"assistant"}, "priority": 0.0},
				"_meta":       map[string]any{"k": 1.0},
			},
			r.Content[0],
			"priority 0 survives",
		)
		assert.Equal(
			c,
			map[string]any{"type": "resource_link", "uri": "https://example.com/r", "name": "r"},
			r.Content[1],
		)
		assert.Equal(c, map[string]any{"n": 1.0}, r.StructuredContent)
	}},
	{"unknown_block", noArgs, func(c *checkT, r result) {
		assert.Equal(
			c,
			`{"content":[{"type":"text","text":"a"},{"type":"widget","props":{"x":1}}]}`,
			r.Content[0]["text"],
			"an unknown block keeps the whole value as data",
		)
		assert.NotNil(c, r.StructuredContent)
	}},
	{"data", noArgs, func(c *checkT, r result) {
		assert.Equal(c, map[string]any{"temperature": 21.5, "unit": "C"}, r.StructuredContent)
		assert.Equal(c, `{"temperature":21.5,"unit":"C"}`, r.Content[0]["text"])
	}},
	{"throws", noArgs, func(c *checkT, r result) {
		assert.True(c, r.IsError)
		assert.Equal(c, "Error: RangeError: bad range", r.Content[0]["text"], "the message reaches the agent")
	}},
	{"rejects", noArgs, func(c *checkT, r result) {
		assert.True(c, r.IsError)
		assert.Equal(c, "Error: nope", r.Content[0]["text"], "one prefix, the way a person writes it")
	}},
	{"cyclic", noArgs, func(c *checkT, r result) {
		assert.True(c, r.IsError)
		assert.Contains(c, r.Content[0]["text"], "cannot be serialized to JSON")
	}},
	{"huge", noArgs, func(c *checkT, r result) {
		assert.True(c, r.IsError, "20 MiB of text is over maxResultBytes: refused before it reaches the module")
		assert.Equal(c, "[result refused: the result is more than 16 MiB of JSON (the limit)]", r.Content[0]["text"])
	}},
	{"typed", map[string]any{"color": "red"}, func(c *checkT, r result) {
		assert.Equal(c, "color red", r.Content[0]["text"])
	}},
}

// TestBridge holds the bridge to the same results in every browser and in both modes (native
// WebMCP wrapped in Chromium and Firefox's prototype, the fallback everywhere): the mode and the
// secure context, every tool of tools.html end to end, invalid arguments, 1,000 concurrent
// calls, the page API, the agent API, an agent that distrusts a page's raw output (a page whose
// bridge does not normalize hands back a forged CallToolResult) and the loader's plain-text fast
// path against the module.
func TestBridge(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	forEachBrowserAndMode(t, func(r *crossRun) {
		r.open(base + "/test/tools.html")
		r.check("bridge/the mode, on a secure context", func(c *checkT) {
			var secure bool
			if c.eval(`return isSecureContext`, &secure) {
				assert.True(c, secure, "http://localhost is a secure context")
			}
			var info struct {
				Native bool   `json:"native"`
				Same   bool   `json:"same"`
				Ver    string `json:"version"`
			}
			if c.run("bridge.js", "info", &info) {
				// Firefox's prototype is native WebMCP, behind the bridge's own ModelContext.
				assert.Equal(
					c,
					r.native || r.browser == "firefox-webmcp",
					info.Native,
					"native WebMCP only in Chromium with WebMCP on and with Firefox's prototype on",
				)
				assert.True(c, info.Same, "navigator.modelContext is document.modelContext")
				assert.NotEmpty(c, info.Ver)
			}
		})
		for _, call := range endToEnd {
			r.check("bridge/end-to-end/"+call.tool, func(c *checkT) {
				if res, ok := c.callTool(call.tool, call.args); ok {
					call.check(c, res)
				}
			})
		}
		r.check("bridge/invalid arguments", func(c *checkT) {
			if res, ok := c.callTool("typed", map[string]any{"color": "blue"}); ok {
				assert.True(c, res.IsError)
				assert.Equal(
					c,
					`Error: invalid arguments at "/color": "blue" is not one of ["red","green"] (enum)`,
					res.Content[0]["text"],
				)
			}
		})
		r.check("bridge/1,000 concurrent calls", func(c *checkT) {
			var bad []string
			if c.run("bridge.js", "concurrentCalls", &bad) {
				assert.Empty(c, bad, "each of 1,000 calls settles with its own result")
			}
		})

		r.open(base + "/test/tools.html")
		r.check("bridge/the page API", func(c *checkT) {
			var got struct {
				Violations []map[string]any `json:"violations"`
				Events     int              `json:"events"`
				BadPolicy  string           `json:"badPolicy"`
				Strict     map[string]any   `json:"strict"`
				Policy     map[string]any   `json:"policy"`
				Typed      map[string]any   `json:"typed"`
				Model      map[string]any   `json:"model"`
			}
			if !c.run("bridge.js", "pageAPI", &got) {
				return
			}
			if assert.Len(c, got.Violations, 2, "the sanitized html and the refused link") {
				assert.Equal(c, "html", got.Violations[0]["limit"])
				assert.Equal(c, "linkSchemes", got.Violations[1]["limit"])
			}
			assert.Equal(c, 2, got.Events)
			assert.Equal(c, `policy: unknown setting "maxImageByte"`, got.BadPolicy)
			assert.Equal(c, true, got.Strict["isError"])
			assert.Equal(c, true, got.Policy["strict"])
			typed, _ := got.Typed["content"].([]any)
			if assert.Len(c, typed, 3, "a Blob, an ArrayBuffer and a typed array") {
				for _, b := range typed {
					assert.Equal(c, "image/png", b.(map[string]any)["mimeType"], "binary results become images")
				}
			}
			assert.Equal(c, `[image 1: "dot"]`, got.Model["text"])
			assert.Len(c, got.Model["attachments"], 1)
		})

		r.open(base + "/test/tools.html")
		r.check("bridge/the agent API", func(c *checkT) {
			var got struct {
				Tools   []map[string]any `json:"tools"`
				Unknown string           `json:"unknown"`
				Aborted string           `json:"aborted"`
				Throws  map[string]any   `json:"throws"`
			}
			if !c.run("bridge.js", "agentAPI", &got) {
				return
			}
			assert.GreaterOrEqual(c, len(got.Tools), 15)
			for _, tool := range got.Tools {
				assert.IsType(c, map[string]any{}, tool["inputSchema"], "inputSchema is always an object")
			}
			assert.Equal(c, `webmcp-bridge: no tool named "nope" on this page`, got.Unknown)
			assert.Equal(c, "stop", got.Aborted)
			assert.Equal(c, true, got.Throws["isError"])
		})

		r.open(base + "/test/conformance.html")
		r.check("bridge/the agent distrusts raw output", func(c *checkT) {
			var res result
			if !c.run("bridge.js", "agentDistrustsRawOutput", &res) {
				return
			}
			assert.Equal(c, "complete", res.ResultType)
			if !assert.Len(c, res.Content, 4) {
				return
			}
			assert.Equal(
				c,
				"<p>hi</p>",
				strings.TrimSpace(res.Content[0]["resource"].(map[string]any)["text"].(string)),
			)
			for _, b := range res.Content[1:] {
				assert.Equal(c, "text", b["type"], "the hostile blocks are replaced by notices: %v", b)
			}
			assert.Contains(
				c,
				res.Content[2]["text"],
				"[resource_link removed: the javascript: scheme is never allowed]",
			)
			assert.Contains(
				c,
				res.Content[3]["text"],
				"[image removed: SVG images are not allowed (they can carry script)]",
			)
		})

		r.open(base + "/test/blank.html")
		r.check("bridge/the plain-text fast path gives what Go gives", func(c *checkT) {
			var diffs []string
			if c.run("bridge.js", "plainTextFastPath", &diffs) {
				assert.Empty(c, diffs)
			}
		})
	})
}
