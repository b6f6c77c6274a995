//go:build !js

package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/headless"
)

// coldCall times the first call that needs Go on a freshly loaded page with the bridge (the
// shipped build): executeTool of the 10 KB HTML tool, so the loader starts the bridge's
// Worker, which fetches, compiles and starts the module and normalizes the result. No file is
// cached (no-store; a fresh tab).
const coldCall = `await window.benchRegistered;
const tool = (await document.modelContext.getTools()).find((t) => t.name === "html_10kb");
const t0 = performance.now();
const out = await document.modelContext.executeTool(tool, {});
const ms = performance.now() - t0;
if (!out.includes('"resource"')) throw new Error("cold call: " + out.slice(0, 200));
return ms;`

// readyThenCall splits the cold first call in two, on another fresh page: reading
// WebMCPBridge.ready (the Worker started, the module fetched, compiled and run to its start
// answer), then the first call (its code running for the first time).
const readyThenCall = `await window.benchRegistered;
const tool = (await document.modelContext.getTools()).find((t) => t.name === "html_10kb");
const t0 = performance.now();
await WebMCPBridge.ready;
const t1 = performance.now();
await document.modelContext.executeTool(tool, {});
const t2 = performance.now();
await document.modelContext.executeTool(tool, {});
return [t1 - t0, t2 - t1, performance.now() - t2];`

// coldStart measures row 3: the cold first call against a minimal Go WebAssembly program
// started in a Worker the same way (new Worker, wasm_exec.js, the .wasm fetched, compiled and
// run to main), fresh tabs in pairs, the order alternated; the ratio is the median of the pairs'.
func (b *bench) coldStart() {
	var bridge, minimal, ratios, ready, first, second []float64
	var transferred int
	for r := 0; r < b.starts; r++ {
		var bms, mms float64
		for i, which := range []string{"bridge", "minimal"} {
			if r%2 == 1 {
				which = []string{"minimal", "bridge"}[i]
			}
			tab, cancel := chromedp.NewContext(b.root)
			if which == "bridge" {
				check(chromedp.Do(tab, chromedp.Navigate(b.base+"/load/bridge.html")))
				time.Sleep(300 * time.Millisecond)
				mark := b.log.mark()
				check(headless.Eval(tab, coldCall, &bms))
				served, _ := b.log.since(mark)
				transferred = 0
				worker := false
				for _, s := range served {
					transferred += s.Bytes
					worker = worker || strings.HasSuffix(s.Path, "/webmcp-bridge-worker.js")
				}
				if !worker {
					check(fmt.Errorf("cold call: the bridge's Worker was not started (served %v)", served))
				}
			} else {
				check(chromedp.Do(tab, chromedp.Navigate(b.base+"/bench/empty.html")))
				time.Sleep(300 * time.Millisecond)
				check(headless.Eval(tab, `return await startMinimal()`, &mms))
			}
			cancel()
		}
		bridge, minimal, ratios = append(bridge, bms), append(minimal, mms), append(ratios, bms/mms)
		tab, cancel := chromedp.NewContext(b.root)
		check(chromedp.Do(tab, chromedp.Navigate(b.base+"/load/bridge.html")))
		time.Sleep(300 * time.Millisecond)
		var split [3]float64
		check(headless.Eval(tab, readyThenCall, &split))
		cancel()
		ready, first, second = append(ready, split[0]), append(first, split[1]), append(second, split[2])
	}
	ratio := median(ratios)
	b.add(row{"cold", "3. cold first call: module fetched, compiled, started in the Worker, 10 KB HTML normalized",
		fmt.Sprintf("%.0f ms (%.2f MB gzip fetched; apart: `ready` %.0f ms, then that first call %.0f ms, the next %.1f ms) vs %.0f ms for a minimal Go wasm started in a Worker (new Worker, `wasm_exec.js`, `minimal.wasm` fetched, compiled, run to `main`; no call)",
			median(bridge), float64(transferred)/1e6, median(ready), median(first), median(second), median(minimal)),
		fmt.Sprintf("%.2f ×", ratio), "≤ 2.0 × minimal", met(ratio <= 2.0)})
}
