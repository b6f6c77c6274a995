package bridge

import (
	"errors"
	"fmt"
)

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
	Audience     []Role   `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// Content is one MCP ContentBlock: *TextContent, *ImageContent, *AudioContent, *ResourceLink or
// *EmbeddedResource.
type Content interface {
	// ContentType is the block's "type" member.
	ContentType() string
	// Common returns the annotations and _meta every block may carry.
	Common() (*Annotations, map[string]any)
	// MarshalJSON writes the block's MCP wire form.
	MarshalJSON() ([]byte, error)
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
	Size        *int64
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
// blob resource (written as padded base64); otherwise Text is written, even when empty.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	Meta     map[string]any
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
func (c *TextContent) MarshalJSON() ([]byte, error) { return appendJSON(c) }

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *ImageContent) MarshalJSON() ([]byte, error) { return appendJSON(c) }

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *AudioContent) MarshalJSON() ([]byte, error) { return appendJSON(c) }

// MarshalJSON writes the MCP wire form.
func (c *ResourceLink) MarshalJSON() ([]byte, error) { return appendJSON(c) }

// MarshalJSON writes the MCP wire form: a text resource, or a blob resource when Blob != nil.
func (c *EmbeddedResource) MarshalJSON() ([]byte, error) { return appendJSON(c) }

// MarshalJSON writes the contents as TextResourceContents or BlobResourceContents.
func (r ResourceContents) MarshalJSON() ([]byte, error) { return appendJSON(r) }

// UnmarshalJSON reads TextResourceContents or BlobResourceContents.
func (r *ResourceContents) UnmarshalJSON(b []byte) error {
	v, err := decodeJSON(b)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("resource contents must be an object")
	}
	rc, err := contentsFromMap(m)
	if err != nil {
		return err
	}
	*r = rc
	return nil
}

// MarshalJSON writes the annotations, leaving out what is not set (a set priority of 0 stays).
func (a *Annotations) MarshalJSON() ([]byte, error) { return appendJSON(a) }

// UnmarshalContent reads one ContentBlock from its MCP wire form. An unknown type is an error.
func UnmarshalContent(b []byte) (Content, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("a content block must be an object")
	}
	return contentFromMap(m)
}

// CallToolResult is the result of an MCP tools/call. Content is always written (as [] when
// empty); ResultType is written as "complete" when empty, as the 2026-07-28 schema requires.
type CallToolResult struct {
	Content           []Content
	StructuredContent map[string]any
	IsError           bool
	Meta              map[string]any
}

// MarshalJSON writes the result in the form the 2025-06-18, 2025-11-25 and 2026-07-28 schemas
// all accept.
func (r *CallToolResult) MarshalJSON() ([]byte, error) { return appendJSON(r) }

// UnmarshalJSON reads a result. Unknown block types are an error: use ParseToolOutput for
// output you do not trust.
func (r *CallToolResult) UnmarshalJSON(b []byte) error {
	v, err := decodeJSON(b)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("a CallToolResult must be an object")
	}
	list, ok := m["content"].([]any)
	if !ok {
		return errors.New("a CallToolResult needs a content array")
	}
	out := CallToolResult{Content: make([]Content, 0, len(list))}
	for i, it := range list {
		bm, ok := it.(map[string]any)
		if !ok {
			return fmt.Errorf("content[%d]: not an object", i)
		}
		c, err := contentFromMap(bm)
		if err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
		out.Content = append(out.Content, c)
	}
	if sc, ok := m["structuredContent"].(map[string]any); ok {
		out.StructuredContent = sc
	}
	out.IsError, _ = m["isError"].(bool)
	out.Meta, _ = m["_meta"].(map[string]any)
	*r = out
	return nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
