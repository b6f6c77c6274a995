//go:build js && wasm

package bridge_test

import (
	"errors"
	"syscall/js"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// In WebAssembly the module maps international host names with the browser's URL parser
// (wasm/hostmap_js.go); these tests run under Node, whose URL is the WHATWG parser too.
func init() {
	urlCtor := js.Global().Get("URL")
	sanitize.SetHostMapper(func(host string) (ascii string, err error) {
		defer func() {
			if recover() != nil {
				ascii, err = "", errors.New("URL refuses the host")
			}
		}()
		return urlCtor.New("http://" + host + "/").Get("hostname").String(), nil
	})
}
