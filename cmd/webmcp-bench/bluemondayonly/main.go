//go:build js && wasm

// Command bluemondayonly is the floor the mission sets: bluemonday's UGCPolicy and nothing of
// the bridge, built by cmd/webmcp-bench with the same Go, x/net and flags as the module. Its
// gzip size is the size floor, and in a Worker of the bench page (pages/floor-worker.js)
// globalThis.__bluemondayOnly.sanitize(doc) is the per-call floor: the page sends the HTML, the
// Worker sanitizes it and sends the markup back, as the bridge's Worker does with a result.
package main

import (
	"syscall/js"

	"github.com/microcosm-cc/bluemonday"
)

func main() {
	policy := bluemonday.UGCPolicy() // built once, then shared, as bluemonday recommends
	api := js.Global().Get("Object").New()
	api.Set("sanitize", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return policy.Sanitize(args[0].String())
	}))
	js.Global().Set("__bluemondayOnly", api)
	if cb := js.Global().Get("__bluemondayOnlyStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
