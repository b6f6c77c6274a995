//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so that the package builds natively, where its handlers are tested; the module
// itself runs only as GOOS=js GOARCH=wasm.
func main() {
	fmt.Fprintln(os.Stderr,
		"webmcp-bridge's module runs only in a browser: build it with GOOS=js GOARCH=wasm (make build)")
	os.Exit(2)
}
