package mcpsdk

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// Options set how a wrapped handler's value is normalized. A nil *Options means
// bridge.DefaultPolicy() and no violation callback.
type Options struct {
	// Policy is applied to every value the handler returns. The zero Policy allows nothing; start
	// from bridge.DefaultPolicy().
	Policy bridge.Policy
	// OnViolation, if set, is called with the violations of each call that had any (a block
	// removed or changed, the whole result refused), after the result is built.
	OnViolation func(ctx context.Context, req *mcp.CallToolRequest, violations []bridge.Violation)
}

func (o *Options) policy() bridge.Policy {
	if o == nil {
		return bridge.DefaultPolicy()
	}
	return o.Policy
}

// Handler is a go-sdk tool handler that returns any WebMCP-style value instead of a
// *mcp.CallToolResult: a string; one of the proposed result types (Text, Image, HTML, Link,
// Table, Error, or the same as maps); MCP blocks (bridge or go-sdk types, or maps); a list of
// these; a *bridge.CallToolResult or *mcp.CallToolResult; json.RawMessage holding any of these
// as JSON; or any other value that encodes to JSON, which becomes structuredContent with its
// JSON as text. The value is encoded with encoding/json and read by bridge.NormalizeJSON, so a
// result is checked the same way whoever built it.
//
// An error becomes an isError result with its message, as a tool that throws in a page does,
// except a *jsonrpc.Error, which is returned to the client as a protocol error.
type Handler func(ctx context.Context, req *mcp.CallToolRequest) (any, error)

// Wrap turns h into an mcp.ToolHandler for (*mcp.Server).AddTool. The SDK leaves decoding and
// validating req.Params.Arguments to h; AddTool does that for a typed input.
func Wrap(h Handler, opts *Options) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		v, err := h(ctx, req)
		return finish(ctx, req, v, err, opts)
	}
}

// HandlerFor is Handler with the arguments decoded into In, as mcp.AddTool does.
type HandlerFor[In any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (any, error)

// AddTool adds t to s as mcp.AddTool does — the input schema inferred from In unless t sets
// one, the arguments validated and decoded — with h's value normalized as Wrap does. t needs no
// OutputSchema: what the client gets is decided by the value h returns.
func AddTool[In any](s *mcp.Server, t *mcp.Tool, h HandlerFor[In], opts *Options) {
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		v, err := h(ctx, req, in)
		r, err := finish(ctx, req, v, err, opts)
		return r, nil, err
	})
}

// Result normalizes v (any value a Handler may return) under p: the result a client of a
// wrapped handler gets, as bridge's type, with the violations.
func Result(v any, p bridge.Policy) (*bridge.CallToolResult, []bridge.Violation) {
	b, err := encode(v)
	if err != nil {
		r := bridge.ErrorResult("the tool's result cannot be encoded as JSON: "+err.Error(), "")
		return r, []bridge.Violation{
			{Type: "result", Limit: "json", Reason: err.Error(), Notice: r.Content[0].(*bridge.TextContent).Text},
		}
	}
	r, vs, err := bridge.NormalizeJSON(b, p)
	if err != nil { // encoding/json wrote it, so only a depth or size refusal can get here, and those are results
		return bridge.ErrorResult(err.Error(), ""), nil
	}
	return r, vs
}

func finish(ctx context.Context, req *mcp.CallToolRequest, v any, err error,
	opts *Options) (*mcp.CallToolResult, error) {
	if err != nil {
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			return nil, err
		}
		return ToSDK(bridge.ErrorResult(err.Error(), "")), nil
	}
	r, vs := Result(v, opts.policy())
	if len(vs) > 0 && opts != nil && opts.OnViolation != nil {
		opts.OnViolation(ctx, req, vs)
	}
	return ToSDK(r), nil
}

// encode writes v as JSON. Bridge results use their own wire form; go-sdk results and blocks
// marshal themselves; a string is a text result (not a JSON document to parse).
func encode(v any) ([]byte, error) {
	switch v := v.(type) {
	case *bridge.CallToolResult:
		if v == nil {
			return []byte("null"), nil
		}
		return v.MarshalJSON()
	case json.RawMessage:
		if !json.Valid(v) {
			return nil, errors.New("json.RawMessage holds invalid JSON")
		}
		return v, nil
	}
	return json.Marshal(v)
}

// structuredObject reads the SDK's structuredContent (a map, json.RawMessage or any value that
// encodes to JSON) as the JSON object a bridge result holds.
func structuredObject(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("mcpsdk: structuredContent: %w", err)
		}
	}
	d, err := jsonvalue.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("mcpsdk: structuredContent: %w", err)
	}
	m, ok := d.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(
			"mcpsdk: structuredContent is %s, not an object (wrap it as {\"result\": …})",
			jsonvalue.TypeName(d),
		)
	}
	return m, nil
}

// The proposed WebMCP result types, as a Handler returns them. Each is a plain map, the same
// value a page's tool would return.

// Text is a text block.
func Text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// Image is an image block from its bytes: the MIME type is sniffed from them, and the size and
// pixel count are checked against the policy; alt, if not empty, is kept in _meta.alt.
func Image(data []byte, alt string) map[string]any {
	m := map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(data)}
	if alt != "" {
		m["alt"] = alt
	}
	return m
}

// HTML is markup for display: the client gets it sanitized as a text/html resource (audience
// user), with its plain-text rendering for the model.
func HTML(markup string) map[string]any { return map[string]any{"type": "html", "html": markup} }

// Link is a resource_link to url (absolute, of an allowed scheme); title, if not empty, is its
// name.
func Link(url, title string) map[string]any {
	m := map[string]any{"type": "link", "url": url}
	if title != "" {
		m["title"] = title
	}
	return m
}

// Table becomes a Markdown table for the model and a text/csv resource for the user. Cells may
// be strings, numbers, booleans or nil.
func Table(headers []string, rows [][]any) map[string]any {
	hs := make([]any, len(headers))
	for i, h := range headers {
		hs[i] = h
	}
	rs := make([]any, len(rows))
	for i, r := range rows {
		rs[i] = r
	}
	return map[string]any{"type": "table", "headers": hs, "rows": rs}
}

// Error is an isError result with message, and code if not empty ("Error [code]: message").
func Error(message, code string) map[string]any {
	m := map[string]any{"type": "error", "message": message}
	if code != "" {
		m["code"] = code
	}
	return m
}
