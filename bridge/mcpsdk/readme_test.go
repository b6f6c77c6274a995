package mcpsdk_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/checkout"
)

// TestREADMEGoExample holds the README's Go server to ExampleAddTool, which runs: every line of
// the README's block but the last (which serves over stdio, where the example connects a client
// in memory) stands in the example, in the same order.
func TestREADMEGoExample(t *testing.T) {
	readme, err := os.ReadFile(checkout.Path("README.md"))
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)## In a Go MCP server.*?```go\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, m, "the README's Go block")
	example, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(m[1])), "\n")
	require.Equal(t, "server.Run(ctx, &mcp.StdioTransport{})", lines[len(lines)-1], "the block ends by serving over stdio")
	require.Contains(t, string(example), "server.Run(ctx, &mcp.StdioTransport{})",
		"the example says how it serves over stdio")
	rest := string(example)
	for _, line := range lines[:len(lines)-1] {
		at := strings.Index(rest, strings.TrimSpace(line))
		require.GreaterOrEqual(t, at, 0, "the README's line %q is not in ExampleAddTool (or not in order)", line)
		rest = rest[at:]
	}
}
