//go:build !js

package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
	"github.com/webmcp-bridge/webmcp-bridge/internal/boundary"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// What a page can make webmcp-mcp send is bounded, so that no page ends the session: the
// TypeScript SDK's stdio client refuses a message over 10 MiB and closes the connection (and
// webmcp-mcp's stdio with it). Each bound cuts with a notice that says what and why.
const (
	// maxWireBytes bounds one tools/call result as JSON, whatever made it large.
	maxWireBytes = 8 << 20
	// MaxOutputBytes bounds what a page tool may return (its JSON); the result carries data
	// twice (structuredContent and its text), so this is half of maxWireBytes at most.
	MaxOutputBytes = 4 << 20
	// maxListBytes bounds all page tools together in tools/list; tools past it are left out
	// and webmcp_list_pages says how many.
	maxListBytes    = 4 << 20
	MaxPageTools    = boundary.PageMaxTools            // tools per page, as the extension lists them
	MaxToolChars    = boundary.PageMaxDescriptionChars // a tool's description, in characters
	MaxTitleChars   = 200                              // a tool's or a page's title
	MaxSchemaBytes  = boundary.PageMaxSchemaChars      // a tool's input schema as JSON
	MaxErrorChars   = 4000                             // a thrown error's message
	maxURLChars     = 2048                             // a page URL as the tool list shows it
	maxBrowserChars = 60                               // which browser a page is in
)

// toolListLimits names the limits that leave a page's tools out of the list, as
// webmcp_list_pages says them: the extension applies the per-page ones before the list leaves the
// browser (internal/boundary), the server the one over all pages.
var toolListLimits = fmt.Sprintf(
	"a page lists at most %d tools in %d KiB of JSON; all pages' tools together at most %d MiB", MaxPageTools, boundary.PageMaxListBytes>>10, maxListBytes>>20)

// outputPolicy is p with maxResultBytes no larger than MaxOutputBytes.
func outputPolicy(p bridge.Policy) bridge.Policy {
	if p.MaxResultBytes <= 0 || p.MaxResultBytes > MaxOutputBytes {
		p.MaxResultBytes = MaxOutputBytes
	}
	return p
}

// boundResult returns r, or when its JSON is over maxWireBytes an isError result that says so.
func boundResult(r *mcp.CallToolResult) *mcp.CallToolResult {
	b, err := json.Marshal(r)
	if err != nil || len(b) <= maxWireBytes {
		return r
	}
	out, _ := refusal.Result(refusal.Reason{Limit: "maxWireBytes", Text: fmt.Sprintf("the result is %s of JSON, "+
		"over webmcp-mcp's %s limit for one message (MCP clients close the connection on messages over 10 MiB)",
		sanitize.FormatBytes(int64(len(b))), sanitize.FormatBytes(maxWireBytes))})
	return mcpsdk.ToSDK(out)
}

// cutNotice is s cut to n characters with a notice of the cut that names the limit; total is
// the length the page gave when it was cut before (0: len(s) in characters).
func cutNotice(s string, n, total int, what string) string {
	r := []rune(s)
	if total == 0 {
		total = len(r)
	}
	if total <= n && len(r) <= n {
		return s
	}
	if len(r) > n {
		r = r[:n]
	}
	return string(r) + fmt.Sprintf("… [webmcp-mcp: %s cut at %d of %d characters (the limit)]", what, n, total)
}

// Clip cuts s to at most n characters, marking the cut with "…".
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
