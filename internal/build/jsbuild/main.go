// Command jsbuild builds the loader from web/src (TypeScript) into web/dist with esbuild (as a Go
// library, so the build needs nothing but Go): the classic script for a <script> tag
// (webmcp-bridge.js), the ES module for npm and bundlers (webmcp-bridge.mjs), the Worker that
// runs the Go module (webmcp-bridge-worker.js, which carries the wasm_exec.js of the Go that
// built the module: the two must match), the chunks the script fetches beside itself on first
// need (the schema checker, the pattern checker, the fallback's forms and frames code; see
// chunks), the extension kit (the MAIN-world loader webmcp-bridge-extension.js and the
// isolated-world helper webmcp-bridge-content.{js,mjs}) and the renderer (render.{js,mjs}), each
// minified, with a
// source map, and the version written in. With -test it builds the test build's loader and
// Worker, which have the tests' door into the module (__WEBMCP_TEST__ is true); the shipped
// build has none of that code. With -extension it builds the extension's own scripts (the relay,
// the side panel, the background worker) from web/extension.
//
//	go run ./internal/build/jsbuild -src web/src -out web/dist -version 0.3.0 \
//		-wasm-exec "$(go env GOROOT)/lib/wasm/wasm_exec.js"
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/webmcp-bridge/webmcp-bridge/internal/build/budget"
)

// chunk is a module the script build leaves out, fetched beside the script on first need.
type chunk struct {
	entry, outfile string
	script         bool // a classic script wrapped for chunk.ts (else an ES module, fetched by import())
}

// chunks are the script build's chunks, by the source web/src imports them as.
var chunks = map[string]chunk{
	"./patterns.ts":     {"patterns.ts", "webmcp-bridge-patterns.mjs", false},
	"./schema-check.ts": {"chunk-schema.ts", "webmcp-bridge-schema.js", true},
	"./declarative.ts":  {"chunk-forms.ts", "webmcp-bridge-forms.js", true},
	"./frames.ts":       {"chunk-frames.ts", "webmcp-bridge-frames.js", true},
}

// chunkGlobal is the global through which a script chunk hands itself over (chunk.ts).
const chunkGlobal = "__webmcpBridgeChunk"

// chunkWrap is what a script chunk's code is wrapped in: the script's first and only statement
// hands the function to the loader, whose code runs only when the loader calls it.
var chunkWrap = [2]string{
	fmt.Sprintf("this[%q]=function(__webmcpChunkNeeds,__webmcpChunkGive){", chunkGlobal),
	"};",
}

// notInChunks are the sources a chunk must not carry a copy of: the captures taken at load and
// the state of the loader, which a chunk gets from the loader (its needs), never anew.
var notInChunks = []string{
	"builtins.ts", "flow.ts", "host.ts", "chunk.ts", "modelcontext.ts", "forms.ts", "framelink.ts",
}

// chunkDefines are the constants chunk.ts reads: whether chunks are fetched, their files by
// source, the global.
func chunkDefines(chunked bool) map[string]string {
	files := map[string]string{}
	for src, c := range chunks {
		files[src] = c.outfile
	}
	return map[string]string{
		"__WEBMCP_CHUNKED__":      fmt.Sprint(chunked),
		"__WEBMCP_CHUNKS__":       mustJSON(files),
		"__WEBMCP_CHUNK_GLOBAL__": mustJSON(chunkGlobal),
	}
}

