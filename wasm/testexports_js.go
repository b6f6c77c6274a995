//go:build js && wasm && webmcptest

package main

import (
	"runtime"
	"runtime/debug"

	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// Test build only (-tags webmcptest): exports for the browser tests and the benchmarks, and
// panic stacks in error messages. The shipped module has none of this.
func init() {
	panicDetail = func() string { return "\n" + string(debug.Stack()) }
	handlers[boundary.ExportPanicForTest] = func(*Module, args) []byte { panic("test-only panic requested by the page") }
	// crashForTest ends the module the way a real fatal error would (Go's "stack overflow"),
	// so the browser tests can check that the loader restarts it.
	handlers[boundary.ExportCrashForTest] = func(*Module, args) []byte {
		debug.SetMaxStack(64 << 10)
		return recurseForever(0)
	}
	handlers[boundary.ExportStats] = func(m *Module, _ args) []byte {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return frame(func(w *jsonvalue.Writer) {
			w.Value(map[string]any{"goroutines": runtime.NumGoroutine(), "heapAlloc": int64(ms.HeapAlloc),
				"heapSys": int64(ms.HeapSys), "schemas": m.Schemas(), "utf8Strings": utf8Strings})
		}, nil)
	}
}

//go:noinline
func recurseForever(n int) []byte {
	var pad [256]byte
	pad[n%256] = byte(n)
	return append(recurseForever(n+1), pad[0])
}
