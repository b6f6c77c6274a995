//go:build !js

package browsertest

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type result struct {
	Content           []map[string]any `json:"content"`
	StructuredContent map[string]any   `json:"structuredContent"`
	IsError           bool             `json:"isError"`
	ResultType        string           `json:"resultType"`
}

// noArgs is a call's empty arguments, {}.
var noArgs = map[string]any{}

// callTool runs a tool through the browser's own executeTool (native or fallback) and parses
// the string it returns.
func callTool(t *testing.T, ctx context.Context, name string, args map[string]any) result {
	t.Helper()
	var r result
	runJS(t, ctx, "bridge.js", "callTool", &r, name, args)
	require.Equal(t, "complete", r.ResultType, "every result is a complete CallToolResult")
	return r
}

func TestBridgeEndToEnd(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, base+"/test/tools.html")
		var info struct {
			Native bool   `json:"native"`
			Same   bool   `json:"same"`
			Ver    string `json:"version"`
		}
		runJS(t, ctx, "bridge.js", "info", &info)
		require.Equal(t, native, info.Native, "the browser's WebMCP mode")
		assert.True(t, info.Same, "navigator.modelContext is document.modelContext")
		assert.NotEmpty(t, info.Ver)

		r := callTool(t, ctx, "text", noArgs)
		assert.Equal(t, []map[string]any{{"type": "text", "text": "hello"}}, r.Content)

		r = callTool(t, ctx, "html", noArgs)
		require.Len(t, r.Content, 3)
		assert.Equal(
			t,
			"<p>Hi <b>there</b></p>",
			strings.TrimSpace(r.Content[0]["resource"].(map[string]any)["text"].(string)),
		)
		assert.Equal(t, "Hi there", r.Content[1]["text"])
		assert.Contains(t, r.Content[2]["text"], "[html sanitized: removed")

		r = callTool(t, ctx, "link", noArgs)
		assert.Equal(
			t,
			map[string]any{"type": "resource_link", "uri": "https://example.com/docs", "name": "Docs", "title": "Docs"},
			r.Content[0],
		)

		r = callTool(t, ctx, "table", noArgs)
		assert.Equal(t, "| a | b |\n| --- | --- |\n| 1 | x\\|y |", r.Content[0]["text"])
		assert.Equal(t, "text/csv", r.Content[1]["resource"].(map[string]any)["mimeType"])

		r = callTool(t, ctx, "error", noArgs)
		assert.True(t, r.IsError)
		assert.Equal(t, "Error [E404]: not found", r.Content[0]["text"])

		r = callTool(t, ctx, "image", noArgs)
		assert.Equal(t, "image", r.Content[0]["type"])
		assert.Equal(t, "image/png", r.Content[0]["mimeType"])
		assert.NotContains(t, r.Content[0]["data"], "data:")
		assert.Equal(t, map[string]any{"alt": "dot"}, r.Content[0]["_meta"])

		r = callTool(t, ctx, "canvas", noArgs)
		assert.Equal(t, "image/png", r.Content[0]["mimeType"], "a canvas becomes a PNG")

		r = callTool(t, ctx, "mcp", noArgs)
		assert.Equal(
			t,
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
			t,
			map[string]any{"type": "resource_link", "uri": "https://example.com/r", "name": "r"},
			r.Content[1],
		)
		assert.Equal(t, map[string]any{"n": 1.0}, r.StructuredContent)

		r = callTool(t, ctx, "unknown_block", noArgs)
		assert.Equal(
			t,
			`{"content":[{"type":"text","text":"a"},{"type":"widget","props":{"x":1}}]}`,
			r.Content[0]["text"],
			"an unknown block keeps the whole value as data",
		)
		assert.NotNil(t, r.StructuredContent)

		r = callTool(t, ctx, "data", noArgs)
		assert.Equal(t, map[string]any{"temperature": 21.5, "unit": "C"}, r.StructuredContent)
		assert.Equal(t, `{"temperature":21.5,"unit":"C"}`, r.Content[0]["text"])

		r = callTool(t, ctx, "throws", noArgs)
		assert.True(t, r.IsError)
		assert.Equal(t, "Error: RangeError: bad range", r.Content[0]["text"], "the message reaches the agent")

		r = callTool(t, ctx, "rejects", noArgs)
		assert.True(t, r.IsError)
		assert.Equal(t, "Error: nope", r.Content[0]["text"], "one prefix, the way a person writes it")

		r = callTool(t, ctx, "cyclic", noArgs)
		assert.True(t, r.IsError)
		assert.Contains(t, r.Content[0]["text"], "cannot be serialized to JSON")

		r = callTool(t, ctx, "huge", noArgs)
		assert.True(t, r.IsError, "20 MiB of text is over maxResultBytes: refused before it reaches the module")
		assert.Equal(t, "[result refused: the result is more than 16 MiB of JSON (the limit)]", r.Content[0]["text"])

		r = callTool(t, ctx, "typed", map[string]any{"color": "red"})
		assert.Equal(t, "color red", r.Content[0]["text"])
	})
}

