package bridge

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
)

// The MCP wire forms, written by hand (see jsonWriter). Required members are always written, so
// an empty text is still "text": "".

func (a *Annotations) appendJSON(w *jsonWriter) {
	w.raw("{")
	first := true
	if len(a.Audience) > 0 {
		w.key(&first, "audience")
		writeArray(w, a.Audience, func(r Role) { w.str(string(r)) })
	}
	if a.Priority != nil {
		w.key(&first, "priority")
		w.float(*a.Priority)
	}
	if a.LastModified != "" {
		w.key(&first, "lastModified")
		w.str(a.LastModified)
	}
	w.raw("}")
}

// common writes the annotations and _meta members every block may carry.
func (w *jsonWriter) common(a *Annotations, meta map[string]any) {
	if a != nil {
		w.raw(`,"annotations":`)
		a.appendJSON(w)
	}
	if len(meta) > 0 {
		w.raw(`,"_meta":`)
		w.value(meta)
	}
}

func (c *TextContent) appendJSON(w *jsonWriter) {
	w.raw(`{"type":"text","text":`)
	w.str(c.Text)
	w.common(c.Annotations, c.Meta)
	w.raw("}")
}

func (c *ImageContent) appendJSON(w *jsonWriter) {
	w.binary("image", c.Data, c.MIMEType, c.Annotations, c.Meta)
}
func (c *AudioContent) appendJSON(w *jsonWriter) {
	w.binary("audio", c.Data, c.MIMEType, c.Annotations, c.Meta)
}

func (w *jsonWriter) binary(kind string, data []byte, mime string, a *Annotations, meta map[string]any) {
	w.raw(`{"type":"` + kind + `","data":`)
	w.b64(data)
	w.raw(`,"mimeType":`)
	w.str(mime)
	w.common(a, meta)
	w.raw("}")
}

func (c *ResourceLink) appendJSON(w *jsonWriter) {
	w.raw(`{"type":"resource_link","uri":`)
	w.str(c.URI)
	w.raw(`,"name":`)
	w.str(c.Name)
	for _, f := range [...]struct{ k, v string }{{"title", c.Title}, {"description", c.Description}, {"mimeType", c.MIMEType}} {
		if f.v != "" {
			w.raw(`,"` + f.k + `":`)
			w.str(f.v)
		}
	}
	if c.Size != nil {
		w.raw(`,"size":`)
		w.value(*c.Size)
	}
	w.common(c.Annotations, c.Meta)
	w.raw("}")
}

func (c *EmbeddedResource) appendJSON(w *jsonWriter) {
	w.raw(`{"type":"resource","resource":`)
	c.Resource.appendJSON(w)
	w.common(c.Annotations, c.Meta)
	w.raw("}")
}

func (r ResourceContents) appendJSON(w *jsonWriter) {
	w.raw(`{"uri":`)
	w.str(r.URI)
	if r.MIMEType != "" {
		w.raw(`,"mimeType":`)
		w.str(r.MIMEType)
	}
	if r.Blob != nil {
		w.raw(`,"blob":`)
		w.b64(r.Blob)
	} else {
		w.raw(`,"text":`)
		w.str(r.Text)
	}
	if len(r.Meta) > 0 {
		w.raw(`,"_meta":`)
		w.value(r.Meta)
	}
	w.raw("}")
}

func (r *CallToolResult) appendJSON(w *jsonWriter) {
	w.raw(`{"content":[`)
	for i, c := range r.Content {
		if i > 0 {
			w.raw(",")
		}
		if a, ok := c.(jsonAppender); ok {
			a.appendJSON(w)
		} else if b, err := c.MarshalJSON(); err == nil {
			w.buf = append(w.buf, b...)
		} else {
			w.fail(fmt.Errorf("content[%d]: %w", i, err))
		}
	}
	w.raw("]")
	if r.StructuredContent != nil {
		w.raw(`,"structuredContent":`)
		w.value(r.StructuredContent)
	}
	if r.IsError {
		w.raw(`,"isError":true`)
	}
	w.raw(`,"resultType":"complete"`)
	if len(r.Meta) > 0 {
		w.raw(`,"_meta":`)
		w.value(r.Meta)
	}
	w.raw("}")
}

// contentFromMap reads a decoded MCP block. It checks the wire form only; Normalize is what
// applies the policy.
func contentFromMap(m map[string]any) (Content, error) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	ann, err := annotationsFromMap(m["annotations"])
	if err != nil {
		return nil, err
	}
	meta, _ := m["_meta"].(map[string]any)
	need := func(keys ...string) error {
		for _, k := range keys {
			if _, ok := m[k].(string); !ok {
				return fmt.Errorf("%s block without a %q string", m["type"], k)
			}
		}
		return nil
	}
	switch t, _ := m["type"].(string); t {
	case "text":
		if err := need("text"); err != nil {
			return nil, err
		}
		return &TextContent{Text: str("text"), Annotations: ann, Meta: meta}, nil
	case "image", "audio":
		if err := need("data", "mimeType"); err != nil {
			return nil, err
		}
		data, err := base64.StdEncoding.DecodeString(str("data"))
		if err != nil {
			return nil, fmt.Errorf("%s data is not padded standard base64: %w", t, err)
		}
		if t == "image" {
			return &ImageContent{Data: data, MIMEType: str("mimeType"), Annotations: ann, Meta: meta}, nil
		}
		return &AudioContent{Data: data, MIMEType: str("mimeType"), Annotations: ann, Meta: meta}, nil
	case "resource_link":
		if err := need("uri", "name"); err != nil {
			return nil, err
		}
		rl := &ResourceLink{URI: str("uri"), Name: str("name"), Title: str("title"), Description: str("description"),
			MIMEType: str("mimeType"), Annotations: ann, Meta: meta}
		if f, ok := toFloat(m["size"]); ok && f == math.Trunc(f) {
			n := int64(f)
			rl.Size = &n
		}
		return rl, nil
	case "resource":
		rm, ok := m["resource"].(map[string]any)
		if !ok {
			return nil, errors.New("resource block without a resource object")
		}
		rc, err := contentsFromMap(rm)
		if err != nil {
			return nil, err
		}
		return &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta}, nil
	default:
		return nil, fmt.Errorf("unknown content type %q", t)
	}
}

func contentsFromMap(m map[string]any) (ResourceContents, error) {
	uri, ok := m["uri"].(string)
	if !ok {
		return ResourceContents{}, errors.New("resource contents without a uri")
	}
	rc := ResourceContents{URI: uri}
	rc.MIMEType, _ = m["mimeType"].(string)
	rc.Meta, _ = m["_meta"].(map[string]any)
	if b, ok := m["blob"].(string); ok {
		data, err := base64.StdEncoding.DecodeString(b)
		if err != nil {
			return ResourceContents{}, fmt.Errorf("blob is not padded standard base64: %w", err)
		}
		rc.Blob = nonNil(data)
		return rc, nil
	}
	text, ok := m["text"].(string)
	if !ok {
		return ResourceContents{}, errors.New("resource contents need text or blob")
	}
	rc.Text = text
	return rc, nil
}

func annotationsFromMap(v any) (*Annotations, error) {
	if v == nil {
		return nil, nil
	}
	return parseAnnotations(v)
}
