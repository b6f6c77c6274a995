//go:build !js

package browsertest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStartupAndSize records what a page pays to load the bridge: the module's size and the
// time from inserting the script tag to `ready`. It asserts only that the bridge becomes ready
// and that a page can register a tool on the next line; the figures go to the test log.
func TestStartupAndSize(t *testing.T) {
	info, err := os.Stat(filepath.Join("..", "dist", "webmcp-bridge.wasm"))
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
		eval(t, ctx, `
			const t0 = performance.now();
			const s = document.createElement("script");
			s.src = "../dist/webmcp-bridge.js?" + Math.random();
			document.head.append(s);
			await new Promise((r) => s.onload = r);
			const reg = document.modelContext.registerTool({name: "startup_" + Math.random().toString(36).slice(2), description: "d", execute: () => "x"});
			await WebMCPBridge.ready;
			const ms = performance.now() - t0;
			await reg;
			return {ms, reg: "ok"};`, &r)
		assert.Equal(t, "ok", r.Reg)
		ms = append(ms, r.Ms)
	}
	t.Logf("script tag to ready, 5 fresh page loads: %.0f ms", ms)
}

// TestNoLeaksOver100kCalls makes 100,000 normalize calls through the module and checks that
// goroutines do not grow and the Go heap returns to where it was.
func TestNoLeaksOver100kCalls(t *testing.T) {
	base := serveWeb(t)
	ctx := browser(t, false)
	open(t, ctx, base+"/test/blank.html")
	var r struct {
		Before map[string]float64 `json:"before"`
		After  map[string]float64 `json:"after"`
	}
	eval(t, ctx, `
		await WebMCPBridge.ready;
		const before = WebMCPBridge._go("stats");
		for (let i = 0; i < 100000; i++) WebMCPBridge._go("normalize", JSON.stringify({type: "html", html: "<b>" + i + "</b><script>x()<\/script>"}));
		const after = WebMCPBridge._go("stats");
		return {before, after};`, &r)
	t.Logf("before: %v; after 100,000 calls: %v", r.Before, r.After)
	assert.Equal(t, r.Before["goroutines"], r.After["goroutines"], "goroutines")
	assert.Less(t, r.After["heapAlloc"], r.Before["heapAlloc"]+4<<20, "the Go heap stays flat (within 4 MiB)")
}