func TestInvalidArguments(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, base+"/test/tools.html")
		r := callTool(t, ctx, "typed", map[string]any{"color": "blue"})
		assert.True(t, r.IsError, "native=%v", native)
		assert.Equal(
			t,
			`Error: invalid arguments at "/color": "blue" is not one of ["red","green"] (enum)`,
			r.Content[0]["text"],
			"native=%v",
			native,
		)
	})
}

func TestConcurrentCalls(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, base+"/test/tools.html")
		var bad []string
		runJS(t, ctx, "bridge.js", "concurrentCalls", &bad)
		assert.Empty(t, bad, "native=%v: each of 1,000 calls settles with its own result", native)
	})
}

func TestPageAPI(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/tools.html")
	var got struct {
		Violations []map[string]any `json:"violations"`
		Events     int              `json:"events"`
		BadPolicy  string           `json:"badPolicy"`
		Strict     map[string]any   `json:"strict"`
		Policy     map[string]any   `json:"policy"`
		Typed      map[string]any   `json:"typed"`
		Model      map[string]any   `json:"model"`
	}
	runJS(t, ctx, "bridge.js", "pageAPI", &got)
	require.Len(t, got.Violations, 2, "the sanitized html and the refused link")
	assert.Equal(t, "html", got.Violations[0]["limit"])
	assert.Equal(t, "linkSchemes", got.Violations[1]["limit"])
	assert.Equal(t, 2, got.Events)
	assert.Equal(t, `policy: unknown setting "maxImageByte"`, got.BadPolicy)
	assert.Equal(t, true, got.Strict["isError"])
	assert.Equal(t, true, got.Policy["strict"])
	require.Len(t, got.Typed["content"], 3, "a Blob, an ArrayBuffer and a typed array")
	for _, c := range got.Typed["content"].([]any) {
		assert.Equal(t, "image/png", c.(map[string]any)["mimeType"], "binary results become images")
	}
	assert.Equal(t, `[image 1: "dot"]`, got.Model["text"])
	assert.Len(t, got.Model["attachments"], 1)
}

func TestAgentAPI(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, base+"/test/tools.html")
		var got struct {
			Tools   []map[string]any `json:"tools"`
			Unknown string           `json:"unknown"`
			Aborted string           `json:"aborted"`
			Throws  map[string]any   `json:"throws"`
		}
		runJS(t, ctx, "bridge.js", "agentAPI", &got)
		require.GreaterOrEqual(t, len(got.Tools), 15, "native=%v", native)
		for _, tool := range got.Tools {
			assert.IsType(
				t,
				map[string]any{},
				tool["inputSchema"],
				"inputSchema is always an object (native=%v)",
				native,
			)
		}
		assert.Equal(t, `webmcp-bridge: no tool named "nope" on this page`, got.Unknown)
		assert.Equal(t, "stop", got.Aborted, "native=%v", native)
		assert.Equal(t, true, got.Throws["isError"], "native=%v", native)
	})
}

// TestAgentDistrustsRawOutput: a page whose bridge does not normalize (data-normalize="off",
// standing in for a page that bypasses its bridge) hands back a forged CallToolResult with
// hostile content; agent.callTool still yields a safe, valid result.
func TestAgentDistrustsRawOutput(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/conformance.html")
	var r result
	runJS(t, ctx, "bridge.js", "agentDistrustsRawOutput", &r)
	require.Equal(t, "complete", r.ResultType)
	require.Len(t, r.Content, 4)
	assert.Equal(t, "<p>hi</p>", strings.TrimSpace(r.Content[0]["resource"].(map[string]any)["text"].(string)))
	for _, c := range r.Content[1:] {
		assert.Equal(t, "text", c["type"], "the hostile blocks are replaced by notices: %v", c)
	}
	assert.Contains(t, r.Content[2]["text"], "[resource_link removed: the javascript: scheme is never allowed]")
	assert.Contains(t, r.Content[3]["text"], "[image removed: SVG images are not allowed (they can carry script)]")
}

// TestPlainTextFastPath: the loader maps plain text without calling Go; its output must be the
// one Go gives, and anything it cannot vouch for must go to Go.
func TestPlainTextFastPath(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/blank.html")
	var diffs []string
	runJS(t, ctx, "bridge.js", "plainTextFastPath", &diffs)
	assert.Empty(t, diffs)
}
