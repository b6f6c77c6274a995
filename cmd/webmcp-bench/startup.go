//go:build !js

package main

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
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
		fmt.Sprintf(
			"%.0f ms (%.2f MB gzip fetched; apart: `ready` %.0f ms, then that first call %.0f ms, the next "+
				"%.1f ms) vs %.0f ms for a minimal Go wasm started in a Worker (new Worker, `wasm_exec.js`, "+
				"`minimal.wasm` fetched, compiled, run to `main`; no call)",
			median(bridge),
			float64(transferred)/1e6,
			median(ready),
			median(first),
			median(second),
			median(minimal),
		),
		fmt.Sprintf("%.2f ×", ratio), "≤ 2.0 × minimal", met(ratio <= 2.0)})
}

// toMain measures row 3a: the module's start without the loader — a bare Worker that fetches,
// compiles and runs the shipped module to its main (start-worker.js) — against the minimal Go
// wasm and bluemonday alone (bluemondayonly) started the same way, in fresh tabs, the three in
// turn, the order rotated; each with its compile and its run to main apart.
func (b *bench) toMain() {
	type start [3]float64 // the whole, the compile, the run to main
	programs := []struct{ wasm, started string }{
		{"/dist/webmcp-bridge.wasm", boundary.GlobalStarted},
		{"/helpers/minimal.wasm", "__minimalStarted"},
		{"/helpers/bluemondayonly.wasm", "__bluemondayOnlyStarted"},
	}
	starts := make([][]start, len(programs))
	var ratios, floorRatios []float64
	for r := 0; r < b.starts; r++ {
		var round [3]start
		for i := range programs {
			which := (i + r) % len(programs)
			tab, cancel := chromedp.NewContext(b.root)
			check(chromedp.Do(tab, chromedp.Navigate(b.base+"/bench/empty.html")))
			time.Sleep(300 * time.Millisecond)
			var s start
			check(headless.Eval(tab, fmt.Sprintf(`return await startGo(%q, %q)`,
				programs[which].wasm, programs[which].started), &s))
			cancel()
			round[which] = s
			starts[which] = append(starts[which], s)
		}
		ratios = append(ratios, round[0][0]/round[1][0])
		floorRatios = append(floorRatios, round[0][0]/round[2][0])
	}
	part := func(which, i int) float64 {
		var xs []float64
		for _, s := range starts[which] {
			xs = append(xs, s[i])
		}
		return median(xs)
	}
	say := func(which int) string {
		return fmt.Sprintf("%.0f ms (compile %.0f ms, then instantiate and run to `main` %.0f ms)",
			part(which, 0), part(which, 1), part(which, 2))
	}
	ratio := median(ratios)
	b.add(row{"cold-main", "3a. start-up to `main`: the module vs a minimal Go wasm, each in a bare Worker (no loader)",
		fmt.Sprintf("%s vs %s; bluemonday alone %s, the module %.2f × it; medians of %d rounds, the order rotated",
			say(0), say(1), say(2), median(floorRatios), b.starts),
		fmt.Sprintf("%.2f ×", ratio), "≤ 2.5 × minimal", met(ratio <= 2.5)})
}

// cacheable serves the files under dir as a production server would for a versioned asset:
// cacheable for an hour, so that a second visit takes the module from the HTTP cache, and the
// browser can keep the code it compiled from it (V8's cache for compileStreaming, which the
// loader's Worker uses).
func cacheable(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fs.ServeHTTP(w, r)
	})
}

// secondVisit measures row 3b: the first call on a page whose files the server lets the
// browser cache, on three visits in turn (fresh tabs of the same browser): the first fetches
// and compiles the module, the next find it in the HTTP cache and, once the browser has written
// it, the compiled code too. Each visit's module bytes come from the server's log.
func (b *bench) secondVisit() {
	var times []float64
	var fetched []string
	for visit := 0; visit < 3; visit++ {
		tab, cancel := chromedp.NewContext(b.root)
		check(chromedp.Do(tab, chromedp.Navigate(b.base+"/load/bridge-cached.html")))
		time.Sleep(300 * time.Millisecond)
		mark := b.log.mark()
		var ms float64
		check(headless.Eval(tab, coldCall, &ms))
		served, _ := b.log.since(mark)
		wasm := 0
		for _, s := range served {
			if strings.HasSuffix(s.Path, ".wasm") {
				wasm += s.Bytes
			}
		}
		time.Sleep(2 * time.Second) // the browser writes its caches after the module has run
		cancel()
		times, fetched = append(times, ms), append(fetched, fmt.Sprintf("%s B", thousands(wasm)))
	}
	b.add(
		row{
			"second-visit",
			"3b. first call on a visit when the server lets the browser cache the module (1st, 2nd, 3rd visit)",
			fmt.Sprintf(
				"%.0f ms, %.0f ms, %.0f ms (module bytes fetched: %s)",
				times[0],
				times[1],
				times[2],
				strings.Join(fetched, ", "),
			),
			fmt.Sprintf("%.2f × the first visit", times[2]/times[0]),
			"reported",
			"",
		},
	)
}
