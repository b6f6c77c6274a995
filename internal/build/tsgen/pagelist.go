package main

import "github.com/webmcp-bridge/webmcp-bridge/internal/boundary"

func init() {
	outputs["pagelist.ts"] = pageListTS
}

// pageListTS writes what one page may list through the extension and native messaging's sizes
// (internal/boundary/pagelist.go).
func pageListTS() ([]byte, error) {
	f := newFile("What one page may list through the extension, and native messaging's sizes: internal/boundary.")
	f.line("")
	for _, c := range []struct {
		name, doc string
		v         int
	}{
		{"NATIVE_TO_HOST_BYTES", "The most one message from the browser to a native host may be.", boundary.NativeToHostBytes},
		{"NATIVE_FROM_HOST_BYTES", "The most one message from a native host to the browser may be.", boundary.NativeFromHostBytes},
		{"PAGE_MAX_TOOLS", "How many of a page's tools are listed.", boundary.PageMaxTools},
		{"PAGE_MAX_DESCRIPTION_CHARS", "Where a tool's description and title are cut, in characters.", boundary.PageMaxDescriptionChars},
		{"PAGE_MAX_SCHEMA_CHARS", "The longest input schema listed, as JSON in UTF-16 units.", boundary.PageMaxSchemaChars},
		{"PAGE_MAX_LIST_BYTES", "The most one page's listed tools take together, as JSON.", boundary.PageMaxListBytes},
	} {
		f.line("/** %s */", c.doc)
		f.line("export const %s = %d;", c.name, c.v)
	}
	return f.Bytes(), nil
}
