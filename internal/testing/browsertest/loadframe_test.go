//go:build !js

package browsertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNoFrameAtLoad: the fresh realm the loader makes to tell whether the page's JSON is the
// browser's own (builtins.ts) is made on the first need, not at load: a page whose tools are
// registered and never called shows its MutationObservers no frame; the first call makes it, and
// the call answers as before. It logs what the loader's script took and what one such realm costs.
func TestNoFrameAtLoad(t *testing.T) {
	skipWithoutBuild(t)
	eachMode(t, func(t *testing.T, ctx context.Context, native bool) {
		base := serveTestBuild(t)
		open(t, ctx, base+"/test/loadframe.html")
		var load struct {
			Frames   int
			LoaderMs float64
		}
		runJS(t, ctx, "loadframe.js", "atLoad", &load)
		assert.Zero(t, load.Frames, "no frame at load")
		var call struct {
			Frames int
			Result string
		}
		runJS(t, ctx, "loadframe.js", "afterCall", &call)
		assert.Equal(t, 1, call.Frames, "the first call makes the realm, once")
		assert.JSONEq(t, `{"content":[{"type":"text","text":"result of a"}],"resultType":"complete"}`, call.Result)
		var frameMs float64
		runJS(t, ctx, "loadframe.js", "frameCheckMs", &frameMs)
		t.Logf("%s: the loader's script took %.1f ms; one fresh realm costs %.2f ms (median of 21)",
			modeName(native), load.LoaderMs, frameMs)
	})
}
