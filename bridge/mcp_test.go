package bridge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
)

// The official MCP schemas, carried in testdata so the tests need nothing outside the repo.
var schemaFiles = map[string]string{
	"schema-2025-06-18.json": "#/definitions/CallToolResult",
	"schema-2025-11-25.json": "#/$defs/CallToolResult",
	"schema-2026-07-28.json": "#/$defs/CallToolResult",
}

var resultSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	for file, ptr := range schemaFiles {
		f, err := os.Open(filepath.Join("testdata", "mcp-schema", file))
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("file:///"+file, doc); err != nil {
			return nil, err
		}
		s, err := c.Compile("file:///" + file + ptr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out[file] = s
	}
	return out, nil
})

// requireValidMCP asserts everything the project promises about a produced result: it passes
// bridge's own Check, validates against all three MCP schemas at once, parses with the two
// reference Go clients, and round-trips through our own types unchanged.
func requireValidMCP(t testing.TB, r *bridge.CallToolResult) []byte {
	t.Helper()
	require.NoError(t, r.Check())
	b, err := json.Marshal(r)
	require.NoError(t, err)
	schemas, err := resultSchemas()
	require.NoError(t, err)
	for name, s := range schemas {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		require.NoError(t, err)
		require.NoError(t, s.Validate(inst), "%s rejects %s", name, b)
	}
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
