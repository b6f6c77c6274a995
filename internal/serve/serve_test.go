package serve_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/webmcp-bridge/webmcp-bridge/internal/serve"
)

// TestWasmCompressed: a module is served as application/wasm, gzip-compressed to a browser that
// accepts it (and as it is to one that does not), and a rebuilt module is served anew.
func TestWasmCompressed(t *testing.T) {
	dir := t.TempDir()
	module := append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("webmcp-bridge "), 4096)...)
	wasm := filepath.Join(dir, "m.wasm")
	if err := os.WriteFile(wasm, module, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(serve.Handler(dir))
	defer srv.Close()
	get := func(encoding string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+"/m.wasm", nil)
		req.Header.Set("Accept-Encoding", encoding)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}
	resp, body := get("gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("want gzip and application/wasm, got %q and %q", resp.Header.Get("Content-Encoding"),
			resp.Header.Get("Content-Type"))
	}
	if len(body) >= len(module)/10 {
		t.Errorf("compressed to %d of %d bytes", len(body), len(module))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, module) {
		t.Error("the compressed body is not the module")
	}
	resp, body = get("identity")
	if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, module) {
		t.Errorf("without gzip in Accept-Encoding the module is sent as it is (got %q, %d bytes)",
			resp.Header.Get("Content-Encoding"), len(body))
	}
	rebuilt := append(module, "more"...)
	if err := os.WriteFile(wasm, rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	_, body = get("gzip")
	zr, _ = gzip.NewReader(bytes.NewReader(body))
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, rebuilt) {
		t.Error("a rebuilt module is served anew")
	}
}
