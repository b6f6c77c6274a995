// Package serve is the static file server behind `make demo` and the browser tests: the right
// MIME types (application/wasm included) and no caching, so a rebuilt module always loads.
package serve

import (
	"mime"
	"net/http"
)

func init() {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".mjs", "text/javascript")
}

// Handler serves the files under dir.
func Handler(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fs.ServeHTTP(w, r)
	})
}
