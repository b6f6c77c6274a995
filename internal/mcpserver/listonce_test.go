//go:build !js

package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// TestClientThatListsOnce: a client that listed before a page opened, and never lists again,
// finds the page's tools with webmcp_list_tools and calls them with webmcp_call_tool, getting
// exactly what a call under the tool's own name gets: arguments refused by the same check, the
// page's HTML sanitized the same way, the person's refusal told the same way. A page of an
// origin that is not allowed is neither listed nor callable.
func TestClientThatListsOnce(t *testing.T) {
	src := newMemSource()
	_, cs := serverWith(t, src, Options{Policy: bridge.DefaultPolicy(), Timeout: 5e9, Allow: []string{"https://shop.example"}})
	_, err := cs.ListTools(context.Background(), nil) // the one list this client makes
	require.NoError(t, err)

	src.add(Page{URL: "https://shop.example/", Origin: "https://shop.example", Title: "Shop", Tools: []PageTool{
		{Name: "search", Description: "Finds products.", InputSchema: map[string]any{"type": "object",
			"properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q"}}},
		{Name: "pay", Annotations: map[string]any{"consequentialHint": true}},
	}})
	src.add(Page{URL: "https://evil.example/", Origin: "https://evil.example", Tools: []PageTool{{Name: "steal"}}})
	src.answer = func(_ context.Context, c ToolCall) (ToolAnswer, error) {
		if c.Tool == "pay" {
			return ToolAnswer{Decision: Declined}, nil
		}
		out := `{"type":"html","html":"<p onclick=\"x()\">tea</p>"}`
		return ToolAnswer{Output: &out}, nil
	}

	r, raw := call(t, cs, toolListTools, nil)
	require.False(t, r.IsError, raw)
	var listedOut struct{ Tools []listedTool }
	require.NoError(t, json.Unmarshal([]byte(r.Content[0].(*mcp.TextContent).Text), &listedOut))
	require.Len(t, listedOut.Tools, 2, "the allowed page's two tools, not evil.example's: %s", raw)
	assert.Equal(t, "p1", listedOut.Tools[1].Page)
	assert.Equal(t, "search", listedOut.Tools[1].Tool)
	assert.Equal(t, map[string]any{"q": map[string]any{"type": "string"}},
		listedOut.Tools[1].InputSchema.(map[string]any)["properties"])
	assert.Equal(t, map[string]any{"consequentialHint": true}, listedOut.Tools[0].Annotations)
	assert.Equal(t, listed(t, cs, "search").Description, listedOut.Tools[1].Description)

	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"bad arguments", map[string]any{"q": 3}},
		{"good arguments", map[string]any{"q": "tea"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, named := call(t, cs, "search", c.args)
			_, generic := call(t, cs, toolCallTool, map[string]any{"page": "p1", "tool": "search", "arguments": c.args})
			assert.JSONEq(t, named, generic)
		})
	}
	_, named := call(t, cs, "pay", nil)
	_, generic := call(t, cs, toolCallTool, map[string]any{"page": "p1", "tool": "pay"})
	assert.JSONEq(t, named, generic)
	assert.Contains(t, generic, "you declined")

	r, raw = call(t, cs, toolCallTool, map[string]any{"page": "p2", "tool": "steal"})
	assert.True(t, r.IsError, raw)
	assert.Contains(t, raw, `no page \"p2\" is open`)
	r, raw = call(t, cs, toolCallTool, map[string]any{"page": "p1", "tool": "refund"})
	assert.True(t, r.IsError, raw)
	assert.Contains(t, raw, `has no tool \"refund\" now`)
	src.mu.Lock()
	defer src.mu.Unlock()
	for _, c := range src.calls {
		assert.NotEqual(t, "p2", c.Page, "evil.example's page is never asked")
	}
}
