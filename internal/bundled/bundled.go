//go:build !js

// Package bundled holds the page-side files webmcp-mcp carries, built from web/src by
// genloader.go (`go generate ./internal/bundled`), so that a binary from `go install` works with
// no checkout at hand: [Loader], the bridge's loader the DevTools source injects into every page,
// and [RenderJS] and [RenderCSS], the project's renderer the MCP Apps viewer inlines.
// TestLoaderGenerated fails when a file is not what web/src builds today.
package bundled

import (
	_ "embed"
	"regexp"
)

// Loader is the bridge's loader as web/src builds it with raw results (jsbuild -raw-results):
// the page's bridge gives the API, checks arguments and turns binaries into data: URLs, and
// webmcp-mcp normalizes every result itself, once, so every notice a client gets is its own.
//
//go:generate go run genloader.go
//go:embed loader_gen.js
var Loader string

// RenderJS and RenderCSS are the renderer (web/src/render.ts and web/src/render.css).
var (
	//go:embed render_gen.js
	RenderJS string
	//go:embed render_gen.css
	RenderCSS string
)

// loaderVersion finds the version in the header genloader.go writes into loader_gen.js.
var loaderVersion = regexp.MustCompile(`the loader of webmcp-bridge ([0-9][0-9A-Za-z.+-]*)\)`)

// Version is the version of the sources the loader was built from (web/package.json's), or ""
// when its header does not say.
func Version() string {
	if m := loaderVersion.FindStringSubmatch(Loader); m != nil {
		return m[1]
	}
	return ""
}
