//go:build !js

package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// serveTwoOrigins serves web/ (the built loader in /dist/, the test pages in /test/) on two
// loopback ports, answered as http://localhost:A and http://127.0.0.1:B: two origins, both
// potentially trustworthy, as WebMCP needs.
func serveTwoOrigins(t *testing.T) (string, string) {
	t.Helper()
	mux := pageRoutes(t, fromRoot("web", "dist"))
	return listen(t, "localhost", mux), listen(t, "127.0.0.1", mux)
}

// frameScenarios are what a page and its frames (pages/frames-parent.html, frames-child.html)
// do with each other's tools: an export of pages/js/frames.js run in the parent (with the second
// origin as its argument, OTHER) and the JSON it must answer (SELF and OTHER replaced by the
// origins).
var frameScenarios = []struct{ name, fn, want string }{
	{"a same-origin child's tool is the parent's, runs there, and goes with toolchange", "sameOriginChildTool",
		`{"origin":"SELF","window":true,"result":"hello from SELF","after":false}`},
	{"the parent's tools are a same-origin child's, and run for it", "parentToolInSameOriginChild",
		`{"seen":[{"name":"parent_tool","origin":"SELF","description":"p","inputSchema":{"type":"object",` +
			`"properties":{"q":{"type":"string"}}},"parent":true}],"result":"hello from parent","after":[]}`},
	{
		"a cross-origin child's tool exposed to the parent is listed with fromOrigins, and runs",
		"crossOriginChildToolExposed",
		`{"plain":false,"origin":"OTHER","window":true,"result":"hello from OTHER"}`,
	},
	{
		"the caller's abort reaches a cross-origin tool: its signal aborts and toolcancel fires there",
		"abortReachesCrossOriginTool",
		`{"started":true,"reason":"parent reason","aborted":"AbortError","cancelled":true}`,
	},
	{
		"a cross-origin child's tool not exposed to the parent is neither listed nor run",
		"crossOriginChildToolNotExposed",
		`{"listed":false,"error":"UnknownError"}`,
	},
	{
		"a cross-origin child without allow=tools shares nothing with its parent (natively its calls fail " +
			"with NotAllowedError)",
		"crossOriginChildWithoutAllow",
		`{"listed":false,"registered":"ok","childSees":[]}`,
	},
	{
		"a parent tool exposed to a cross-origin child is its with fromOrigins, and runs for it; others are not",
		"parentToolExposedToCrossOriginChild",
		`{"plain":[],"seen":["shared_tool SELF"],"result":"hello from parent"}`,
	},
	{"a call rejects with UnknownError when the frame that runs the tool goes", "frameGoesDuringCall",
		`{"error":"UnknownError","listed":false}`},
	{"a tool's signal aborts, with toolcancel, when the frame that called it goes", "callerFrameGoes",
		`{"aborted":"AbortError","cancelled":true}`},
	{"a same-origin child's form is the parent's tool, and its response comes back", "sameOriginChildForm",
		`{"schema":{"type":"object","properties":{"q":{"type":"string"}},"required":[]},"result":"form:hi"}`},
	{"forged messages change nothing: a denied frame's tool list, another frame's results", "forgedMessages",
		`{"forgedListed":false,"settled":"pending"}`},
}

// TestFrames runs frameScenarios with the fallback, where they must all hold, and with native
// WebMCP, which the fallback reproduces over postMessage: the log says where native Chromium
// answers otherwise.
func TestFrames(t *testing.T) {
	skipWithoutBuild(t)
	self, other := serveTwoOrigins(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		open(t, ctx, self+"/test/frames-parent.html")
		passed := 0
		for _, s := range frameScenarios {
			want := strings.NewReplacer("SELF", self, "OTHER", other).Replace(s.want)
			var got any
			body, err := importJS("frames.js", s.fn, []any{other})
			require.NoError(t, err)
			err = headless.Eval(ctx, body, &got)
			gotJSON := fmt.Sprint(err)
			if err == nil {
				gotJSON = mustJSON(t, got)
			}
			if native {
				if jsonEqual(gotJSON, want) {
					passed++
				} else {
					t.Logf("native Chromium: %s: got %s, the fallback gives %s", s.name, gotJSON, want)
				}
				continue
			}
			if assert.JSONEq(t, want, gotJSON, s.name) {
				passed++
			}
		}
		t.Logf("%s: %d of %d frame scenarios as the fallback does them", modeName(native), passed, len(frameScenarios))
	})
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// jsonEqual says whether two JSON texts hold the same value.
func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}
