//go:build !js

package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gzipSize is the size of path compressed with gzip -9.
func gzipSize(path string) int {
	raw, err := os.ReadFile(path)
	check(err)
	return gzipLen(raw)
}

// moduleSize measures row 0: the shipped module's gzip -9 size against programs built here with
// the same Go and flags — a minimal Go wasm (syscall/js alone) and the floor, bluemonday's
// UGCPolicy alone (bluemondayonly) — and, from builds with symbols, what the module holds beyond
// the floor (sizeSections); and row 3c, the module's package initialisation natively.
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
		fmt.Sprintf("%s B vs %s B for bluemonday's UGCPolicy alone (`bluemondayonly`: same Go, same x/net, "+
			"`-ldflags=-s -w`); the code and data it adds: the size tables below",
			thousands(module), thousands(floor)),
		fmt.Sprintf("%.2f ×", r), "≤ 1.10 × bluemonday alone", met(r <= 1.10)})
	ours, oursData, err := wasmBodies(filepath.Join(b.helpers, "module-symbols.wasm"))
	check(err)
	base, baseData, err := wasmBodies(filepath.Join(b.helpers, "bluemondayonly-symbols.wasm"))
	check(err)
	sec := packageTable(ours, base, oursData, baseData) + topFunctions(ours, base, 25)
	sec += linkedPackages("./wasm", "./cmd/webmcp-bench/bluemondayonly")
	sec += dataTable(b.helpers, oursData-baseData, len(ours)-len(base))
	b.sections = append(b.sections, sec)
	b.initRow()
}

// packageTable is a Markdown section: the bytes of code per package in the module against the
// floor, the packages that add the most first, each with what its added functions weigh
// gzipped on their own, and the data section.
func packageTable(ours, base map[string][]byte, oursData, baseData int) string {
	type pkg struct{ module, floor, gz int }
	pkgs := map[string]*pkg{}
	added := map[string]*bytes.Buffer{} // the code of the functions the floor does not have
	at := func(name string) *pkg {
		p := pkgs[goPackage(name)]
		if p == nil {
			p = &pkg{}
			pkgs[goPackage(name)] = p
		}
		return p
	}
	names := slices.Sorted(maps.Keys(ours))
	var all bytes.Buffer
	total, baseTotal := oursData, baseData
	for _, name := range names {
		at(name).module += len(ours[name])
		total += len(ours[name])
		if _, shared := base[name]; !shared {
			p := goPackage(name)
			if added[p] == nil {
				added[p] = &bytes.Buffer{}
			}
			added[p].Write(ours[name])
			all.Write(ours[name])
		}
	}
	for name, body := range base {
		at(name).floor += len(body)
		baseTotal += len(body)
	}
	for p, code := range added {
		pkgs[p].gz = gzipLen(code.Bytes())
	}
	var w strings.Builder
	fmt.Fprintf(&w, "## What the module holds beyond bluemonday alone\n\n"+
		"Bytes of WebAssembly code per Go package, uncompressed, in the module and in `bluemondayonly` (both "+
		"built with symbols by this run; code and data in all %s B vs %s B), and what the functions the floor "+
		"does not have weigh gzipped (-9) on their own: %s B for all of them together. Packages that add at "+
		"least 2 KB:\n\n", thousands(total), thousands(baseTotal), thousands(gzipLen(all.Bytes())))
	fmt.Fprintf(&w, "| package | module | bluemonday alone | added | added, gzip -9 alone |\n|---|---|---|---|---|\n")
	order := slices.SortedFunc(maps.Keys(pkgs), func(a, b string) int {
		return cmp.Compare(pkgs[b].module-pkgs[b].floor, pkgs[a].module-pkgs[a].floor)
	})
	fmt.Fprintf(&w, "| data segments (type descriptors, strings, tables; the linker's function tables) | %s | %s | %s | "+
		"(below) |\n", thousands(oursData), thousands(baseData), thousands(oursData-baseData))
	for _, name := range order {
		p := pkgs[name]
		if d := p.module - p.floor; d >= 2000 {
			fmt.Fprintf(&w, "| `%s` | %s | %s | %s | %s |\n", name, thousands(p.module), thousands(p.floor),
				thousands(d), thousands(p.gz))
		}
	}
	return w.String()
}

// topFunctions lists the n largest functions the module has and the floor has not.
func topFunctions(ours, base map[string][]byte, n int) string {
	var names []string
	for name := range ours {
		if _, shared := base[name]; !shared {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(ours[b]), len(ours[a])), strings.Compare(a, b))
	})
	var w strings.Builder
	fmt.Fprintf(&w, "\nThe %d largest of the %d functions the module adds (bytes of code, as the name section "+
		"names them):\n\n| function | bytes |\n|---|---|\n", n, len(names))
	for _, name := range names[:min(n, len(names))] {
		fmt.Fprintf(&w, "| `%s` | %s |\n", name, thousands(len(ours[name])))
	}
	return w.String()
}

// gzipLen is the length of b compressed with gzip -9.
func gzipLen(b []byte) int {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	check(err)
	_, err = w.Write(b)
	check(err)
	check(w.Close())
	return buf.Len()
}

// thousands writes n with commas.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
