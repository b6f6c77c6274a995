// Package serve is the static file server behind `make demo` and the browser tests: the right
// MIME types (application/wasm included), the module gzip-compressed for browsers that accept
// it (docs/benchmarks.md has the sizes), and no caching, so a rebuilt module always loads.
package serve

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
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
		if strings.HasSuffix(r.URL.Path, ".wasm") && acceptsGzip(r) && compressed.serve(w, r, dir) {
			return
		}
		fs.ServeHTTP(w, r)
	})
}

// acceptsGzip says whether the request's Accept-Encoding lists gzip.
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if strings.TrimSpace(strings.SplitN(e, ";", 2)[0]) == "gzip" {
			return true
		}
	}
	return false
}

// compressed keeps the compressed form of each module served (by every handler: the browser
// tests start many), until its file changes.
var compressed = &gzipped{}

type gzipped struct {
	mu    sync.Mutex
	files map[string]gzipFile
}

type gzipFile struct {
	modTime time.Time
	size    int64
	data    []byte
}

// serve writes the file of r's path under dir compressed, and reports whether it did (false: a
// file it cannot read, which the file server answers).
func (g *gzipped) serve(w http.ResponseWriter, r *http.Request, dir string) bool {
	name := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
	info, err := os.Stat(name)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	f, ok := g.files[name]
	if !ok || !f.modTime.Equal(info.ModTime()) || f.size != info.Size() {
		raw, err := os.ReadFile(name)
		if err != nil {
			return false
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
		zw.Write(raw)
		zw.Close()
		f = gzipFile{modTime: info.ModTime(), size: info.Size(), data: b.Bytes()}
		if g.files == nil {
			g.files = map[string]gzipFile{}
		}
		g.files[name] = f
	}
	h := w.Header()
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/wasm")
	}
	h.Set("Content-Encoding", "gzip")
	h.Set("Content-Length", strconv.Itoa(len(f.data)))
	h.Add("Vary", "Accept-Encoding")
	if r.Method != http.MethodHead {
		w.Write(f.data)
	}
	return true
}
