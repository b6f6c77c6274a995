//go:build !js

package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkWarmCall is webmcp-mcp's own share of a warm tools/call (issue 36, 3): a go-sdk
// client over stdio-like pipes calls a tool of the five-tool page (shopPage) whose source
// answers at once, so what is timed is the SDKs, the checks, the normalization and the
// server's bookkeeping, not a browser.
func BenchmarkWarmCall(b *testing.B) {
	src := newMemSource()
	src.add(shopPage())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, inW := serveStdio(ctx, src)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "get_product", Arguments: map[string]any{"id": "t1"}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(ctx, params)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}
