package mcpsdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcprecord"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpschema"
)

// goldenResults reads the result of every bridge/testdata/golden/*.golden.json: what Normalize
// produced for each kind of input.
func goldenResults(t *testing.T) map[string]*bridge.CallToolResult {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.golden.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string]*bridge.CallToolResult{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var g struct {
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal(b, &g), f)
		var r bridge.CallToolResult
		require.NoError(t, json.Unmarshal(g.Result, &r), f)
		out[strings.TrimSuffix(filepath.Base(f), ".golden.json")] = &r
	}
	return out
}

// TestRoundTrip converts every golden result to the SDK's type and back: nothing changes but a
// priority of 0, which the SDK cannot hold; the SDK's JSON validates against the three schemas.
func TestRoundTrip(t *testing.T) {
	for name, r := range goldenResults(t) {
		t.Run(name, func(t *testing.T) {
			want, err := r.MarshalJSON()
			require.NoError(t, err)
			sdk := mcpsdk.ToSDK(r)
			sdkJSON, err := json.Marshal(sdk)
			require.NoError(t, err)
			back, err := mcpsdk.FromSDK(sdk)
			require.NoError(t, err)
			got, err := back.MarshalJSON()
			require.NoError(t, err)
			wantS := strings.ReplaceAll(string(want), `,"priority":0`, "")
			wantS = strings.ReplaceAll(wantS, `"priority":0,`, "")
			assert.JSONEq(t, wantS, string(got))

			// What the SDK writes, read by the SDK's own client types and by the schemas (the
			// resultType member is what CompleteResults adds for clients of earlier versions).
			var parsed mcp.CallToolResult
			require.NoError(t, json.Unmarshal(sdkJSON, &parsed), "%s", sdkJSON)
			var m map[string]any
			require.NoError(t, json.Unmarshal(sdkJSON, &m))
			m["resultType"] = "complete"
			withType, _ := json.Marshal(m)
			require.NoError(t, mcpschema.ValidateCallToolResult(withType), "%s", withType)
		})
	}
}

func TestFromSDKRefuses(t *testing.T) {
	for name, r := range map[string]*mcp.CallToolResult{
		"sampling block":       {Content: []mcp.Content{&mcp.ToolUseContent{ID: "1", Name: "x"}}},
		"resource without any": {Content: []mcp.Content{&mcp.EmbeddedResource{}}},
		"array structured":     {Content: []mcp.Content{}, StructuredContent: []int{1}},
		"relative link":        {Content: []mcp.Content{&mcp.ResourceLink{URI: "/a", Name: "a"}}},
	} {
		_, err := mcpsdk.FromSDK(r)
		assert.Error(t, err, name)
	}
	r, err := mcpsdk.FromSDK(&mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: json.RawMessage(`{"a":1}`),
	})
	require.NoError(t, err)
	assert.Equal(t, "1", string(r.StructuredContent["a"].(json.Number)))
}

// connect runs server s and returns a go-sdk client session on it, with the recorder of what
// the client received.
func connect(t *testing.T, s *mcp.Server, protocol string) (*mcp.ClientSession, *mcprecord.Transport) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	rec := &mcprecord.Transport{Transport: ct}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
		Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, rec
}

