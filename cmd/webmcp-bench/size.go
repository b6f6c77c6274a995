//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
)

// gzipSize is the size of path compressed with gzip -9.
func gzipSize(path string) int {
	raw, err := os.ReadFile(path)
	check(err)
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	check(err)
	_, err = w.Write(raw)
	check(err)
	check(w.Close())
	return buf.Len()
}

// moduleSize measures the module's row: the shipped module's gzip -9 size against two programs
// built here with the same Go and flags: a minimal Go wasm (syscall/js alone) and one that only
// runs bluemonday's policy (sanitizeonly).
func (b *bench) moduleSize() {
	module := gzipSize(filepath.Join(b.dist, "webmcp-bridge.wasm"))
	raw, err := os.Stat(filepath.Join(b.dist, "webmcp-bridge.wasm"))
	check(err)
	minimal := gzipSize(filepath.Join(b.helpers, "minimal.wasm"))
	bluemonday := gzipSize(filepath.Join(b.helpers, "sanitizeonly.wasm"))
	b.add(row{"0. the module, gzip -9 (`webmcp-bridge.wasm`)",
		fmt.Sprintf("%s B (%.2f MB raw) vs a minimal Go wasm %s B and bluemonday alone (`sanitizeonly`) %s B, built here with the same Go and `-ldflags=-s -w`",
			thousands(module), float64(raw.Size())/1e6, thousands(minimal), thousands(bluemonday)),
		fmt.Sprintf("%.2f × bluemonday alone", float64(module)/float64(bluemonday)), "≤ 1,150,000 B", met(module <= 1150000)})
}

// thousands writes n with commas.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
