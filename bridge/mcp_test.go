package bridge_test

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpschema"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// requireValidMCP asserts everything the project promises about a produced result: it passes
// bridge's own Check, validates against all three MCP schemas at once, parses with the two
// reference Go clients, and round-trips through our own types unchanged.
func requireValidMCP(t testing.TB, r *bridge.CallToolResult) []byte {
	t.Helper()
	require.NoError(t, r.Check())
	b, err := json.Marshal(r)
	require.NoError(t, err)
	require.NoError(t, mcpschema.ValidateCallToolResult(b), "%s", b)
	var sdk gosdk.CallToolResult
	require.NoError(t, json.Unmarshal(b, &sdk), "go-sdk cannot read %s", b)
	raw := json.RawMessage(b)
	_, err = mcpgo.ParseCallToolResult(&raw)
	require.NoError(t, err, "mcp-go cannot read %s", b)

	var back bridge.CallToolResult
	require.NoError(t, json.Unmarshal(b, &back))
	b2, err := json.Marshal(&back)
	require.NoError(t, err)
	require.JSONEq(t, string(b), string(b2), "round trip changed the result")
	return b
}
