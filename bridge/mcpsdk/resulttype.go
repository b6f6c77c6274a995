package mcpsdk

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CompleteResults is receiving middleware for an mcp.Server (server.AddReceivingMiddleware) that
// makes every tools/call result carry "resultType": "complete", as bridge's own wire form does.
// The SDK writes resultType only to clients of protocol 2026-07-28 or later; with the member
// always there, a result validates against the 2025-06-18, 2025-11-25 and 2026-07-28 schemas at
// once, whatever the session negotiated. Clients of the earlier versions ignore the member.
func CompleteResults() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r != nil && r.InputRequests == nil {
				return completeResult{r}, nil
			}
			return res, err
		}
	}
}

// completeResult is a *mcp.CallToolResult (its methods, so it is an mcp.Result) written with
// resultType.
type completeResult struct{ *mcp.CallToolResult }

func (c completeResult) MarshalJSON() ([]byte, error) {
	b, err := c.CallToolResult.MarshalJSON()
	if err != nil || bytes.Contains(b, []byte(`"resultType":`)) && hasTopLevelResultType(b) {
		return b, err
	}
	// b is a JSON object written by encoding/json: "{" then members, or "{}".
	out := make([]byte, 0, len(b)+25)
	out = append(out, `{"resultType":"complete"`...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	return append(out, b[1:]...), nil
}

// hasTopLevelResultType reports whether the object b has a resultType member of its own (not one
// inside structuredContent or _meta).
func hasTopLevelResultType(b []byte) bool {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	_, ok := m["resultType"]
	return ok
}
