//go:build !js

package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/mcpclient"
)

// bigText is a page's 300 KB text result, each line numbered so that a lost part shows.
func bigText() string {
	var b strings.Builder
	for i := 0; b.Len() < 307_200; i++ {
		b.WriteString(strings.Repeat("x", 90) + " line " + string(rune('a'+i%26)) + "\n")
	}
	return b.String()[:307_200]
}

// cutResult calls "big" and returns its text block, the cut's notice and the resource_link.
func cutResult(t *testing.T, cs *mcp.ClientSession) (text, notice string, link *mcp.ResourceLink) {
	t.Helper()
	r, raw := call(t, cs, "big", nil)
	require.False(t, r.IsError, raw)
	require.Len(t, r.Content, 3, raw)
	text = r.Content[0].(*mcp.TextContent).Text
	notice = r.Content[1].(*mcp.TextContent).Text
	link, ok := r.Content[2].(*mcp.ResourceLink)
	require.True(t, ok, raw)
	return text, notice, link
}

// TestCutTextKept (issue 36, 6): a 300 KB text result over maxTextChars keeps its first 100,000
// characters and the notice, and the notice names a resource, linked after it, that gives the
// whole 307,200 characters to resources/read, to this session only; the session's oldest are
// dropped past keptPerSession, and all of it goes when the session ends.
func TestCutTextKept(t *testing.T) {
	src := newMemSource()
	src.page("https://docs.example/", "big")
	whole := bigText()
	src.answer = func(context.Context, ToolCall) (ToolAnswer, error) { return ToolAnswer{Output: &whole}, nil }
	srv, cs := testServer(t, src)

	text, notice, link := cutResult(t, cs)
	assert.Equal(t, whole[:100_000], text)
	assert.Contains(t, notice, "307,200 characters exceed the 100,000-character limit")
	assert.Contains(t, notice, "the whole (300 KiB) is "+link.URI+", for resources/read while this session lasts]")
	assert.True(t, strings.HasPrefix(link.URI, keptURIPrefix), link.URI)
	assert.Equal(t, "text/plain", link.MIMEType)
	read, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	require.NoError(t, err)
	require.Len(t, read.Contents, 1)
	assert.Equal(t, whole, read.Contents[0].Text, "all 307,200 characters")

	other := mcpclient.Connect(t, context.Background(), srv, nil)
	_, err = other.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	assert.Error(t, err, "another session cannot read it")

	first := link.URI
	for range keptPerSession {
		cutResult(t, cs)
	}
	_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: first})
	assert.Error(t, err, "the oldest is dropped past %d", keptPerSession)

	require.NoError(t, cs.Close())
	assert.Eventually(t, func() bool {
		srv.kept.mu.Lock()
		defer srv.kept.mu.Unlock()
		return len(srv.kept.bySession) == 0
	}, 5*time.Second, 10*time.Millisecond, "gone when the session ends")
}

// TestCutTextStateless: over stateless HTTP (2026-07-28) there is no session to keep the whole
// in: the cut text and the notice come, and the notice says the whole was not kept.
func TestCutTextStateless(t *testing.T) {
	src := newMemSource()
	src.page("https://docs.example/", "big")
	whole := bigText()
	src.answer = func(context.Context, ToolCall) (ToolAnswer, error) { return ToolAnswer{Output: &whole}, nil }
	_, cs := httpServer(t, src)
	require.Equal(t, statelessFrom, cs.InitializeResult().ProtocolVersion)

	r, raw := call(t, cs, "big", nil)
	require.Len(t, r.Content, 2, raw)
	assert.Equal(t, whole[:100_000], r.Content[0].(*mcp.TextContent).Text)
	assert.Contains(t, r.Content[1].(*mcp.TextContent).Text,
		"the whole was not kept: stateless HTTP (2026-07-28) has no session to keep it in]")
}
