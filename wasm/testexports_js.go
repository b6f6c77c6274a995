//go:build js && wasm && webmcptest

package main

import (
	"runtime"
	"runtime/debug"
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// Test build only (-tags webmcptest): exports for the browser tests and the benchmarks, and
// panic stacks in error messages. The shipped module has none of this.
func init() {
	panicDetail = func() string { return "\n" + string(debug.Stack()) }
	exports["panicForTest"] = func(*Module, []js.Value) []byte { panic("test-only panic requested by the page") }
	exports["stats"] = func(m *Module, _ []js.Value) []byte {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return frame(func(w *jsonvalue.Writer) {
			w.Value(map[string]any{"goroutines": runtime.NumGoroutine(), "heapAlloc": int64(ms.HeapAlloc),
				"heapSys": int64(ms.HeapSys), "schemas": m.Schemas()})
		}, nil)
	}
}
