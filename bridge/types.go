package bridge

import "github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"

// The MCP content model lives in package mcpwire; these aliases let callers of Normalize and
// ParseToolOutput work with one import.
type (
	CallToolResult   = mcpwire.CallToolResult
	Content          = mcpwire.Content
	TextContent      = mcpwire.TextContent
	ImageContent     = mcpwire.ImageContent
	AudioContent     = mcpwire.AudioContent
	ResourceLink     = mcpwire.ResourceLink
	EmbeddedResource = mcpwire.EmbeddedResource
	ResourceContents = mcpwire.ResourceContents
	Annotations      = mcpwire.Annotations
	Role             = mcpwire.Role
)

// The two MCP roles.
const (
	RoleUser      = mcpwire.RoleUser
	RoleAssistant = mcpwire.RoleAssistant
)
