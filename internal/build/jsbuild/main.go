// Command jsbuild builds the loader from web/src (TypeScript) with esbuild, as a Go library, so
// that the build needs nothing but Go. What it writes, each file minified with a source map and
// the version written in, is [plan]'s list; [run] builds it, [esbuild] one file of it:
//
//   - by default, into web/dist: the classic script for a <script> tag (webmcp-bridge.js), the
//     ES module for npm and bundlers (webmcp-bridge.mjs), the Worker that runs the Go module
//     (webmcp-bridge-worker.js, which carries the wasm_exec.js of the Go that built the module:
//     the two must match), the chunks the script fetches beside itself on first need, the
//     extension kit (the MAIN-world loader webmcp-bridge-extension.js and the isolated-world
//     helper webmcp-bridge-content.{js,mjs}), the renderer (render.{js,mjs}) and the React hook;
//   - with -test, the test build's loader, Worker and chunks, which have the tests' door into the
//     module (__WEBMCP_TEST__ is true; the shipped build has none of that code);
//   - with -raw-results, webmcp-mcp's loader, which hands its server results prepared, not
//     normalized, and carries its chunks;
//   - with -extension, the extension's own scripts from web/extension.
//
// Usage:
//
//	go run ./internal/build/jsbuild -src web/src -out web/dist -version 0.3.0 \
//		-wasm-exec "$(go env GOROOT)/lib/wasm/wasm_exec.js"
//
// With -sizes webmcp-bridge.js it also prints what each source weighs in that file: where to
// look when the loader nears its budget.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
)

func main() {
	var o options
	flag.StringVar(&o.src, "src", "web/src", "the loader's sources")
	flag.StringVar(&o.out, "out", "web/dist", "where the built files go")
	flag.StringVar(&o.version, "version", "", "the package's version, written into the loader")
	flag.StringVar(&o.wasmExec, "wasm-exec", "", "Go's lib/wasm/wasm_exec.js, imported by the Worker as go:wasm_exec")
	flag.BoolVar(&o.test, "test", false, "build the test build's loader and Worker (with the tests' door into the module)")
	flag.BoolVar(&o.rawResults, "raw-results", false,
		"build the loader to hand on results prepared, not normalized (webmcp-mcp's, whose server normalizes them)")
	flag.StringVar(&o.sizes, "sizes", "",
		"print what each source weighs in this built file (e.g. webmcp-bridge.js), by esbuild's metafile")
	flag.BoolVar(&o.extension, "extension", false,
		"build the extension's scripts (relay.ts, panel.ts, background.ts in -src) instead")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "jsbuild:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	src, out, version, wasmExec string
	sizes                       string // a built file whose sources' weights to print ([sourceSizes])
	test, rawResults, extension bool
}

// usageError is a flag the command cannot run with.
type usageError string

func (e usageError) Error() string { return string(e) }

// run builds what o asks for ([plan]), stamps the version into it and holds the loader a page
// loads to its budget.
func run(o options) error {
	if o.version == "" {
		return usageError("-version is required (the version in web/package.json)")
	}
	if _, err := os.Stat(o.wasmExec); err != nil && !o.extension {
		return usageError("-wasm-exec must name Go's lib/wasm/wasm_exec.js: " + err.Error())
	}
	builds := plan(o)
	if o.sizes != "" && !slices.ContainsFunc(builds, func(b build) bool { return b.outfile == o.sizes }) {
		return usageError("-sizes names no file this run builds: " + o.sizes)
	}
	var failures []error
	for _, b := range builds {
		failures = append(failures, esbuild(b, o)...)
	}
	if err := errors.Join(failures...); err != nil {
		return err
	}
	for _, b := range builds {
		if err := stampVersion(o.out, b.outfile, o.version); err != nil {
			return err
		}
	}
	if b := builds[0]; b.chunked && !o.test {
		return checkLoaderBudget(o.out, b.outfile)
	}
	return nil
}
