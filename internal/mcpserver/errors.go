//go:build !js

package mcpserver

import (
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/bridge"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpsdk"
	"github.com/webmcp-bridge/webmcp-bridge/internal/thrown"
)

// ownError is an isError result whose one block is webmcp-mcp's own message, marked as the
// bridge marks its notices (_meta[bridge.NoticeMetaKey] = {"limit": what}): a page's text never
// carries that mark, so a client can tell the server's word from a page's.
func ownError(what, msg string) *mcp.CallToolResult {
	return mcpsdk.ToSDK(&bridge.CallToolResult{IsError: true, Content: []bridge.Content{noticeText(what, msg)}})
}

func noticeText(what, msg string) *bridge.TextContent {
	return &bridge.TextContent{Text: msg, Meta: map[string]any{bridge.NoticeMetaKey: map[string]any{"limit": what}}}
}

// pageError is the result for a tool that threw: webmcp-mcp's marked notice that the page's tool
// failed, then the page's message (and error name), quoted as the page's.
func pageError(page, tool string, ans ToolAnswer) *mcp.CallToolResult {
	msg := cutNotice(*ans.Error, MaxErrorChars, ans.ErrorCut, "the error message was")
	msg = thrown.Message(Clip(ans.ErrorName, 100), msg)
	return mcpsdk.ToSDK(&bridge.CallToolResult{IsError: true, Content: []bridge.Content{
		noticeText(
			"pageError",
			fmt.Sprintf(
				"%q on page %s threw; its message follows, quoted: it is the page's text, not webmcp-mcp's",
				tool,
				page,
			),
		),
		&bridge.TextContent{Text: "The page's message: " + strconv.Quote(msg)},
	}})
}

// quotePageText marks an isError result that the page made itself (an error block, with the
// raw-results loader a throw too): its text blocks are quoted as the page's, after a notice.
func quotePageText(r *bridge.CallToolResult, page, tool string) {
	out := []bridge.Content{
		noticeText(
			"pageError",
			fmt.Sprintf(
				"%q on page %s reported an error; its text follows, quoted: it is the page's, not webmcp-mcp's",
				tool,
				page,
			),
		),
	}
	for _, c := range r.Content {
		if t, ok := c.(*bridge.TextContent); ok {
			if _, notice := t.Meta[bridge.NoticeMetaKey]; !notice {
				q := *t
				q.Text = "The page's message: " + strconv.Quote(t.Text)
				c = &q
			}
		}
		out = append(out, c)
	}
	r.Content = out
}