// TestWrappedTools: a server whose tools return WebMCP-style values; a go-sdk client of each
// protocol version gets normalized results that validate against all three schemas.
func TestWrappedTools(t *testing.T) {
	png := fixtures.PNG(4, 3, false)
	var violations []bridge.Violation
	var mu sync.Mutex
	opts := &mcpsdk.Options{
		Policy: bridge.DefaultPolicy(),
		OnViolation: func(_ context.Context, _ *mcp.CallToolRequest, vs []bridge.Violation) {
			mu.Lock()
			violations = append(violations, vs...)
			mu.Unlock()
		},
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	s.AddReceivingMiddleware(mcpsdk.CompleteResults())
	tools := map[string]mcpsdk.Handler{
		"chart": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return []any{mcpsdk.Text("Sales"), mcpsdk.Image(png, "bars")}, nil
		},
		"article": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return mcpsdk.HTML(`<p>Hi <img src=x onerror=alert(1)><script>steal()</script></p>`), nil
		},
		"table": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return mcpsdk.Table([]string{"item", "price"}, [][]any{{"=cmd()", 2.5}}), nil
		},
		"link": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return []any{mcpsdk.Link("https://example.com/a", "A"), mcpsdk.Link("javascript:alert(1)", "bad")}, nil
		},
		"fails": func(context.Context, *mcp.CallToolRequest) (any, error) { return nil, errors.New("database offline") },
		"proto": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return nil, &jsonrpc.Error{Code: -32001, Message: "no"}
		},
		"error": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return mcpsdk.Error("Order 42 does not exist", "NOT_FOUND"), nil
		},
		"data": func(context.Context, *mcp.CallToolRequest) (any, error) { return struct{ City string }{"Oslo"}, nil },
		"sdkResult": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "as is"}}}, nil
		},
		"sdkBlocks": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/jpeg"}}, nil // the wrong type, corrected
		},
		"raw": func(context.Context, *mcp.CallToolRequest) (any, error) {
			return json.RawMessage(`{"content":[{"type":"text","text":"from JSON"}],"isError":false}`), nil
		},
	}
	for name, h := range tools {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, mcpsdk.Wrap(h, opts))
	}
	type in struct {
		Name string `json:"name"`
	}
	mcpsdk.AddTool(s, &mcp.Tool{Name: "greet"}, func(_ context.Context, _ *mcp.CallToolRequest, in in) (any, error) {
		return "Hello, " + in.Name, nil
	}, opts)

	for _, protocol := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			cs, rec := connect(t, s, protocol)
			ctx := context.Background()
			call := func(name string, args any) *mcp.CallToolResult {
				r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				require.NoError(t, err, name)
				return r
			}
			r := call("chart", nil)
			require.Len(t, r.Content, 2)
			img := r.Content[1].(*mcp.ImageContent)
			assert.Equal(t, "image/png", img.MIMEType)
			assert.Equal(t, png, img.Data)
			assert.Equal(t, "bars", img.Meta["alt"])

			r = call("article", nil)
			res := r.Content[0].(*mcp.EmbeddedResource).Resource
			assert.Equal(t, "text/html", res.MIMEType)
			assert.NotContains(t, res.Text, "onerror")
			assert.NotContains(t, res.Text, "script")
			assert.Equal(t, "Hi", strings.TrimSpace(r.Content[1].(*mcp.TextContent).Text))

			r = call("table", nil)
			assert.Contains(t, r.Content[0].(*mcp.TextContent).Text, "| item | price |")
			assert.Contains(t, r.Content[1].(*mcp.EmbeddedResource).Resource.Text, "'=cmd()")

			r = call("link", nil)
			assert.Equal(t, "https://example.com/a", r.Content[0].(*mcp.ResourceLink).URI)
			assert.Contains(t, r.Content[1].(*mcp.TextContent).Text, "[link removed")

			r = call("fails", nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "Error: database offline", r.Content[0].(*mcp.TextContent).Text)

			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "proto"})
			require.Error(t, err, "a *jsonrpc.Error is a protocol error")

			r = call("error", nil)
			assert.True(t, r.IsError)
			assert.Equal(t, "Error [NOT_FOUND]: Order 42 does not exist", r.Content[0].(*mcp.TextContent).Text)

			r = call("data", nil)
			assert.Equal(t, map[string]any{"City": "Oslo"}, r.StructuredContent)

			assert.Equal(t, "as is", call("sdkResult", nil).Content[0].(*mcp.TextContent).Text)
			sb := call("sdkBlocks", nil).Content[0]
			require.IsType(t, &mcp.ImageContent{}, sb, "%#v", sb)
			assert.Equal(t, "image/png", sb.(*mcp.ImageContent).MIMEType)
			assert.Equal(t, "from JSON", call("raw", nil).Content[0].(*mcp.TextContent).Text)
			assert.Equal(t, "Hello, Ada", call("greet", map[string]any{"name": "Ada"}).Content[0].(*mcp.TextContent).Text)
			r = call("greet", map[string]any{"name": 1})
			assert.True(t, r.IsError, "AddTool validates the arguments against the schema inferred from In")

			results := rec.Results()
			require.Len(t, results, 12)
			for _, b := range results {
				require.NoError(t, mcpschema.ValidateCallToolResult(b), "%s", b)
				require.Contains(t, string(b), `"resultType":"complete"`)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	assert.NotEmpty(t, violations, "OnViolation hears of the script, the bad link, the corrected type")
}

// A value that does not encode to JSON is an isError result that says so, not a panic.
func TestResultUnencodable(t *testing.T) {
	r, vs := mcpsdk.Result(func() {}, bridge.DefaultPolicy())
	assert.True(t, r.IsError)
	require.Len(t, vs, 1)
	assert.Contains(t, r.Content[0].(*bridge.TextContent).Text, "cannot be encoded as JSON")
	require.NoError(t, r.Check())
}
