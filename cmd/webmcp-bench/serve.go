//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// gzipped serves h's answers gzip-compressed (level 9, as `gzip -9`) to clients that accept it,
// as a production server or CDN would, so that every page and library is measured compressed
// the same way. internal/serve does not compress. Compressed bodies are cached by path,
// Last-Modified and size, so compressing the 6 MB module once does not count as server time in
// the start-up figures (internal/serve, which compresses .wasm files itself, is asked for them
// uncompressed); every answer still carries Cache-Control: no-store (from serve), so the
// browser keeps no copy and no code cache between tabs.
func gzipped(h http.Handler) http.Handler {
	var mu sync.Mutex
	cache := map[string][]byte{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.Header.Get("Range") != "" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		plain := r.Clone(r.Context()) // internal/serve would compress the module itself, at its own level
		plain.Header.Del("Accept-Encoding")
		h.ServeHTTP(rec, plain)
		res := rec.Result()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		body := rec.Body.Bytes()
		if res.StatusCode != http.StatusOK || len(body) < 256 {
			w.WriteHeader(res.StatusCode)
			_, _ = w.Write(body)
			return
		}
		key := r.URL.Path + "\x00" + res.Header.Get("Last-Modified") + "\x00" + strconv.Itoa(len(body))
		mu.Lock()
		gz, ok := cache[key]
		mu.Unlock()
		if !ok {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			_, _ = zw.Write(body)
			_ = zw.Close()
			gz = b.Bytes()
			if res.Header.Get("Last-Modified") != "" { // a file: worth keeping
				mu.Lock()
				cache[key] = gz
				mu.Unlock()
			}
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
		w.Header().Add("Vary", "Accept-Encoding")
		w.Header().Del("Accept-Ranges")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(gz)
	})
}

// served is one answer of the bench's server: the path and the body bytes written (compressed
// where it was).
type served struct {
	Path  string
	Bytes int
}

// serverLog records every answer of the bench's server: the page's requests and its Workers'
// alike (DevTools' network log of a page does not show a dedicated Worker's).
type serverLog struct {
	mu  sync.Mutex
	all []served
}

func (l *serverLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &countingWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		l.mu.Lock()
		l.all = append(l.all, served{r.URL.Path, cw.n})
		l.mu.Unlock()
	})
}

// since returns the answers logged after mark (a len of an earlier snapshot) and the new mark.
func (l *serverLog) since(mark int) ([]served, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]served(nil), l.all[mark:]...), len(l.all)
}

func (l *serverLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.all)
}

type countingWriter struct {
	http.ResponseWriter
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n += n
	return n, err
}

// warm requests paths from h once, gzip accepted, so that their compressed bodies are cached
// before anything is timed.
func warm(h http.Handler, paths ...string) {
	for _, p := range paths {
		r := httptest.NewRequest("GET", p, nil)
		r.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
}
