package mcpschema_test

import (
	"encoding/json"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpschema"
)

// TestSchemasRejectWhatTheyShould makes sure the check can fail: a validator that
// accepted everything would make the round-trip tests prove nothing.
func TestSchemasRejectWhatTheyShould(t *testing.T) {
	require.Len(t, mcpschema.Versions(), 3)
	for _, bad := range []string{
		`{"resultType":"complete"}`, // no content
		`{"content":[{"type":"text"}],"resultType":"complete"}`,
		`{"content":[{"type":"video","data":"","mimeType":"video/mp4"}],"resultType":"complete"}`,
		`{"content":[{"type":"resource_link","uri":"no scheme","name":"n"}],"resultType":"complete"}`,
		`{"content":[{"type":"text","text":"","annotations":{"priority":2}}],"resultType":"complete"}`,
		`{"content":[],"isError":"yes","resultType":"complete"}`,
	} {
		for _, version := range mcpschema.Versions() {
			require.Error(t, mcpschema.Validate(version, []byte(bad)), "%s accepts %s", version, bad)
		}
	}
	// The schemas do not check base64; the go-sdk does.
	var sdk gosdk.CallToolResult
	require.Error(
		t,
		json.Unmarshal([]byte(`{"content":[{"type":"image","data":"not base64!","mimeType":"image/png"}]}`), &sdk),
	)
}

func TestValidResultPasses(t *testing.T) {
	require.NoError(
		t,
		mcpschema.ValidateCallToolResult(
			[]byte(`{"content":[{"type":"text","text":"hi","annotations":{"priority":0}}],"resultType":"complete"}`),
		),
	)
}
