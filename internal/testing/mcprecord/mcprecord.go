// Package mcprecord is a go-sdk client transport that keeps the raw JSON of every tools/call
// result the server sends, as it came over the wire and before the SDK reads it: what a client
// really receives, for the tests and the Playwright MCP comparison to check and measure.
package mcprecord

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport wraps a client transport and records the results that carry "content".
type Transport struct {
	mcp.Transport
	mu      sync.Mutex
	results []json.RawMessage
}

// Connect connects the wrapped transport and records what its connection reads, for
// [Transport.Results] and [Transport.Last].
func (r *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	return &conn{c, r}, err
}

// Results returns a copy of every result recorded so far, in order.
func (r *Transport) Results() []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]json.RawMessage(nil), r.results...)
}

// Last returns the last result recorded (nil before the first).
func (r *Transport) Last() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.results) == 0 {
		return nil
	}
	return r.results[len(r.results)-1]
}

type conn struct {
	mcp.Connection
	r *Transport
}

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if resp, ok := m.(*jsonrpc.Response); ok && bytes.Contains(resp.Result, []byte(`"content"`)) {
		c.r.mu.Lock()
		c.r.results = append(c.r.results, append(json.RawMessage(nil), resp.Result...))
		c.r.mu.Unlock()
	}
	return m, err
}
