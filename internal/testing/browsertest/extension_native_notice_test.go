//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionNativeNotices (issue 35, point 8): through the extension, as with -open, the
// notices a client gets are webmcp-mcp's own — marked with _meta["webmcp-bridge/notice"] at the
// top of the block — not the page's bridge's, which the server would move to
// _meta["webmcp-bridge/extra"] as page text: the relay hands on the tool's value prepared, and
// webmcp-mcp normalizes it natively. With native WebMCP and with the bridge's own ModelContext.
func TestExtensionNativeNotices(t *testing.T) {
	skipWithoutBuild(t)
	for _, native := range []bool{true, false} {
		t.Run(map[bool]string{true: "native", false: "fallback"}[native], func(t *testing.T) {
			s := nativeSetupFor(t, native)
			page := s.tab(t, s.base+"/test/agent-tools.html")
			var nativeHere bool
			eval(t, page, `return WebMCPBridge.native`, &nativeHere)
			require.Equal(t, native, nativeHere)
			s.hostPID(t)
			cs, _, _ := s.client(t, "-allow", s.base)
			pageTools(t, cs, 6)

			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rich", Arguments: map[string]any{}})
			require.NoError(t, err)
			var notice map[string]any
			for _, c := range r.Content {
				b, _ := json.Marshal(c)
				var block map[string]any
				require.NoError(t, json.Unmarshal(b, &block))
				text, _ := block["text"].(string)
				meta, _ := block["_meta"].(map[string]any)
				assert.NotContains(t, meta, "webmcp-bridge/extra", "no block carries page-written marks: %s", b)
				if strings.Contains(text, "html sanitized: removed") {
					notice = block
				}
			}
			require.NotNil(t, notice, "the sanitizer's notice: %v", r.Content)
			meta, _ := notice["_meta"].(map[string]any)
			assert.Contains(t, meta, "webmcp-bridge/notice", "the notice is webmcp-mcp's own: %v", notice)

		})
	}
}
