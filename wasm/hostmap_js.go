//go:build js && wasm

package main

import (
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
	"github.com/webmcp-bridge/webmcp-bridge/wasm/jsurl"
)

// The module maps international host names with the browser's own URL parser instead of
// carrying x/net/idna and its Unicode tables (see sanitize.SetHostMapper).
func init() { sanitize.SetHostMapper(jsurl.HostMapper()) }
