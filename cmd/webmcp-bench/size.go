//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// moduleSize measures row 0: the shipped module's gzip -9 size against programs built here with
// the same Go and flags — a minimal Go wasm (syscall/js alone) and the floor, bluemonday's
// UGCPolicy alone (bluemondayonly) — and, from builds with symbols, the code each package adds
// to the module beyond the floor's (the name section read by wasmCode: `go tool nm` does not
// read wasm).
func (b *bench) moduleSize() {
	module := gzipSize(filepath.Join(b.dist, "webmcp-bridge.wasm"))
	raw, err := os.Stat(filepath.Join(b.dist, "webmcp-bridge.wasm"))
	check(err)
	minimal := gzipSize(filepath.Join(b.helpers, "minimal.wasm"))
	floor := gzipSize(filepath.Join(b.helpers, "bluemondayonly.wasm"))
	b.add(row{"size", "0. the module, gzip -9 (`webmcp-bridge.wasm`)",
		fmt.Sprintf("%s B (%.2f MB raw) vs a minimal Go wasm %s B, built here with the same Go and `-ldflags=-s -w`",
			thousands(module), float64(raw.Size())/1e6, thousands(minimal)),
		fmt.Sprintf("%.2f × minimal", float64(module)/float64(minimal)), "≤ 1,150,000 B", met(module <= 1150000)})
	r := float64(module) / float64(floor)
	b.add(row{"size-floor", "0. the module against bluemonday alone, gzip -9",
		fmt.Sprintf("%s B vs %s B for bluemonday's UGCPolicy alone (`bluemondayonly`: same Go, same x/net, `-ldflags=-s -w`)",
			thousands(module), thousands(floor)),
		fmt.Sprintf("%.2f ×", r), "≤ 1.10 × bluemonday alone", met(r <= 1.10)})
	ours, err := wasmCode(filepath.Join(b.helpers, "module-symbols.wasm"))
	check(err)
	base, err := wasmCode(filepath.Join(b.helpers, "bluemondayonly-symbols.wasm"))
	check(err)
	b.sections = append(b.sections, packageTable(ours, base))
}

// packageTable is a Markdown section: the bytes of code (and of data) per package in the module
// against the floor, the packages that add the most first.
func packageTable(ours, base map[string]int) string {
	var w strings.Builder
	total, baseTotal := 0, 0
	for _, n := range ours {
		total += n
	}
	for _, n := range base {
		baseTotal += n
	}
	fmt.Fprintf(&w, "## What the module holds beyond bluemonday alone\n\n"+
		"Bytes of WebAssembly code per Go package (and of data segments), uncompressed, in the module and in "+
		"`bluemondayonly` (both built with symbols by this run; in all %s B vs %s B). Packages that add at least 4 KB:\n\n",
		thousands(total), thousands(baseTotal))
	fmt.Fprintf(&w, "| package | module | bluemonday alone | added |\n|---|---|---|---|\n")
	pkgs := make([]string, 0, len(ours))
	for p := range ours {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return ours[pkgs[i]]-base[pkgs[i]] > ours[pkgs[j]]-base[pkgs[j]] })
	for _, p := range pkgs {
		if d := ours[p] - base[p]; d >= 4000 {
			fmt.Fprintf(&w, "| `%s` | %s | %s | %s |\n", p, thousands(ours[p]), thousands(base[p]), thousands(d))
		}
	}
	return w.String()
}

// thousands writes n with commas.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
