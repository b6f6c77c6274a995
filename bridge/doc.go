// Package bridge turns what WebMCP tools return into MCP CallToolResults, and reads what a page
// returned without trusting it. It is pure Go: the same code runs in the browser (compiled to
// WebAssembly, see package wasm) and in Go MCP servers.
//
// Quick start — a tool returned JSON; give the client a checked result:
//
//	r, violations, err := bridge.NormalizeJSON(toolOutput, bridge.DefaultPolicy())
//	if err != nil { … }                 // not JSON
//	b, _ := r.MarshalJSON()              // the CallToolResult, ready to send
//	for _, v := range violations { log.Print(v.Notice) }
//
// The proposed WebMCP result types (text, image, html, link, table, error) and the MCP block
// types become MCP ContentBlocks; anything else becomes structuredContent with its JSON as
// text. A block that breaks the Policy is replaced by a text notice and reported as a
// Violation; Policy.Strict turns any violation into an isError result.
//
// The agent side — output from a page, which may have bypassed its own bridge:
//
//	r, violations := bridge.ParseToolOutput(rawFromExecuteTool, p)
//	in := bridge.ToModelInput(r)         // in.Text, in.Attachments, in.IsError
//
// Related packages: mcpwire holds the result types (aliased here) and their wire form;
// inputschema compiles and checks a tool's inputSchema; sanitize holds the HTML, URL, image
// and text checks on their own.
package bridge
