package mcpwire_test

import (
	"encoding/json"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpschema"
)

// requireOfficialMCP asserts that b, the wire form of a whole CallToolResult, validates
// against all three MCP schemas and that the official go-sdk reads it without error, with as
// many blocks as wantBlocks and the same isError.
func requireOfficialMCP(t testing.TB, b []byte, wantBlocks int, wantIsError bool) {
	t.Helper()
	require.NoError(t, mcpschema.ValidateCallToolResult(b), "%s", b)
	var sdk gosdk.CallToolResult
	require.NoError(t, json.Unmarshal(b, &sdk), "go-sdk cannot read %s", b)
	require.Len(t, sdk.Content, wantBlocks, "go-sdk read %s", b)
	require.Equal(t, wantIsError, sdk.IsError, "go-sdk read %s", b)
}
