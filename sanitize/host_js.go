//go:build js && wasm

package sanitize

// defaultHostMapper is none in WebAssembly: the module sets the browser's URL parser (see
// host.go), so the IDNA tables are not linked.
var defaultHostMapper HostMapper
