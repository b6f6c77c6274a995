//go:build !js

package browsertest

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensionCheckedArgumentsDoor (issue 36, point 2): through the extension, a call whose
// arguments webmcp-mcp checked natively reaches the page's tool without the page's bridge
// starting its module (DevTools sees no Worker start, and the bridge's policy stays unread); invalid arguments from the MCP client are refused natively before the page
// runs; and a hostile page that listens to every window message, patches MessagePort, puts a
// forged claim on Object.prototype and forges the hand-off hears nothing of it, and its own call
// with arguments the schema refuses is refused: the tool never runs with them. With native
// WebMCP and with the bridge's own ModelContext.
func TestExtensionCheckedArgumentsDoor(t *testing.T) {
	skipWithoutBuild(t)
	for _, native := range []bool{true, false} {
		t.Run(map[bool]string{true: "native", false: "fallback"}[native], func(t *testing.T) {
			s := nativeSetupFor(t, native)
			page := s.tab(t, s.base+"/test/door.html")
			// A Worker the page starts is what the module runs in: DevTools attaches to each.
			var mu sync.Mutex
			var workers []string
			require.NoError(t, chromedp.Listen(page, func(ev any) {
				if e, ok := ev.(*target.EventAttachedToTarget); ok && e.TargetInfo != nil && e.TargetInfo.Type == "worker" {
					mu.Lock()
					workers = append(workers, e.TargetInfo.URL)
					mu.Unlock()
				}
			}))
			flat := true
			_, err := chromedp.Call(page, target.SetAutoAttach, target.SetAutoAttachParams{AutoAttach: true, Flatten: &flat})
			require.NoError(t, err)
			workersStarted := func() []string {
				mu.Lock()
				defer mu.Unlock()
				return append([]string(nil), workers...)
			}
			started := func() bool {
				var policy bool
				eval(t, page, `return WebMCPBridge.policy !== null`, &policy)
				return policy
			}
			s.hostPID(t)
			cs, _, _ := s.client(t, "-allow", s.base)
			pageTools(t, cs, 1)
			ctx := context.Background()

			_, text, isErr := callMCP(t, ctx, cs, "count", map[string]any{"n": 2})
			require.False(t, isErr, text)
			assert.Equal(t, "n=2", text)
			assert.False(t, started(), "the first call, with a schema, did not start the page's module")
			assert.Empty(t, workersStarted(), "nor start its Worker")

			_, text, isErr = callMCP(t, ctx, cs, "count", map[string]any{"n": 99})
			assert.True(t, isErr, "n: 99 is over the schema's maximum")
			assert.Contains(t, text, "maximum")

			var agent struct {
				Answered int      `json:"answered"`
				Heard    []string `json:"heard"`
				Result   string   `json:"result"`
				Seen     []int    `json:"seen"`
			}
			eval(t, page, `return await window.agent(99)`, &agent)
			assert.Zero(t, agent.Answered, "no forged hand-off was answered")
			assert.Empty(t, agent.Heard, "the page heard nothing of the hand-off")
			assert.Contains(t, agent.Result, `"isError":true`, "the page-side agent's n: 99 was refused")
			assert.Contains(t, agent.Result, "maximum")
			assert.Equal(t, []int{2}, agent.Seen, "the tool never ran with n: 99")
			assert.True(t, started(), "the page's own check started the module (the probe can tell)")
			assert.NotEmpty(t, workersStarted(), "in a Worker (DevTools sees it start)")
		})
	}
}

// nativeSetupFor is startNative with the browser's own WebMCP on (native) or off (the bridge's
// own ModelContext).
func nativeSetupFor(t testing.TB, native bool) nativeSetup {
	t.Helper()
	s := installedSetup(t)
	s.ctx, s.close = s.launchWith(t, native)
	return s
}
