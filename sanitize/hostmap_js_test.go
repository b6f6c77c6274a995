//go:build js && wasm

package sanitize_test

import (
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
	"github.com/webmcp-bridge/webmcp-bridge/wasm/jsurl"
)

// In WebAssembly the module maps international host names with the browser's URL parser
// (wasm/jsurl); these tests run under Node, whose URL is the WHATWG parser too.
func init() { sanitize.SetHostMapper(jsurl.HostMapper()) }
