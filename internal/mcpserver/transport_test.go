//go:build !js

package mcpserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpclient"
)

// TestHTTPHandler: the server over streamable HTTP in this process: a go-sdk client, which asks
// for 2026-07-28, is served statelessly and lists and calls the pages' tools; a request from
// another site's page is refused (cross-origin protection).
func TestHTTPHandler(t *testing.T) {
	src := newMemSource()
	src.page("https://shop.example/", "search")
	h, cs := httpServer(t, src)
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