// chunkCopies are the sources of notInChunks that a chunk's build, by its metafile, bundled.
func chunkCopies(metafile string) []string {
	var m struct{ Inputs map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(metafile), &m); err != nil {
		return []string{"(an unreadable metafile: " + err.Error() + ")"}
	}
	var bad []string
	for in := range m.Inputs {
		if slices.Contains(notInChunks, filepath.Base(in)) {
			bad = append(bad, in)
		}
	}
	return bad
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// chunkImports keeps a dynamic import of a chunk as an import of its built file, which the
// browser resolves against the script's own URL: the chunk sits beside the script.
var chunkImports = api.Plugin{Name: "chunks", Setup: func(b api.PluginBuild) {
	resolve := func(args api.OnResolveArgs) (api.OnResolveResult, error) {
		if c, ok := chunks[args.Path]; ok && args.Kind == api.ResolveJSDynamicImport {
			return api.OnResolveResult{Path: "./" + c.outfile, External: true}, nil
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
	chunk          bool // a script chunk: wrapped (chunkWrap) and checked (notInChunks)
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
		{"entry-script.ts", "webmcp-bridge.js", api.FormatIIFE, chunked, false},
		{"entry-module.ts", "webmcp-bridge.mjs", api.FormatESModule, false, false},
		{"worker.ts", "webmcp-bridge-worker.js", api.FormatIIFE, false, false},
		{"patterns.ts", chunks["./patterns.ts"].outfile, api.FormatESModule, false, false},
		{"chunk-schema.ts", chunks["./schema-check.ts"].outfile, api.FormatIIFE, false, true},
		{"chunk-forms.ts", chunks["./declarative.ts"].outfile, api.FormatIIFE, false, true},
		{"chunk-frames.ts", chunks["./frames.ts"].outfile, api.FormatIIFE, false, true},
		{"entry-extension.ts", "webmcp-bridge-extension.js", api.FormatIIFE, false, false},
		{"entry-render.ts", "render.js", api.FormatIIFE, false, false},
		{"render.ts", "render.mjs", api.FormatESModule, false, false},
		{"page-link.ts", "webmcp-bridge-content.mjs", api.FormatESModule, false, false}, // the extension kit's helper
		{"entry-content.ts", "webmcp-bridge-content.js", api.FormatIIFE, false, false},
		{"react.ts", "webmcp-bridge-react.mjs", api.FormatESModule, false, false}, // the React hook; react is the app's
	}
	if *testBuild {
		builds = builds[:7]
	}
	if !chunked {
		var chunkFiles []string
		for c := range maps.Values(chunks) {
			chunkFiles = append(chunkFiles, c.outfile)
		}
		builds = slices.DeleteFunc(builds, func(b build) bool { return slices.Contains(chunkFiles, b.outfile) })
	}
	if *extension {
		builds = builds[:0]
		for _, name := range []string{"relay", "panel", "background"} {
			builds = append(builds, build{name + ".ts", name + ".js", api.FormatIIFE, false, false})
		}
	}
	failed := false
	for _, b := range builds {
		plugins := []api.Plugin{goWasmExec}
		if b.chunked {
			plugins = append(plugins, chunkImports)
		}
		banner := fmt.Sprintf("/* webmcp-bridge %s: see README.md. */", *version)
		footer := ""
		if b.chunk {
			banner += chunkWrap[0]
			footer = chunkWrap[1]
		}
		define := chunkDefines(b.chunked)
		define["__WEBMCP_TEST__"] = fmt.Sprint(*testBuild)
		define["__WEBMCP_RAW_RESULTS__"] = fmt.Sprint(*rawResults)
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
			Banner:            map[string]string{"js": banner},
			Footer:            map[string]string{"js": footer},
			Write:             true,
			Metafile:          b.chunk,
			LogLevel:          api.LogLevelWarning,
			Plugins:           plugins,
			Define:            define,
			External:          []string{"react"},
		})
		if b.chunk {
			for _, bad := range chunkCopies(r.Metafile) {
				failed = true
				fmt.Fprintf(os.Stderr, "jsbuild: %s must not carry %s: the loader passes what it needs\n", b.outfile, bad)
			}
		}
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
	if chunked && !*testBuild && !*extension {
		if err := checkLoaderBudget(filepath.Join(*out, builds[0].outfile)); err != nil {
			fmt.Fprintln(os.Stderr, "jsbuild:", err)
			os.Exit(1)
		}
	}
}

// checkLoaderBudget fails when the loader a page loads, gzip -9, is over budget.LoaderGzip.
func checkLoaderBudget(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var zipped bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zipped, gzip.BestCompression)
	_, _ = zw.Write(data)
	_ = zw.Close()
	if n := zipped.Len(); n > budget.LoaderGzip {
		return fmt.Errorf("%s is %d B gzip -9, over the %d B every page may pay at load: "+
			"move code a page may not need into a chunk", filepath.Base(path), n, budget.LoaderGzip)
	}
	return nil
}
