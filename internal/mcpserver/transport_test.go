//go:build !js

package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpclient"
)

// TestHTTPHandler: the server over streamable HTTP in this process: a go-sdk client, which asks
// for 2026-07-28, is served statelessly and lists and calls the pages' tools; a request from
// another site's page is refused (cross-origin protection).
func TestHTTPHandler(t *testing.T) {
	src := newMemSource()
	src.page("https://shop.example/", "search")
	srv := New(Options{Policy: bridge.DefaultPolicy(), Timeout: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.Follow(ctx, src)
	srv.OpenAtStart(ctx, nil)
	srv.syncTools()
	h := httptest.NewServer(srv.Handler())
	defer h.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.URL}, nil)
	require.NoError(t, err)
	defer cs.Close()
	assert.Equal(t, statelessFrom, cs.InitializeResult().ProtocolVersion)
	assert.Contains(t, mcpclient.Names(t, cs), "search")
	text, isErr := mcpclient.CallText(t, cs, "search", map[string]any{})
	assert.False(t, isErr)
	assert.Equal(t, "ok", text)

	req, err := http.NewRequest("POST", h.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}
