package mcpwire

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// The MCP wire forms, written by hand. Required members are always written, so an empty text is
// still "text": "".

// writeJSON writes the annotations, leaving out what is not set.
func (a *Annotations) writeJSON(w *jsonvalue.Writer) {
	w.Raw("{")
	first := true
	if len(a.Audience) > 0 {
		w.Key(&first, "audience")
		jsonvalue.WriteArray(w, a.Audience, func(r Role) { w.Str(string(r)) })
	}
	if a.Priority != nil {
		w.Key(&first, "priority")
		w.Float(*a.Priority)
	}
	if a.LastModified != "" {
		w.Key(&first, "lastModified")
		w.Str(a.LastModified)
	}
	w.Raw("}")
}

// appendCommon writes the annotations and _meta members every block may carry.
func appendCommon(w *jsonvalue.Writer, a *Annotations, meta map[string]any) {
	if a != nil {
		w.Raw(`,"annotations":`)
		a.writeJSON(w)
	}
	if len(meta) > 0 {
		w.Raw(`,"_meta":`)
		w.Value(meta)
	}
}

// writeJSON writes the block's wire form.
func (c *TextContent) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"type":"text","text":`)
	w.Str(c.Text)
	appendCommon(w, c.Annotations, c.Meta)
	w.Raw("}")
}

// writeJSON writes the block's wire form.
func (c *ImageContent) writeJSON(w *jsonvalue.Writer) {
	appendBinary(w, "image", c.Data, c.MIMEType, c.Annotations, c.Meta)
}

// writeJSON writes the block's wire form.
func (c *AudioContent) writeJSON(w *jsonvalue.Writer) {
	appendBinary(w, "audio", c.Data, c.MIMEType, c.Annotations, c.Meta)
}

func appendBinary(w *jsonvalue.Writer, kind string, data []byte, mime string, a *Annotations, meta map[string]any) {
	w.Raw(`{"type":"` + kind + `","data":`)
	w.Base64(data)
	w.Raw(`,"mimeType":`)
	w.Str(mime)
	appendCommon(w, a, meta)
	w.Raw("}")
}

// writeJSON writes the block's wire form.
func (c *ResourceLink) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"type":"resource_link","uri":`)
	w.Str(c.URI)
	w.Raw(`,"name":`)
	w.Str(c.Name)
	for _, f := range [...]struct{ k, v string }{
		{"title", c.Title}, {"description", c.Description}, {"mimeType", c.MIMEType},
	} {
		if f.v != "" {
			w.Raw(`,"` + f.k + `":`)
			w.Str(f.v)
		}
	}
	if c.Size != nil {
		w.Raw(`,"size":`)
		w.Value(*c.Size)
	}
	appendCommon(w, c.Annotations, c.Meta)
	w.Raw("}")
}

// writeJSON writes the block's wire form.
func (c *EmbeddedResource) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"type":"resource","resource":`)
	c.Resource.writeJSON(w)
	appendCommon(w, c.Annotations, c.Meta)
	w.Raw("}")
}

// writeJSON writes TextResourceContents, or BlobResourceContents when Blob != nil.
func (r ResourceContents) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"uri":`)
	w.Str(r.URI)
	if r.MIMEType != "" {
		w.Raw(`,"mimeType":`)
		w.Str(r.MIMEType)
	}
	if r.Blob != nil {
		w.Raw(`,"blob":`)
		w.Base64(r.Blob)
	} else {
		w.Raw(`,"text":`)
		w.Str(r.Text)
	}
	if len(r.Meta) > 0 {
		w.Raw(`,"_meta":`)
		w.Value(r.Meta)
	}
	w.Raw("}")
}

// writeJSON writes the result.
func (r *CallToolResult) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"content":[`)
	for i, c := range r.Content {
		if i > 0 {
			w.Raw(",")
		}
		if c == nil {
			w.Fail(fmt.Errorf("content[%d] is nil", i))
			continue
		}
		c.writeJSON(w)
	}
	w.Raw("]")
	if r.StructuredContent != nil {
		w.Raw(`,"structuredContent":`)
		w.Value(r.StructuredContent)
	}
	if r.IsError {
		w.Raw(`,"isError":true`)
	}
	w.Raw(`,"resultType":"complete"`)
	if len(r.Meta) > 0 {
		w.Raw(`,"_meta":`)
		w.Value(r.Meta)
	}
	w.Raw("}")
}
