//go:build js && wasm

// Command sanitizeonly is the benchmark's view inside the normalize of an html block, built by
// cmd/webmcp-bench with the same Go as the bridge and run in a Worker of the bench page:
// globalThis.__sanitizeOnly.bluemonday(doc) is sanitize.HTML (bluemonday with the bridge's
// policy, nothing else) and .sanitize(doc) is sanitize.HTMLAndText (bluemonday, then the
// plain-text rendering and the removal report: what Normalize does with the markup). Each
// returns the length of the sanitized markup, so that only the Go work and the copy of the
// document into Go are timed.
package main

import (
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("bluemonday", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return len(sanitize.HTML(args[0].String(), sanitize.DefaultHTMLRules()))
	}))
	api.Set("sanitize", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return len(sanitize.HTMLAndText(args[0].String(), sanitize.DefaultHTMLRules()).HTML)
	}))
	js.Global().Set("__sanitizeOnly", api)
	if cb := js.Global().Get("__sanitizeOnlyStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
