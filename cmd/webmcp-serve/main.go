// Command webmcp-serve serves a folder (web/ by default) on localhost for the demo and the
// browser tests: static files with the right MIME types (application/wasm included) and no
// caching, so a rebuilt module is always the one that loads.
package main

import (
	"flag"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
)

func main() {
	dir := flag.String("dir", "web", "folder to serve")
	addr := flag.String("addr", "localhost:"+envOr("PORT", "8080"), "address to listen on")
	flag.Parse()
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".mjs", "text/javascript")
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("webmcp-serve: %v (set PORT to use another port)", err)
	}
	// Print localhost, not the resolved address: only localhost is a secure context, which
	// WebMCP needs.
	host := "localhost:" + fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	fmt.Printf("Serving %s on http://%s/\n", *dir, host)
	fmt.Printf("  demo page: http://%s/demo/\n", host)
	fmt.Printf("  native WebMCP: start Chromium with --enable-features=WebMCP; without it the bridge provides the API\n")
	log.Fatal(http.Serve(ln, Handler(*dir)))
}

// Handler serves dir without caching.
func Handler(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fs.ServeHTTP(w, r)
	})
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
