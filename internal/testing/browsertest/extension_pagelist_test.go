//go:build !js

package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionOnePageCannotStarveTheOthers (issue 35, point 3): two tabs of an allowed origin
// list 350 tools with 100 KB descriptions each (70 MB together, over native messaging's 64 MiB
// from the browser to the host). The extension bounds what each page lists (tools, description,
// schema and list bytes: internal/boundary/pagelist.go), so a client still hears of another
// allowed origin's new tab, and webmcp_list_pages counts the big pages' tools left out.
func TestExtensionOnePageCannotStarveTheOthers(t *testing.T) {
	skipWithoutBuild(t)
	s := startNative(t)
	s.tab(t, s.base+"/test/bigtools.html")
	s.tab(t, s.base+"/test/bigtools.html?second")
	s.hostPID(t)
	cs, _, _ := s.client(t, "-allow", s.base, "-allow", s.other)
	require.Eventually(t, func() bool { // the big pages are listed
		list, err := cs.ListTools(context.Background(), nil)
		return err == nil && len(list.Tools) > 10
	}, 60*time.Second, 200*time.Millisecond, "the big pages were never listed")
	s.tab(t, s.other+"/test/agent-tools.html")
	var echo *mcp.Tool
	ok := assert.Eventually(t, func() bool {
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			return false
		}
		for _, tl := range pageToolsOf(list) {
			if tl.where["origin"] == s.other && strings.HasSuffix(tl.Name, "echo") {
				echo = tl.Tool
			}
		}
		return echo != nil
	}, 30*time.Second, 200*time.Millisecond)
	require.True(t, ok, "the other origin's new tab never reached the client")
	_, text, isErr := callMCP(t, context.Background(), cs, echo.Name, map[string]any{"text": "hi"})
	assert.False(t, isErr)
	assert.Equal(t, "you said hi", text)
	_, pages, _ := callMCP(t, context.Background(), cs, "webmcp_list_pages", map[string]any{})
	assert.Contains(t, pages, "more tools left out", "the big pages' tools past the bounds are counted")
}
