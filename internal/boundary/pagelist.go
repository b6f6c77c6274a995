package boundary

// What one page may list to MCP clients through the extension (webmcp-mcp -extension), and the
// sizes of a native-messaging message, written once: the extension applies them before a page's
// tools leave the browser (web/src/generated/pagelist.ts), so that no page can make the
// message that carries every allowed page to a client too large, and the other pages' updates
// with it. webmcp-mcp's own bounds of what it lists are the same numbers.
const (
	// NativeToHostBytes is the most one message from the browser to a native host may be
	// (Chromium and Firefox drop a larger one whole).
	NativeToHostBytes = 64 << 20
	// NativeFromHostBytes is the most one message from a native host to the browser may be.
	NativeFromHostBytes = 1 << 20

	// PageMaxTools is how many of a page's tools are listed; the rest are counted as left out.
	PageMaxTools = 256
	// PageMaxDescriptionChars is where a tool's description (and title) is cut, in characters.
	PageMaxDescriptionChars = 4000
	// PageMaxSchemaChars is the longest input schema, as JSON in UTF-16 units, listed with its
	// tool; a longer one is left out and its length said.
	PageMaxSchemaChars = 64 << 10
	// PageMaxListBytes bounds one page's listed tools together, as JSON: tools past it are
	// counted as left out. With NativeToHostBytes, at least 63 pages fit in one message whatever
	// each lists.
	PageMaxListBytes = 1 << 20
)
