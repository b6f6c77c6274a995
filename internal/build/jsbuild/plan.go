package main

import "github.com/evanw/esbuild/pkg/api"

// build is one file the command writes.
type build struct {
	entry, outfile string
	format         api.Format
	chunked        bool // its chunks are left out, fetched beside it ([chunkImports])
	chunk          bool // a script chunk: wrapped ([chunkWrap]) and checked ([notInChunks])
}

// chunk is a module the script build leaves out, fetched beside the script on first need.
type chunk struct {
	entry, outfile string
	script         bool // a classic script wrapped for chunk.ts (else an ES module, fetched by import())
}

// chunks are the script build's chunks, by the source web/src imports them as.
var chunks = map[string]chunk{
	"./patterns.ts":     {"patterns.ts", "webmcp-bridge-patterns.mjs", false},
	"./schema-check.ts": {"chunk-schema.ts", "webmcp-bridge-schema.js", true},
	"./form-tools.ts":   {"chunk-form-tools.ts", "webmcp-bridge-forms.js", true},
	"./frame-tools.ts":  {"chunk-frame-tools.ts", "webmcp-bridge-frames.js", true},
}

// chunkBuilds are the builds of [chunks], in a fixed order.
func chunkBuilds() []build {
	var out []build
	for _, src := range []string{"./patterns.ts", "./schema-check.ts", "./form-tools.ts", "./frame-tools.ts"} {
		c := chunks[src]
		format := api.FormatESModule
		if c.script {
			format = api.FormatIIFE
		}
		out = append(out, build{entry: c.entry, outfile: c.outfile, format: format, chunk: c.script})
	}
	return out
}

// plan is what one run builds, the script a page loads first.
func plan(o options) []build {
	if o.extension {
		var out []build
		for _, name := range []string{"relay", "panel", "background"} {
			out = append(out, build{entry: name + ".ts", outfile: name + ".js", format: api.FormatIIFE})
		}
		// The panel's own bridge: the script a page loads, with its chunks in it. An extension
		// page has all its files at hand, and a store's review refuses import() of a computed
		// specifier, which the page's script uses to fetch its pattern checker.
		return append(out, build{entry: "../src/entry-script.ts", outfile: "dist/webmcp-bridge.js", format: api.FormatIIFE})
	}
	// The script a page loads leaves its chunks out: each is fetched, beside the script, on
	// first need. The other builds hold them (a bundler splits the ES module as it likes;
	// webmcp-mcp's injected loader and the extension's have nowhere to fetch from), and
	// webmcp-mcp's build, whose loader is injected, needs no chunk files.
	chunked := !o.rawResults
	loader := []build{
		{entry: "entry-script.ts", outfile: "webmcp-bridge.js", format: api.FormatIIFE, chunked: chunked},
		{entry: "entry-module.ts", outfile: "webmcp-bridge.mjs", format: api.FormatESModule},
		{entry: "worker.ts", outfile: "webmcp-bridge-worker.js", format: api.FormatIIFE},
	}
	if chunked {
		loader = append(loader, chunkBuilds()...)
	}
	if o.test {
		return loader // the tests need no other file of their own build
	}
	return append(loader,
		build{entry: "entry-extension.ts", outfile: "webmcp-bridge-extension.js", format: api.FormatIIFE},
		// The renderer: a classic script (WebMCPBridgeRender) and an ES module.
		build{entry: "entry-render.ts", outfile: "render.js", format: api.FormatIIFE},
		build{entry: "render.ts", outfile: "render.mjs", format: api.FormatESModule},
		// The extension kit's isolated-world helper, as an ES module and a classic content script.
		build{entry: "page-link.ts", outfile: "webmcp-bridge-content.mjs", format: api.FormatESModule},
		build{entry: "entry-content.ts", outfile: "webmcp-bridge-content.js", format: api.FormatIIFE},
		// The React hook; react is the app's.
		build{entry: "react.ts", outfile: "webmcp-bridge-react.mjs", format: api.FormatESModule},
		// The Nuxt module that keeps the bridge's files out of Nuxt's resource hints.
		build{entry: "nuxt.ts", outfile: "nuxt.mjs", format: api.FormatESModule},
	)
}
