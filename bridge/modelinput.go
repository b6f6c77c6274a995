package bridge

import (
	"encoding/base64"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

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
// in the text ("[image 1: "alt"]"); links are named in the text and listed as attachments;
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
		b, _ := jsonvalue.Marshal(r.StructuredContent)
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
			in.Attachments = append(in.Attachments,
				Attachment{Type: "image", MIMEType: b.MIMEType, Data: base64.StdEncoding.EncodeToString(b.Data)})
			label := "[image " + strconv.Itoa(images)
			if alt, _ := meta["alt"].(string); alt != "" {
				label += ": " + pageText(alt)
			}
			parts = append(parts, label+"]")
		case *AudioContent:
			audios++
			in.Attachments = append(in.Attachments,
				Attachment{Type: "audio", MIMEType: b.MIMEType, Data: base64.StdEncoding.EncodeToString(b.Data)})
			parts = append(parts, "[audio "+strconv.Itoa(audios)+", "+b.MIMEType+"]")
		case *ResourceLink:
			in.Attachments = append(in.Attachments,
				Attachment{Type: "resource_link", MIMEType: b.MIMEType, URI: b.URI, Name: b.Name})
			line := "Link: "
			if b.Title != "" {
				line += pageText(b.Title) + " <" + b.URI + ">"
			} else if b.Name != b.URI {
				line += pageText(b.Name) + " <" + b.URI + ">"
			} else {
				line += b.URI
			}
			if b.Description != "" {
				line += " — " + pageText(b.Description)
			}
			parts = append(parts, line)
		case *EmbeddedResource:
			if b.Resource.Blob != nil {
				in.Attachments = append(in.Attachments, Attachment{Type: "resource", MIMEType: b.Resource.MIMEType,
					Data: base64.StdEncoding.EncodeToString(b.Resource.Blob), URI: b.Resource.URI})
				if !userOnly {
					parts = append(parts, "[attached resource "+b.Resource.URI+" ("+mimeLabel(b.Resource.MIMEType)+")]")
				}
				continue
			}
			if userOnly {
				continue
			}
			parts = append(parts, "Resource "+b.Resource.URI+" ("+mimeLabel(b.Resource.MIMEType)+"):\n"+b.Resource.Text)
		}
	}
	if !structuredSeen {
		parts = append(parts, structuredJSON)
	}
	in.Text = strings.Join(parts, "\n")
	return in
}

// MarshalJSON writes {text, attachments, isError} without reflection.
func (in ModelInput) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(in) }

// AppendJSON appends {text, attachments, isError} to b.
func (in ModelInput) AppendJSON(b []byte) ([]byte, error) { return jsonvalue.AppendTo(b, in.writeJSON) }

func (in ModelInput) writeJSON(w *jsonvalue.Writer) {
	w.Raw(`{"text":`)
	w.Str(in.Text)
	w.Raw(`,"attachments":`)
	jsonvalue.WriteArray(w, in.Attachments, func(a Attachment) {
		w.Raw(`{"type":`)
		w.Str(a.Type)
		for _, f := range [...]struct{ k, v string }{
			{"mimeType", a.MIMEType}, {"data", a.Data}, {"uri", a.URI}, {"name", a.Name},
		} {
			if f.v != "" {
				w.Raw(`,"` + f.k + `":`)
				w.Str(f.v)
			}
		}
		w.Raw("}")
	})
	w.Raw(`,"isError":`)
	if in.IsError {
		w.Raw("true}")
	} else {
		w.Raw("false}")
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
	v, err := jsonvalue.Decode([]byte(t))
	if err != nil {
		return false
	}
	b, err := jsonvalue.Marshal(wrapStructured(v))
	if err != nil {
		return false
	}
	w, _ := jsonvalue.Decode([]byte(want))
	wb, _ := jsonvalue.Marshal(w)
	return string(b) == string(wb)
}

// pageText is text a page chose (alt text, a link's title, name or description) as it goes into
// one of the model input's own lines: quoted, with line breaks and quotes escaped, so it can
// neither end the line nor pass for another label ("[image 2: …]", "Link: …").
func pageText(s string) string { return strconv.Quote(s) }

// mimeType is the shape of a MIME type; anything else a page put there is quoted.
var mimeType = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$`)

func mimeLabel(s string) string {
	switch {
	case s == "":
		return "unknown type"
	case mimeType.MatchString(s):
		return s
	}
	return pageText(s)
}
