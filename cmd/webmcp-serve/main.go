// Command webmcp-serve serves a folder (web/ by default) on localhost for `make demo`.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

func main() {
	dir := flag.String("dir", "web", "folder to serve")
	addr := flag.String("addr", "localhost:"+envOr("PORT", "8080"), "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("webmcp-serve: %v (set PORT to use another port)", err)
	}
	// Print localhost, not the resolved address: only localhost is a secure context, which
	// WebMCP needs.
	host := fmt.Sprintf("localhost:%d", ln.Addr().(*net.TCPAddr).Port)
	fmt.Printf("Serving %s on http://%s/\n", *dir, host)
	fmt.Printf("  demo page:  http://%s/demo/\n", host)
	fmt.Printf("  native WebMCP: start Chromium with --enable-features=WebMCP (without it the bridge provides the API)\n")
	// The unpacked extension is the one make build writes into dist/, with its copy of the bridge
	// and its manifest's version; the sources in extension/ do not load.
	ext, err := filepath.Abs(filepath.Join(*dir, "dist", "extension"))
	if err != nil {
		log.Fatalf("webmcp-serve: %v", err)
	}
	fmt.Printf("  extension:  chrome://extensions → Developer mode → Load unpacked → %s\n", ext)
	log.Fatal(http.Serve(ln, serve.Handler(*dir)))
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
