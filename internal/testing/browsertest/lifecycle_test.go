//go:build !js

package browsertest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStartupAndSize records what a page pays to load the bridge: the module's size and the
// time from inserting the script tag to `ready`. It asserts only that the bridge becomes ready
// and that a page can register a tool on the next line; the figures go to the test log.
func TestStartupAndSize(t *testing.T) {
	skipWithoutBuild(t)
	info, err := os.Stat(fromRoot("web", "dist", "webmcp-bridge.wasm"))
	if err == nil {
		t.Logf("module: %d bytes", info.Size())
	}
	base := serveWeb(t)
	ctx := browser(t, false)
	var ms []float64
	for i := 0; i < 5; i++ {
		open(t, ctx, base+"/test/empty.html")
		var r struct {
			Ms  float64 `json:"ms"`
			Reg string  `json:"reg"`
		}
		runJS(t, ctx, "lifecycle.js", "startup", &r)
		assert.Equal(t, "ok", r.Reg)
		ms = append(ms, r.Ms)
	}
	t.Logf("script tag to ready, 5 fresh page loads: %.0f ms", ms)
}

// TestNoLeaksOver100kCalls makes 100,000 normalize calls through the module and checks that
// goroutines do not grow and the Go heap returns to where it was.
func TestNoLeaksOver100kCalls(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/blank.html")
	var r struct {
		Before map[string]float64 `json:"before"`
		After  map[string]float64 `json:"after"`
	}
	runJS(t, ctx, "lifecycle.js", "manyCalls", &r, 100000)
	t.Logf("before: %v; after 100,000 calls: %v", r.Before, r.After)
	assert.Equal(t, r.Before["goroutines"], r.After["goroutines"], "goroutines")
	assert.Less(t, r.After["heapAlloc"], r.Before["heapAlloc"]+4<<20, "the Go heap stays flat (within 4 MiB)")
}

// TestModulePanicIsContained: a Go panic inside the module (the test build's panicForTest)
// answers that one call with an error that names the export, and the module keeps working.
func TestModulePanicIsContained(t *testing.T) {
	skipWithoutBuild(t)
	base := serveTestBuild(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/tools.html")
	var got struct {
		Head  map[string]any `json:"head"`
		After result         `json:"after"`
	}
	runJS(t, ctx, "lifecycle.js", "panicInModule", &got)
	e := got.Head["error"].(map[string]any)
	assert.Contains(t, e["message"], "panicForTest failed inside the module: test-only panic")
	assert.Contains(t, e["message"], "goroutine", "the test build adds the stack")
	assert.Equal(t, "hello", got.After.Content[0]["text"], "the module still answers after a panic")
}
