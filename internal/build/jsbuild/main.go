// Command jsbuild builds the loader from web/src (TypeScript) into web/dist with esbuild (as a Go
// library, so the build needs nothing but Go): the classic script for a <script> tag
// (webmcp-bridge.js), the ES module for npm and bundlers (webmcp-bridge.mjs), the Worker that
// runs the Go module (webmcp-bridge-worker.js, which carries the wasm_exec.js of the Go that
// built the module: the two must match), the pattern checker the script fetches beside itself
// on first need (webmcp-bridge-patterns.mjs; see chunks), the extension's loader
// (webmcp-bridge-extension.js) and the renderer (render.js), each minified, with a
// source map, and the version written in. With -test it builds the test build's loader and
// Worker, which have the tests' door into the module (__WEBMCP_TEST__ is true); the shipped
// build has none of that code. With -extension it builds the extension's own scripts (the relay,
// the side panel, the background worker) from web/extension.
//
//	go run ./internal/build/jsbuild -src web/src -out web/dist -version 0.3.0 \
//		-wasm-exec "$(go env GOROOT)/lib/wasm/wasm_exec.js"
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// chunks are the modules the script leaves out, by how web/src imports them (import("./x.ts")),
// and the file each is built to.
var chunks = map[string]string{"./patterns.ts": "webmcp-bridge-patterns.mjs"}

// chunkImports keeps a dynamic import of a chunk as an import of its built file, which the
// browser resolves against the script's own URL: the chunk sits beside the script.
var chunkImports = api.Plugin{Name: "chunks", Setup: func(b api.PluginBuild) {
	resolve := func(args api.OnResolveArgs) (api.OnResolveResult, error) {
		if out, ok := chunks[args.Path]; ok && args.Kind == api.ResolveJSDynamicImport {
			return api.OnResolveResult{Path: "./" + out, External: true}, nil
		}
		return api.OnResolveResult{}, nil
	}
	b.OnResolve(api.OnResolveOptions{Filter: `^\./[\w-]+\.ts$`}, resolve)
}}

// build is one file the command writes.
type build struct {
	entry, outfile string
	format         api.Format
	chunked        bool // its chunks are left out
}

func main() {
	src := flag.String("src", "web/src", "the loader's sources")
	out := flag.String("out", "web/dist", "where the built files go")
	version := flag.String("version", "", "the package's version, written into the loader")
	wasmExec := flag.String("wasm-exec", "", "Go's lib/wasm/wasm_exec.js, imported by the Worker as go:wasm_exec")
	testBuild := flag.Bool(
		"test",
		false,
		"build the test build's loader and Worker (with the tests' door into the module)",
	)
	rawResults := flag.Bool(
		"raw-results",
		false,
		"build the loader to hand on results prepared, not normalized (webmcp-mcp's, whose server normalizes them)",
	)
	extension := flag.Bool(
		"extension",
		false,
		"build the extension's scripts (relay.ts, panel.ts, background.ts in -src) instead",
	)
	flag.Parse()
	if *version == "" {
		fmt.Fprintln(os.Stderr, "jsbuild: -version is required (the version in web/package.json)")
		os.Exit(2)
	}
	if _, err := os.Stat(*wasmExec); err != nil && !*extension {
		fmt.Fprintln(os.Stderr, "jsbuild: -wasm-exec must name Go's lib/wasm/wasm_exec.js:", err)
		os.Exit(2)
	}
	goWasmExec := api.Plugin{Name: "go-wasm-exec", Setup: func(b api.PluginBuild) {
		b.OnResolve(
			api.OnResolveOptions{Filter: `^go:wasm_exec$`},
			func(api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: *wasmExec}, nil
			},
		)
	}}
	// The script a page loads leaves its chunks out: each is fetched, beside the script, on
	// first need. The other builds hold them (a bundler splits the ES module as it likes;
	// webmcp-mcp's injected loader and the extension's have nowhere to fetch from).
	chunked := !*rawResults
	builds := []build{
		{"entry-script.ts", "webmcp-bridge.js", api.FormatIIFE, chunked},
		{"entry-module.ts", "webmcp-bridge.mjs", api.FormatESModule, false},
		{"worker.ts", "webmcp-bridge-worker.js", api.FormatIIFE, false},
		{"patterns.ts", chunks["./patterns.ts"], api.FormatESModule, false},
		{"entry-extension.ts", "webmcp-bridge-extension.js", api.FormatIIFE, false},
		{"render.ts", "render.js", api.FormatIIFE, false},
		{"react.ts", "webmcp-bridge-react.mjs", api.FormatESModule, false}, // the React hook; react is the app's
	}
	if *testBuild {
		builds = builds[:4]
	}
	if !chunked {
		chunkFiles := slices.Collect(maps.Values(chunks))
		builds = slices.DeleteFunc(builds, func(b build) bool { return slices.Contains(chunkFiles, b.outfile) })
	}
	if *extension {
		builds = builds[:0]
		for _, name := range []string{"relay", "panel", "background"} {
			builds = append(builds, build{name + ".ts", name + ".js", api.FormatIIFE, false})
		}
	}
	failed := false
	for _, b := range builds {
		plugins := []api.Plugin{goWasmExec}
		if b.chunked {
			plugins = append(plugins, chunkImports)
		}
		r := api.Build(api.BuildOptions{
			EntryPoints:       []string{filepath.Join(*src, b.entry)},
			Outfile:           filepath.Join(*out, b.outfile),
			Bundle:            true,
			Format:            b.format,
			Target:            api.ES2022,
			Platform:          api.PlatformBrowser,
			MinifyWhitespace:  true,
			MinifyIdentifiers: true,
			MinifySyntax:      true,
			Sourcemap:         api.SourceMapLinked,
			LegalComments:     api.LegalCommentsNone,
			Banner:            map[string]string{"js": fmt.Sprintf("/* webmcp-bridge %s: see README.md. */", *version)},
			Write:             true,
			LogLevel:          api.LogLevelWarning,
			Plugins:           plugins,
			Define: map[string]string{
				"__WEBMCP_TEST__":        fmt.Sprint(*testBuild),
				"__WEBMCP_RAW_RESULTS__": fmt.Sprint(*rawResults),
			},
			External: []string{"react"},
		})
		for _, m := range r.Errors {
			failed = true
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
			}
			fmt.Fprintf(os.Stderr, "jsbuild: %s%s\n", loc, m.Text)
		}
	}
	if failed {
		os.Exit(1)
	}
	// The version placeholder is replaced in the output, where it stands in every file alike.
	for _, b := range builds {
		p := filepath.Join(*out, b.outfile)
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(
				p,
				[]byte(strings.ReplaceAll(string(data), "__WEBMCP_BRIDGE_VERSION__", *version)),
				0o644,
			)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "jsbuild:", err)
			os.Exit(1)
		}
	}
}
