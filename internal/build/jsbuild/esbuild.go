package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/webmcp-bridge/webmcp-bridge/internal/build/budget"
)

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
	"builtins.ts", "flow.ts", "host.ts", "chunk.ts", "modelcontext.ts", "form-tools-loader.ts", "frame-tools-loader.ts",
}

// versionPlaceholder stands for the version in the sources; [stampVersion] replaces it.
const versionPlaceholder = "__WEBMCP_BRIDGE_VERSION__"

// esbuild writes b into o.out and returns what went wrong: esbuild's errors, and the sources of
// notInChunks that a chunk carries.
func esbuild(b build, o options) []error {
	plugins := []api.Plugin{goWasmExec(o.wasmExec)}
	if b.chunked {
		plugins = append(plugins, chunkImports)
	}
	banner := fmt.Sprintf("/* webmcp-bridge %s: see README.md. */", o.version)
	footer := ""
	if b.chunk {
		banner += chunkWrap[0]
		footer = chunkWrap[1]
	}
	define := chunkDefines(b.chunked)
	define["__WEBMCP_TEST__"] = fmt.Sprint(o.test)
	define["__WEBMCP_RAW_RESULTS__"] = fmt.Sprint(o.rawResults)
	r := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(o.src, b.entry)},
		Outfile:           filepath.Join(o.out, b.outfile),
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
		Metafile:          b.chunk || o.sizes == b.outfile,
		LogLevel:          api.LogLevelWarning,
		Plugins:           plugins,
		Define:            define,
		External:          []string{"react"},
	})
	var errs []error
	if o.sizes == b.outfile && len(r.Errors) == 0 {
		table, err := sourceSizes(r.Metafile, b.outfile)
		if err != nil {
			errs = append(errs, err)
		}
		fmt.Print(table)
	}
	if b.chunk {
		for _, bad := range chunkCopies(r.Metafile) {
			errs = append(errs, fmt.Errorf("%s must not carry %s: the loader passes what it needs", b.outfile, bad))
		}
	}
	for _, m := range r.Errors {
		loc := ""
		if m.Location != nil {
			loc = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
		}
		errs = append(errs, fmt.Errorf("%s%s", loc, m.Text))
	}
	return errs
}

// goWasmExec resolves the Worker's import of go:wasm_exec to Go's own wasm_exec.js.
func goWasmExec(path string) api.Plugin {
	return api.Plugin{Name: "go-wasm-exec", Setup: func(b api.PluginBuild) {
		b.OnResolve(
			api.OnResolveOptions{Filter: `^go:wasm_exec$`},
			func(api.OnResolveArgs) (api.OnResolveResult, error) { return api.OnResolveResult{Path: path}, nil },
		)
	}}
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
	slices.Sort(bad)
	return bad
}

// sourceSizes is what each source weighs in outfile, by its build's metafile: a line of the
// bytes it adds to the file (minified, before gzip) and its path each, heaviest first.
func sourceSizes(metafile, outfile string) (string, error) {
	var m struct {
		Outputs map[string]struct {
			Inputs map[string]struct{ BytesInOutput int }
		}
	}
	if err := json.Unmarshal([]byte(metafile), &m); err != nil {
		return "", fmt.Errorf("%s: an unreadable metafile: %w", outfile, err)
	}
	type size struct {
		src   string
		bytes int
	}
	var sizes []size
	total := 0
	for path, out := range m.Outputs {
		if filepath.Base(path) != outfile {
			continue
		}
		for src, in := range out.Inputs {
			sizes = append(sizes, size{src, in.BytesInOutput})
			total += in.BytesInOutput
		}
	}
	slices.SortFunc(sizes, func(a, b size) int { return cmp.Or(b.bytes-a.bytes, strings.Compare(a.src, b.src)) })
	var table strings.Builder
	for _, s := range sizes {
		fmt.Fprintf(&table, "%7d  %s\n", s.bytes, s.src)
	}
	fmt.Fprintf(&table, "%7d  %s, from its sources (the rest is esbuild's own code)\n", total, outfile)
	return table.String(), nil
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// stampVersion replaces the version placeholder in a built file, where it stands in every file
// alike.
func stampVersion(dir, file, version string) error {
	p := filepath.Join(dir, file)
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return os.WriteFile(p, []byte(strings.ReplaceAll(string(data), versionPlaceholder, version)), 0o644)
}

// checkLoaderBudget fails when the loader a page loads, gzip -9, is over [budget.LoaderGzip].
func checkLoaderBudget(dir, file string) error {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return err
	}
	if n := gzipSize(data); n > budget.LoaderGzip {
		return fmt.Errorf("%s is %d B gzip -9, over the %d B every page may pay at load: "+
			"move code a page may not need into a chunk", file, n, budget.LoaderGzip)
	}
	return nil
}

// gzipSize is the size of data compressed with gzip -9.
func gzipSize(data []byte) int {
	var zipped bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zipped, gzip.BestCompression)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return zipped.Len()
}
