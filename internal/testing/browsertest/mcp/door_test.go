//go:build !js

package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckedArgumentsDoor (issue 36, point 2): under -open, a call whose arguments webmcp-mcp
// checked natively reaches the page's tool without the page's bridge starting its module (a
// tool with an input schema used to start it only to check them again); invalid arguments from
// the MCP client are refused natively before the page runs; and a hostile page that patches
// MessagePort and EventTarget, listens to every window message, forges the hand-off and calls
// webmcp-mcp's entry point with its own claims neither hears the door nor gets past the check:
// its own call with arguments the schema refuses is refused, and the tool never runs with them.
// With native WebMCP and with the bridge's own ModelContext, with the official TypeScript SDK.
func TestCheckedArgumentsDoor(t *testing.T) {
	skipWithoutBuild(t)
	base := serveSite(t)
	for _, native := range []bool{true, false} {
		t.Run(map[bool]string{true: "native", false: "fallback"}[native], func(t *testing.T) {
			r := probe(t, []probeStep{
				wait("count", "probe", "agent"),
				callStep("count", map[string]any{"n": 2}),
				callStep("probe", nil),
				callStep("count", map[string]any{"n": 99}),
				callStep("probe", nil),
				callStep("agent", map[string]any{"n": 99}),
				callStep("probe", nil),
			}, "stdio", serverArgs(t, native, 30*time.Second, base+"/test/door.html")...)
			type probed struct {
				Started bool  `json:"started"`
				Seen    []int `json:"seen"`
			}
			probeOf := func(i int) probed {
				var p probed
				require.NoError(t, json.Unmarshal([]byte(textOf(resultOf(t, r.Steps[i]))), &p), "step %d", i)
				return p
			}

			assert.Equal(t, "n=2", textOf(resultOf(t, r.Steps[1])))
			assert.Equal(t, probed{Started: false, Seen: []int{2}}, probeOf(2),
				"the first call, with a schema, did not start the page's module")

			refused := resultOf(t, r.Steps[3])
			assert.Equal(t, true, refused["isError"], "n: 99 is over the schema's maximum")
			assert.Contains(t, allText(refused), "maximum")
			assert.Equal(t, probed{Started: false, Seen: []int{2}}, probeOf(4),
				"refused natively: the page's tool never ran, its module never started")

			var agent struct {
				Answered int      `json:"answered"`
				Heard    []string `json:"heard"`
				Result   string   `json:"result"`
				Seen     []int    `json:"seen"`
			}
			require.NoError(t, json.Unmarshal([]byte(textOf(resultOf(t, r.Steps[5]))), &agent))
			assert.Zero(t, agent.Answered, "no forged hand-off was answered")
			assert.Empty(t, agent.Heard, "the page heard nothing of the door")
			assert.Contains(t, agent.Result, `"isError":true`, "the page-side agent's n: 99 was refused")
			assert.Contains(t, agent.Result, "maximum")
			assert.Equal(t, []int{2}, agent.Seen, "the tool never ran with n: 99")
			assert.Equal(t, probed{Started: true, Seen: []int{2}}, probeOf(6),
				"the page's own check started the module (the probe can tell)")
		})
	}
}

// TestCheckedArgumentsDoorLyingList (issue 36, point 2): where webmcp-mcp reads a page's tools in
// the page's world (no native WebMCP), a page can list a tool without its schema, so that
// webmcp-mcp checks n: 99 against nothing and vouches for it; the page's bridge compares the
// schema of the claim with the tool's own, finds them different, checks the arguments itself
// and refuses them: the tool never runs with n: 99.
func TestCheckedArgumentsDoorLyingList(t *testing.T) {
	skipWithoutBuild(t)
	r := probe(t, []probeStep{
		wait("count", "probe"),
		callStep("count", map[string]any{"n": 99}),
		callStep("probe", nil),
	}, "stdio", serverArgs(t, false, 30*time.Second, serveSite(t)+"/test/door.html#lie")...)
	refused := resultOf(t, r.Steps[1])
	assert.Equal(t, true, refused["isError"], "the page's bridge refused n: 99: %v", refused)
	assert.Contains(t, allText(refused), "maximum")
	var p struct {
		Started bool  `json:"started"`
		Seen    []int `json:"seen"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(resultOf(t, r.Steps[2]))), &p))
	assert.True(t, p.Started, "the page checked them itself")
	assert.Empty(t, p.Seen, "the tool never ran with n: 99")
}
