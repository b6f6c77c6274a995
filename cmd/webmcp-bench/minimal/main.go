//go:build js && wasm

// Command minimal is the yardstick for start-up: the smallest Go WebAssembly program that
// uses syscall/js, built with the same Go as the bridge. It calls the page back when it runs.
package main

import "syscall/js"

func main() {
	if cb := js.Global().Get("__minimalStarted"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
