//go:build !js

package mcpserver

import (
	"context"
	_ "embed"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webmcp-bridge/webmcp-bridge/internal/bundled"
)

// The MCP Apps view (SEP-1865): one ui:// resource that hosts supporting MCP Apps render beside
// any page tool's result; every other client gets the same blocks as before.
const (
	viewerURI  = "ui://webmcp-mcp/viewer.html"
	viewerMIME = "text/html;profile=mcp-app"
)

var (
	//go:embed viewer.html
	viewerTemplate string
)

// viewerHTML is viewer.html with the project's renderer inlined.
func viewerHTML() string {
	return strings.NewReplacer("__RENDER_CSS__", bundled.RenderCSS, "__RENDER_JS__", bundled.RenderJS).Replace(viewerTemplate)
}

// addViewer offers the view as a resource.
func (s *Server) addViewer() {
	html := viewerHTML()
	s.server.AddResource(
		&mcp.Resource{URI: viewerURI, Name: "webmcp-mcp-viewer", Title: "What the page returned", MIMEType: viewerMIME,
			Description: "Shows a page tool's result as the person would see it: sanitized HTML, images, tables and " +
				"links with their real host."},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{
				Contents: []*mcp.ResourceContents{{URI: viewerURI, MIMEType: viewerMIME, Text: html,
					Meta: mcp.Meta{"ui": map[string]any{"prefersBorder": true}}}},
			}, nil
		},
	)
}
