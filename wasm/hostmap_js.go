//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// The module maps international host names with the browser's own URL parser instead of
// carrying x/net/idna and its Unicode tables (see sanitize.SetHostMapper): the host as the
// browser reads it is what sanitize.BrowserHost means, and the browser already holds the tables.
func init() {
	urlCtor := js.Global().Get("URL")
	sanitize.SetHostMapper(func(host string) (ascii string, err error) {
		defer func() {
			if recover() != nil { // new URL throws a TypeError for a host it refuses
				ascii, err = "", errHostRefused
			}
		}()
		return urlCtor.New("http://" + host + "/").Get("hostname").String(), nil
	})
}

var errHostRefused = errors.New("the browser's URL parser refuses the host")
