//go:build !js

package browsertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProxiedJSONCannotForgeANotice: a callable Proxy around JSON.parse, set before the loader,
// reads as the browser's own to Function.prototype.toString; the loader takes its JSON from a
// fresh frame whatever the page's looks like, and a page listener that reaches for that frame
// (a capturing load listener, a MutationObserver) comes too late. The agent reads "hello" and
// no block the page marked as the bridge's notice, with the Worker on and off (issue 35, point 5).
func TestProxiedJSONCannotForgeANotice(t *testing.T) {
	skipWithoutBuild(t)
	base := serveWeb(t)
	for _, worker := range []string{"on", "off"} {
		t.Run("worker "+worker, func(t *testing.T) {
			ctx := browser(t, false)
			open(t, ctx, base+"/test/proxyjson.html?worker="+worker)
			var got struct {
				Texts, Marked []string
				Forged        map[string]float64
				NativeLooking bool
			}
			runJS(t, ctx, "proxyjson.js", "callThroughProxy", &got)
			assert.True(t, got.NativeLooking, "the Proxy passes a toString test")
			assert.Equal(t, []string{"hello"}, got.Texts)
			assert.Empty(t, got.Marked, "no notice the page wrote")
			assert.Zero(t, got.Forged["parse"], "the page's JSON.parse never read a result of the bridge's")
		})
	}
}
