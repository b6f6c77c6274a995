package bridge

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
)

// ParseToolOutput is the agent side: it reads the string a tool's executeTool returned — the JSON
// of a CallToolResult when the page ran the bridge, any JSON value, or plain text — and normalizes
// it again under p. Nothing in raw is trusted: a page can bypass its own bridge, so HTML is
// sanitized again, images and audio re-sniffed and URLs re-validated. Text that is not a JSON
// object or array becomes a text block as it is.
func ParseToolOutput(raw string, p Policy) (*CallToolResult, []Violation) {
	t := strings.TrimSpace(raw)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		if v, err := decodeJSON([]byte(t)); err == nil {
			if m, ok := v.(map[string]any); ok {
				if _, hasContent := m["content"]; hasContent {
					return normalizeEnvelope(m, p)
				}
			}
			return Normalize(v, p)
		}
	}
	return Normalize(raw, p)
}

// normalizeEnvelope re-normalizes a result that claims to be a CallToolResult. Its blocks were
// produced by a bridge, so each block is normalized on its own: one unknown block is replaced by
// a notice instead of turning the whole result into data.
func normalizeEnvelope(m map[string]any, p Policy) (*CallToolResult, []Violation) {
	if _, ok := envelopeItems(m); ok {
		return Normalize(m, p)
	}
	list, ok := m["content"].([]any)
	if !ok {
		return Normalize(m, p)
	}
	n := &normalizer{p: p}
	for i, it := range list {
		n.block = i
		item, _ := it.(map[string]any)
		kind := blockKind(item)
		if kind == "" {
			t, _ := item["type"].(string)
			if t == "" {
				t = "content"
			}
			n.violate(t, "removed", "content", "not a valid content block")
			continue
		}
		n.convert(kind, item)
	}
	n.block = 0
	n.envelopeMembers(m)
	return n.finish()
}

// ModelInput is what a model API takes from a tool result: the text the model reads, the binary
// attachments (images, audio, blobs) and links, and whether the tool failed.
type ModelInput struct {
	Text        string       `json:"text"`
	Attachments []Attachment `json:"attachments"`
	IsError     bool         `json:"isError"`
}

// Attachment is one non-text part of a result. Data is standard padded base64 (empty for links).
type Attachment struct {
	Type     string `json:"type"` // "image", "audio", "resource" (a blob) or "resource_link"
	MIMEType string `json:"mimeType,omitempty"`
	Data     string `json:"data,omitempty"`
	URI      string `json:"uri,omitempty"`
	Name     string `json:"name,omitempty"`
}

// ToModelInput turns a result into ModelInput without dropping anything silently: text blocks
// are joined with newlines; images, audio and blob resources become attachments and are named
// in the text ("[image 1: alt]"); links are named in the text and listed as attachments;
// embedded text resources are included with their URI; structuredContent that no text block
// repeats is added as JSON. Blocks whose audience is only "user" are for display and stay out of
// the text (the bridge gives each of them an assistant-facing twin).
func ToModelInput(r *CallToolResult) ModelInput {
	in := ModelInput{IsError: r.IsError, Attachments: []Attachment{}}
	var parts []string
	images, audios := 0, 0
	structuredSeen := r.StructuredContent == nil
	var structuredJSON string
	if !structuredSeen {
		b, _ := appendJSON(r.StructuredContent)
		structuredJSON = string(b)
	}
	for _, c := range r.Content {
		ann, meta := c.Common()
		userOnly := ann != nil && len(ann.Audience) > 0 && !slices.Contains(ann.Audience, RoleAssistant)
		switch b := c.(type) {
		case *TextContent:
			if userOnly {
				continue
			}
			if !structuredSeen && sameJSON(b.Text, structuredJSON) {
				structuredSeen = true
			}
			parts = append(parts, b.Text)
		case *ImageContent:
			images++
			in.Attachments = append(in.Attachments, Attachment{Type: "image", MIMEType: b.MIMEType, Data: base64.StdEncoding.EncodeToString(b.Data)})
			label := "[image " + strconv.Itoa(images)
			if alt, _ := meta["alt"].(string); alt != "" {
				label += ": " + alt
			}
			parts = append(parts, label+"]")
		case *AudioContent:
			audios++
			in.Attachments = append(in.Attachments, Attachment{Type: "audio", MIMEType: b.MIMEType, Data: base64.StdEncoding.EncodeToString(b.Data)})
			parts = append(parts, "[audio "+strconv.Itoa(audios)+", "+b.MIMEType+"]")
		case *ResourceLink:
			in.Attachments = append(in.Attachments, Attachment{Type: "resource_link", MIMEType: b.MIMEType, URI: b.URI, Name: b.Name})
			line := "Link: "
			if b.Title != "" {
				line += b.Title + " <" + b.URI + ">"
			} else if b.Name != b.URI {
				line += b.Name + " <" + b.URI + ">"
			} else {
				line += b.URI
			}
			if b.Description != "" {
				line += " — " + b.Description
			}
			parts = append(parts, line)
		case *EmbeddedResource:
			if b.Resource.Blob != nil {
				in.Attachments = append(in.Attachments, Attachment{Type: "resource", MIMEType: b.Resource.MIMEType,
					Data: base64.StdEncoding.EncodeToString(b.Resource.Blob), URI: b.Resource.URI})
				if !userOnly {
					parts = append(parts, "[attached resource "+b.Resource.URI+" ("+orUnknown(b.Resource.MIMEType)+")]")
				}
				continue
			}
			if userOnly {
				continue
			}
			parts = append(parts, "Resource "+b.Resource.URI+" ("+orUnknown(b.Resource.MIMEType)+"):\n"+b.Resource.Text)
		}
	}
	if !structuredSeen {
		parts = append(parts, structuredJSON)
	}
	in.Text = strings.Join(parts, "\n")
	return in
}

func (in ModelInput) appendJSON(w *jsonWriter) {
	w.raw(`{"text":`)
	w.str(in.Text)
	w.raw(`,"attachments":`)
	writeArray(w, in.Attachments, func(a Attachment) {
		w.raw(`{"type":`)
		w.str(a.Type)
		for _, f := range [...]struct{ k, v string }{{"mimeType", a.MIMEType}, {"data", a.Data}, {"uri", a.URI}, {"name", a.Name}} {
			if f.v != "" {
				w.raw(`,"` + f.k + `":`)
				w.str(f.v)
			}
		}
		w.raw("}")
	})
	w.raw(`,"isError":`)
	if in.IsError {
		w.raw("true}")
	} else {
		w.raw("false}")
	}
}

// sameJSON reports whether text is a JSON serialization of the same value as want.
func sameJSON(text, want string) bool {
	if text == want {
		return true
	}
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return false
	}
	v, err := decodeJSON([]byte(t))
	if err != nil {
		return false
	}
	b, err := appendJSON(wrapStructured(v))
	if err != nil {
		return false
	}
	w, _ := decodeJSON([]byte(want))
	wb, _ := appendJSON(w)
	return string(b) == string(wb)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}
