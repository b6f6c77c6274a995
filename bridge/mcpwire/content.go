// Package mcpwire is the MCP tool-result content model: CallToolResult, the five ContentBlock
// types with their annotations and _meta, their JSON wire form (written without reflection,
// read with one reader), and Check, the rules every result the bridge produces meets.
//
// It is a leaf: it knows nothing of WebMCP, policies or sanitizing. Package bridge builds these
// values from what tools return; this package only holds, writes, reads and checks them.
package mcpwire

import "github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"

// Role is who a content block is meant for: "user" (display) or "assistant" (the model).
type Role string

// The two MCP roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Annotations tell a client how to use a block. Priority is a pointer so that 0 ("least
// important") survives a round trip instead of vanishing as an empty value.
type Annotations struct {
	Audience     []Role
	Priority     *float64
	LastModified string
}

// Content is one MCP ContentBlock: *TextContent, *ImageContent, *AudioContent, *ResourceLink or
// *EmbeddedResource. The set is closed: the interface has an unexported method.
type Content interface {
	// ContentType is the block's "type" member.
	ContentType() string
	// Common returns the annotations and _meta every block may carry.
	Common() (*Annotations, map[string]any)
	// MarshalJSON writes the block's MCP wire form.
	MarshalJSON() ([]byte, error)
	// AppendJSON appends the block's MCP wire form to b.
	AppendJSON(b []byte) ([]byte, error)
	// writeJSON writes the block's MCP wire form to w.
	writeJSON(w *jsonvalue.Writer)
}

// TextContent is a text block.
type TextContent struct {
	Text        string
	Annotations *Annotations
	Meta        map[string]any
}

// ImageContent is an image block; Data holds the raw bytes and is written as padded base64.
type ImageContent struct {
	Data        []byte
	MIMEType    string
	Annotations *Annotations
	Meta        map[string]any
}

// AudioContent is an audio block; Data holds the raw bytes and is written as padded base64.
type AudioContent struct {
	Data        []byte
	MIMEType    string
	Annotations *Annotations
	Meta        map[string]any
}

// ResourceLink points at a resource by absolute URI without embedding it.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        *int64 // a pointer so that a size of 0 is written
	Annotations *Annotations
	Meta        map[string]any
}

// EmbeddedResource carries a resource's contents inline.
type EmbeddedResource struct {
	Resource    ResourceContents
	Annotations *Annotations
	Meta        map[string]any
}

// ResourceContents is the text or the binary contents of a resource. Blob != nil makes it a
// blob resource (written as padded base64, "" when empty); otherwise Text is written, even
// when empty.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	Meta     map[string]any
}

// CallToolResult is the result of an MCP tools/call. Content is always written (as [] when
// empty), and "resultType": "complete" is always written, as the 2026-07-28 schema requires;
// StructuredContent is an object, as the 2025 schemas require.
type CallToolResult struct {
	Content           []Content
	StructuredContent map[string]any
	IsError           bool
	Meta              map[string]any
}

func (*TextContent) ContentType() string      { return "text" }
func (*ImageContent) ContentType() string     { return "image" }
func (*AudioContent) ContentType() string     { return "audio" }
func (*ResourceLink) ContentType() string     { return "resource_link" }
func (*EmbeddedResource) ContentType() string { return "resource" }

func (c *TextContent) Common() (*Annotations, map[string]any)      { return c.Annotations, c.Meta }
func (c *ImageContent) Common() (*Annotations, map[string]any)     { return c.Annotations, c.Meta }
func (c *AudioContent) Common() (*Annotations, map[string]any)     { return c.Annotations, c.Meta }
func (c *ResourceLink) Common() (*Annotations, map[string]any)     { return c.Annotations, c.Meta }
func (c *EmbeddedResource) Common() (*Annotations, map[string]any) { return c.Annotations, c.Meta }

// MarshalJSON writes the MCP wire form.
func (c *TextContent) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(c) }

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *ImageContent) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(c) }

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *AudioContent) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(c) }

// MarshalJSON writes the MCP wire form.
func (c *ResourceLink) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(c) }

// MarshalJSON writes the MCP wire form: a text resource, or a blob resource when Blob != nil.
func (c *EmbeddedResource) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(c) }

// MarshalJSON writes the contents as TextResourceContents or BlobResourceContents.
func (r ResourceContents) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(r) }

// MarshalJSON writes the annotations, leaving out what is not set (a set priority of 0 stays).
func (a *Annotations) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(a) }

// MarshalJSON writes the result in the form the 2025-06-18, 2025-11-25 and 2026-07-28 schemas
// all accept.
func (r *CallToolResult) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(r) }

// AppendJSON appends the MCP wire form to b.
func (c *TextContent) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, c.writeJSON) }

// AppendJSON appends the MCP wire form to b, data as padded standard base64.
func (c *ImageContent) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, c.writeJSON)
}

// AppendJSON appends the MCP wire form to b, data as padded standard base64.
func (c *AudioContent) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, c.writeJSON)
}

// AppendJSON appends the MCP wire form to b.
func (c *ResourceLink) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, c.writeJSON)
}

// AppendJSON appends the MCP wire form to b.
func (c *EmbeddedResource) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, c.writeJSON)
}

// AppendJSON appends the contents to b as TextResourceContents or BlobResourceContents.
func (r ResourceContents) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, r.writeJSON)
}

// AppendJSON appends the annotations to b, leaving out what is not set.
func (a *Annotations) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, a.writeJSON) }

// AppendJSON appends the result to b, in the form MarshalJSON writes.
func (r *CallToolResult) AppendJSON(b []byte) ([]byte, error) {
	return jsonvalue.AppendTo(b, r.writeJSON)
}
