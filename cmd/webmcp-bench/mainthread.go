//go:build !js

package main

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// mainThread measures row 5: how long the page's own thread works while a ~500 KB HTML result is
// normalized in the bridge's Worker. Method: one Chrome trace of nine runs of each call, 50 ms
// apart (traceMainThread), and for each run the summed durations of the top-level tasks the
// page's main thread ran between a performance mark before the call and one after it:
// everything that thread did for the call (serializing the value and posting it, receiving the
// answer, JSON.parse for normalize(), the browser's own handling of executeTool's string) and
// nothing the Worker did; less the same for a run that awaits only a timer (the marks and the
// loop). Medians of the nine. Also the longest of those tasks: the longest the page could not
// have answered input.
//
// Three calls: WebMCPBridge.normalize({type: "html", html}); the browser's executeTool of a tool
// that returns that document, on the bridge page (the agent's path: the result is handed on as
// JSON text, never parsed on the page); and the same executeTool on the page without the bridge,
// which is what the browser itself costs the page for a result that size. DevTools is attached
// (as for every row), which makes the bridge's console.warn of a violation dearer than it is
// for a page's visitors.
func (b *bench) mainThread() {
	do(
		b.bridged,
		`window.bigDoc = docs.article(); await window.benchRegistered; await bigNormalize(); await bigExecute(); return null`,
	)
	do(b.native, `window.bigDoc = docs.article(); await window.benchRegistered; await bigExecute(); return null`)
	type measured struct{ busy, longest, wall float64 }
	trace := func(page string, body string) measured {
		tab := b.bridged
		if page == "native" {
			tab = b.native
		}
		var busy, longest, wall []float64
		for _, t := range traceMainThread(tab, body, 9) {
			busy, longest, wall = append(busy, t.busyMs), append(longest, t.longestMs), append(wall, t.wallMs)
		}
		return measured{median(busy), median(longest), median(wall)}
	}
	empty := trace("bridge", `await new Promise((r) => setTimeout(r, 0))`) // the marks and the loop
	norm := trace("bridge", `await bigNormalize()`)
	exec := trace("bridge", `await bigExecute()`)
	native := trace("native", `await bigExecute()`)
	var size, bridgeOut, nativeOut int
	check(headless.Eval(b.bridged, `return bigDoc.length`, &size))
	check(headless.Eval(b.bridged, `return (await bigExecute()).length`, &bridgeOut))
	check(headless.Eval(b.native, `return (await bigExecute()).length`, &nativeOut))
	nb, xb, vb := norm.busy-empty.busy, exec.busy-empty.busy, native.busy-empty.busy
	b.add(row{"main-thread", fmt.Sprintf("5. page's thread during a %d KB HTML normalize (in the Worker)", size/1000),
		fmt.Sprintf(
			"`normalize()`: %.1f ms busy in %.0f ms, longest task %.1f ms; `executeTool` of a tool returning "+
				"it: %.1f ms busy in %.0f ms (longest %.1f ms; a %d KB result) vs %.1f ms without the bridge (the "+
				"browser's own handling of a %d KB result; longest %.1f ms). Chrome trace, top-level tasks of the "+
				"page's thread",
			nb,
			norm.wall,
			norm.longest,
			xb,
			exec.wall,
			exec.longest,
			bridgeOut/1000,
			vb,
			nativeOut/1000,
			native.longest,
		),
		fmt.Sprintf("bridge's share of `executeTool`: %.1f ms", xb-vb), "≤ 5 ms", met(nb <= 5 && xb-vb <= 5)})
}
