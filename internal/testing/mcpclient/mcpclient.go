//go:build !js

// Package mcpclient connects a go-sdk client to an MCP server in the test's own process, over
// [mcp.NewInMemoryTransports], and reads what the server answers.
package mcpclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// A Connector is a server that connects over a transport, as [mcp.Server.Connect] does.
type Connector interface {
	Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error)
}

// Connect connects a client with opts (nil: none) to server in memory, until the test ends.
func Connect(t testing.TB, ctx context.Context, server Connector, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	_, err := server.Connect(ctx, st)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, opts).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Names lists the names of the server's tools.
func Names(t testing.TB, cs *mcp.ClientSession) []string {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// CallText calls a tool and returns its result's first text and isError.
func CallText(t testing.TB, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	b, _ := json.Marshal(r.Content)
	var blocks []struct {
		Text string `json:"text"`
	}
	require.NoError(t, json.Unmarshal(b, &blocks))
	require.NotEmpty(t, blocks)
	return blocks[0].Text, r.IsError
}
