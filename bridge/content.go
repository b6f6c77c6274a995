package bridge

import (
	"bytes"
	"encoding/json"
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

// The wire forms. Required members have no omitempty, so an empty text is still written.
type (
	wireText struct {
		Type        string         `json:"type"`
		Text        string         `json:"text"`
		Annotations *Annotations   `json:"annotations,omitempty"`
		Meta        map[string]any `json:"_meta,omitempty"`
	}
	wireBinary struct {
		Type        string         `json:"type"`
		Data        []byte         `json:"data"`
		MIMEType    string         `json:"mimeType"`
		Annotations *Annotations   `json:"annotations,omitempty"`
		Meta        map[string]any `json:"_meta,omitempty"`
	}
	wireLink struct {
		Type        string         `json:"type"`
		URI         string         `json:"uri"`
		Name        string         `json:"name"`
		Title       string         `json:"title,omitempty"`
		Description string         `json:"description,omitempty"`
		MIMEType    string         `json:"mimeType,omitempty"`
		Size        *int64         `json:"size,omitempty"`
		Annotations *Annotations   `json:"annotations,omitempty"`
		Meta        map[string]any `json:"_meta,omitempty"`
	}
	wireResource struct {
		Type        string          `json:"type"`
		Resource    json.RawMessage `json:"resource"`
		Annotations *Annotations    `json:"annotations,omitempty"`
		Meta        map[string]any  `json:"_meta,omitempty"`
	}
	wireTextContents struct {
		URI      string         `json:"uri"`
		MIMEType string         `json:"mimeType,omitempty"`
		Text     string         `json:"text"`
		Meta     map[string]any `json:"_meta,omitempty"`
	}
	wireBlobContents struct {
		URI      string         `json:"uri"`
		MIMEType string         `json:"mimeType,omitempty"`
		Blob     []byte         `json:"blob"`
		Meta     map[string]any `json:"_meta,omitempty"`
	}
	wireProbe struct {
		Type string          `json:"type"`
		Blob json.RawMessage `json:"blob"`
	}
)

// MarshalJSON writes the MCP wire form.
func (c *TextContent) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(wireText{"text", c.Text, c.Annotations, c.Meta})
}

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *ImageContent) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(wireBinary{"image", nonNil(c.Data), c.MIMEType, c.Annotations, c.Meta})
}

// MarshalJSON writes the MCP wire form with data as padded standard base64.
func (c *AudioContent) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(wireBinary{"audio", nonNil(c.Data), c.MIMEType, c.Annotations, c.Meta})
}

// MarshalJSON writes the MCP wire form.
func (c *ResourceLink) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(wireLink{"resource_link", c.URI, c.Name, c.Title, c.Description, c.MIMEType, c.Size, c.Annotations, c.Meta})
}

// MarshalJSON writes the MCP wire form: a text resource, or a blob resource when Blob != nil.
func (c *EmbeddedResource) MarshalJSON() ([]byte, error) {
	r, err := c.Resource.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return marshalNoEscape(wireResource{"resource", r, c.Annotations, c.Meta})
}

// MarshalJSON writes the contents as TextResourceContents or BlobResourceContents.
func (r ResourceContents) MarshalJSON() ([]byte, error) {
	if r.Blob != nil {
		return marshalNoEscape(wireBlobContents{r.URI, r.MIMEType, r.Blob, r.Meta})
	}
	return marshalNoEscape(wireTextContents{r.URI, r.MIMEType, r.Text, r.Meta})
}

// UnmarshalJSON reads TextResourceContents or BlobResourceContents.
func (r *ResourceContents) UnmarshalJSON(b []byte) error {
	var probe wireProbe
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if probe.Blob != nil {
		var w wireBlobContents
		if err := json.Unmarshal(b, &w); err != nil {
			return err
		}
		*r = ResourceContents{URI: w.URI, MIMEType: w.MIMEType, Blob: nonNil(w.Blob), Meta: w.Meta}
		return nil
	}
	var w wireTextContents
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = ResourceContents{URI: w.URI, MIMEType: w.MIMEType, Text: w.Text, Meta: w.Meta}
	return nil
}

// UnmarshalContent reads one ContentBlock from its MCP wire form. An unknown type is an error.
func UnmarshalContent(b []byte) (Content, error) {
	var probe wireProbe
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, err
	}
	switch probe.Type {
	case "text":
		var w wireText
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		return &TextContent{w.Text, w.Annotations, w.Meta}, nil
	case "image", "audio":
		var w wireBinary
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		if probe.Type == "image" {
			return &ImageContent{nonNil(w.Data), w.MIMEType, w.Annotations, w.Meta}, nil
		}
		return &AudioContent{nonNil(w.Data), w.MIMEType, w.Annotations, w.Meta}, nil
	case "resource_link":
		var w wireLink
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		return &ResourceLink{w.URI, w.Name, w.Title, w.Description, w.MIMEType, w.Size, w.Annotations, w.Meta}, nil
	case "resource":
		var w wireResource
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		c := &EmbeddedResource{Annotations: w.Annotations, Meta: w.Meta}
		if err := c.Resource.UnmarshalJSON(w.Resource); err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, fmt.Errorf("unknown content type %q", probe.Type)
}

// CallToolResult is the result of an MCP tools/call. Content is always written (as [] when
// empty); ResultType is written as "complete" when empty, as the 2026-07-28 schema requires.
type CallToolResult struct {
	Content           []Content
	StructuredContent map[string]any
	IsError           bool
	Meta              map[string]any
}

type wireResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent map[string]any    `json:"structuredContent,omitempty"`
	IsError           bool              `json:"isError,omitempty"`
	ResultType        string            `json:"resultType"`
	Meta              map[string]any    `json:"_meta,omitempty"`
}

// MarshalJSON writes the result in the form the 2025-06-18, 2025-11-25 and 2026-07-28 schemas
// all accept.
func (r *CallToolResult) MarshalJSON() ([]byte, error) {
	w := wireResult{Content: make([]json.RawMessage, 0, len(r.Content)), StructuredContent: r.StructuredContent,
		IsError: r.IsError, ResultType: "complete", Meta: r.Meta}
	for i, c := range r.Content {
		b, err := c.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", i, err)
		}
		w.Content = append(w.Content, b)
	}
	return marshalNoEscape(w)
}

// UnmarshalJSON reads a result. Unknown block types are an error: use ParseToolOutput for
// output you do not trust.
func (r *CallToolResult) UnmarshalJSON(b []byte) error {
	var w wireResult
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = CallToolResult{StructuredContent: w.StructuredContent, IsError: w.IsError, Meta: w.Meta,
		Content: make([]Content, 0, len(w.Content))}
	for i, raw := range w.Content {
		c, err := UnmarshalContent(raw)
		if err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
		r.Content = append(r.Content, c)
	}
	return nil
}

// marshalNoEscape is json.Marshal without HTML escaping: results carry markup and URLs, and
// "\u003c" in every tag would only cost bytes and readability.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
