//go:build !js

package main

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ownModule is the import path under which the module's own packages are.
const ownModule = "github.com/webmcp-bridge/webmcp-bridge"

// goCommand is the go command the bench runs: $GO, or go on PATH.
func goCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

// wasmGo is the go command with args for GOOS=js GOARCH=wasm; its standard error goes to ours.
func wasmGo(args ...string) *exec.Cmd {
	cmd := exec.Command(goCommand(), args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	return cmd
}

// deps is `go list -deps` of pkg for js/wasm: each package and the packages it imports.
func deps(pkg string, format string) map[string]string {
	out, err := wasmGo("list", "-deps", "-export", "-f", format, pkg).Output()
	check(err)
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, rest, _ := strings.Cut(line, " ")
		m[path] = rest
	}
	return m
}

// linkedPackages says which packages the module imports that the floor does not, apart from its
// own, and which of the module's packages import each.
func linkedPackages(module, floor string) string {
	ours := deps(module, `{{.ImportPath}} {{join .Imports " "}}`)
	base := deps(floor, `{{.ImportPath}}`)
	var w strings.Builder
	fmt.Fprintf(&w, "\nPackages the module imports (`go list -deps`, js/wasm) that bluemonday alone does not, "+
		"but for its own, and who imports them: ")
	var lines []string
	for _, p := range slices.Sorted(maps.Keys(ours)) {
		if _, shared := base[p]; shared || strings.HasPrefix(p, ownModule) {
			continue
		}
		var by []string
		for _, q := range slices.Sorted(maps.Keys(ours)) {
			if slices.Contains(strings.Fields(ours[q]), p) {
				by = append(by, strings.TrimPrefix(strings.TrimPrefix(q, ownModule), "/"))
			}
		}
		lines = append(lines, fmt.Sprintf("`%s` (%s)", p, strings.Join(by, ", ")))
	}
	if len(lines) == 0 {
		lines = []string{"none"}
	}
	w.WriteString(strings.Join(lines, "; ") + ".\n")
	return w.String()
}

// reachableData is the data the linker keeps of pkg's build for js/wasm: the size of every
// data symbol (go tool nm's R, D, B) of the compiled packages that the linker's dependency dump
// (-ldflags=-dumpdep) reaches, by name.
func reachableData(pkg, dir string) map[string]int {
	var dump bytes.Buffer
	link := wasmGo("build", "-trimpath", "-ldflags=-dumpdep", "-o", filepath.Join(dir, "dumpdep.wasm"), pkg)
	link.Stderr = &dump
	check(link.Run())
	reached := map[string]bool{}
	for _, line := range strings.Split(dump.String(), "\n") {
		if from, to, ok := strings.Cut(line, " -> "); ok {
			reached[from] = true
			reached[strings.TrimSpace(strings.Split(to, " <")[0])] = true
		}
	}
	sizes := map[string]int{}
	for _, export := range deps(pkg, `{{.ImportPath}} {{.Export}}`) {
		if export == "" {
			continue
		}
		out, err := exec.Command(goCommand(), "tool", "nm", "-size", export).Output()
		check(err)
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) < 4 || !strings.Contains("RDBrdb", f[2]) || !reached[strings.Join(f[3:], " ")] {
				continue
			}
			if n, err := strconv.Atoi(f[1]); err == nil {
				name := strings.Join(f[3:], " ")
				sizes[name] = max(sizes[name], n) // a symbol several packages carry is linked once
			}
		}
	}
	return sizes
}

// dataKind is what a data symbol is: type descriptors, strings, GC maps, or a package's own.
func dataKind(sym string) string {
	switch {
	case strings.HasPrefix(sym, "type:"), strings.HasPrefix(sym, "go:itab."):
		return "type descriptors and method tables"
	case strings.HasPrefix(sym, "go:string."):
		return "string constants"
	case strings.HasPrefix(sym, "gclocals·"), strings.HasPrefix(sym, "go:func."):
		return "stack maps of functions (GC)"
	}
	return "variables and tables of `" + symbolPackage(sym) + "`"
}

// symbolPackage is the import path of a symbol's package: "time.longDayNames" → "time".
func symbolPackage(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	if dot := strings.IndexByte(sym[slash+1:], '.'); dot >= 0 {
		return sym[:slash+1+dot]
	}
	return sym
}

// dataTable explains the data the module adds (added bytes, functions more functions): what of it
// the compiled packages hold, by kind, and the rest, the linker's own tables.
func dataTable(dir string, added, functions int) string {
	ours, base := reachableData("./wasm", dir), reachableData("./cmd/webmcp-bench/bluemondayonly", dir)
	kinds := map[string]int{}
	inPackages := 0
	for name, n := range ours {
		if d := n - base[name]; d > 0 {
			kinds[dataKind(name)] += d
			inPackages += d
		}
	}
	var w strings.Builder
	fmt.Fprintf(&w, "\nThe data segments the module adds (%s B): %s B are data of the compiled packages that the "+
		"linker keeps (`go tool nm -size` of each package's object, symbols reached in `-ldflags=-dumpdep`); the "+
		"other %s B, by difference, are what the linker itself writes for the %d functions more (the runtime's "+
		"function table: names, PC-to-line and stack-size tables), which grows with the code. "+
		"The kinds that add at least 1 KB:\n\n"+
		"| data | added |\n|---|---|\n", thousands(added), thousands(inPackages), thousands(added-inPackages), functions)
	byAdded := func(a, b string) int { return cmp.Compare(kinds[b], kinds[a]) }
	for _, k := range slices.SortedFunc(maps.Keys(kinds), byAdded) {
		if kinds[k] >= 1000 {
			fmt.Fprintf(&w, "| %s | %s |\n", k, thousands(kinds[k]))
		}
	}
	return w.String()
}
