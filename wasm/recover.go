package main

import "fmt"

// panicDetail adds to a recovered panic's message; the test build sets it to the stack, the
// shipped module says nothing more.
var panicDetail = func() string { return "" }

// recovered runs call and turns a panic into an error frame that names the export.
func recovered(name string, call func() []byte) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			out = errorFrame("Error",
				fmt.Sprintf("webmcp-bridge: %s failed inside the module: %v%s", name, p, panicDetail()), nil)
		}
	}()
	return call()
}
