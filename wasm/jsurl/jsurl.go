//go:build js && wasm

// Package jsurl maps host names with the URL parser of the JavaScript environment the module
// runs in (the browser's, or Node's WHATWG URL under `GOOS=js GOARCH=wasm go test`): the one place
// the module, and the core's js/wasm tests, set sanitize's host mapper from.
package jsurl

import (
	"errors"
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// ErrHostRefused is the error for a host the URL parser refuses.
var ErrHostRefused = errors.New("the browser's URL parser refuses the host")

// HostMapper returns a sanitize.HostMapper that reads a host as new URL("http://host/") does:
// the host as the browser reads it, international names in Punycode. The browser already holds
// the Unicode tables x/net/idna would carry.
func HostMapper() sanitize.HostMapper {
	urlCtor := js.Global().Get("URL")
	return func(host string) (ascii string, err error) {
		defer func() {
			if recover() != nil { // new URL throws a TypeError for a host it refuses
				ascii, err = "", ErrHostRefused
			}
		}()
		return urlCtor.New("http://" + host + "/").Get("hostname").String(), nil
	}
}
