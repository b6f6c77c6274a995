//go:build js && wasm

// Command minimal is the yardstick for start-up: the smallest Go WebAssembly program that
// uses syscall/js, built with the same Go as the bridge (cmd/webmcp-bench builds it). It calls
// globalThis.__minimalStarted when its main runs: in the bench, a Worker's (pages/start-worker.js).
package main

import "syscall/js"

func main() {
	if cb := js.Global().Get("__minimalStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
