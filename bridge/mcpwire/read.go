package mcpwire

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// This file is the one reader of the wire form: Unmarshal* and package bridge's normalizer use
// the same functions for every member, so the two cannot disagree on what a member may hold.

// UnmarshalContent reads one ContentBlock from its MCP wire form. An unknown type is an error.
func UnmarshalContent(b []byte) (Content, error) {
	m, err := decodeObject(b, "a content block")
	if err != nil {
		return nil, err
	}
	return BlockFromMap(m)
}

// UnmarshalJSON reads TextResourceContents or BlobResourceContents.
func (r *ResourceContents) UnmarshalJSON(b []byte) error {
	m, err := decodeObject(b, "resource contents")
	if err != nil {
		return err
	}
	rc, err := ContentsFromMap(m)
	if err != nil {
		return err
	}
	*r = rc
	return nil
}

// UnmarshalJSON reads a result. Unknown block types are an error: package bridge's
// ParseToolOutput is for output you do not trust.
func (r *CallToolResult) UnmarshalJSON(b []byte) error {
	m, err := decodeObject(b, "a CallToolResult")
	if err != nil {
		return err
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
		c, err := BlockFromMap(bm)
		if err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
		out.Content = append(out.Content, c)
	}
	if sc, ok := m["structuredContent"]; ok && sc != nil {
		if out.StructuredContent, ok = sc.(map[string]any); !ok {
			return errors.New("structuredContent is not an object")
		}
	}
	if ie, ok := m["isError"]; ok && ie != nil {
		if out.IsError, ok = ie.(bool); !ok {
			return fmt.Errorf("isError is %s, not a boolean", pagetext.QuoteJSON(ie))
		}
	}
	if out.Meta, err = optionalMeta(m); err != nil {
		return err
	}
	*r = out
	return nil
}

func decodeObject(b []byte, what string) (map[string]any, error) {
	v, err := jsonvalue.Decode(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New(what + " must be an object")
	}
	return m, nil
}

// BlockFromMap reads a decoded MCP block strictly: a known type with its required members, each
// member of its JSON type. It checks the wire form only; package bridge applies the policy.
func BlockFromMap(m map[string]any) (Content, error) {
	ann, err := ParseAnnotations(m["annotations"])
	if err != nil {
		return nil, fmt.Errorf("annotations: %w", err)
	}
	meta, err := optionalMeta(m)
	if err != nil {
		return nil, err
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	t, _ := m["type"].(string)
	for _, k := range [...]string{"title", "description", "mimeType"} {
		if v, ok := m[k]; ok && v != nil {
			if _, isStr := v.(string); !isStr {
				return nil, fmt.Errorf("%s block: %s is %s, not a string", pagetext.Quote(t), k, pagetext.QuoteJSON(v))
			}
		}
	}
	need := func(keys ...string) error {
		for _, k := range keys {
			if _, ok := m[k].(string); !ok {
				return fmt.Errorf("%s block without a %q string", t, k)
			}
		}
		return nil
	}
	switch t {
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
		size, err := ParseSize(m["size"])
		if err != nil {
			return nil, err
		}
		return &ResourceLink{URI: str("uri"), Name: str("name"), Title: str("title"), Description: str("description"),
			MIMEType: str("mimeType"), Size: size, Annotations: ann, Meta: meta}, nil
	case "resource":
		rm, ok := m["resource"].(map[string]any)
		if !ok {
			return nil, errors.New("resource block without a resource object")
		}
		rc, err := ContentsFromMap(rm)
		if err != nil {
			return nil, err
		}
		return &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta}, nil
	}
	return nil, fmt.Errorf("unknown content type %s", pagetext.Quote(t))
}

// ContentsFromMap reads decoded resource contents: a uri and text, or a uri and a base64 blob.
func ContentsFromMap(m map[string]any) (ResourceContents, error) {
	uri, ok := m["uri"].(string)
	if !ok {
		return ResourceContents{}, errors.New("resource contents without a uri")
	}
	rc := ResourceContents{URI: uri}
	if v, ok := m["mimeType"]; ok && v != nil {
		if rc.MIMEType, ok = v.(string); !ok {
			return ResourceContents{}, fmt.Errorf("resource mimeType is %s, not a string", pagetext.QuoteJSON(v))
		}
	}
	meta, err := optionalMeta(m)
	if err != nil {
		return ResourceContents{}, err
	}
	rc.Meta = meta
	if b, ok := m["blob"].(string); ok {
		data, err := base64.StdEncoding.DecodeString(b)
		if err != nil {
			return ResourceContents{}, fmt.Errorf("blob is not padded standard base64: %w", err)
		}
		if data == nil {
			data = []byte{}
		}
		rc.Blob = data
		return rc, nil
	}
	text, ok := m["text"].(string)
	if !ok {
		return ResourceContents{}, errors.New("resource contents need text or blob")
	}
	rc.Text = text
	return rc, nil
}

// optionalMeta reads an optional _meta member, which must be an object when present.
func optionalMeta(m map[string]any) (map[string]any, error) {
	v, ok := m["_meta"]
	if !ok || v == nil {
		return nil, nil
	}
	meta, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("_meta is %s, not an object", pagetext.QuoteJSON(v))
	}
	return meta, nil
}

// ParseSize reads a resource_link's size: absent (nil) or a whole number from 0 to 2^53. A
// decoded JSON number is judged by its text, not by the nearest float64, so 9007199254740993
// and 1.0000000000000001 are refused rather than rounded.
func ParseSize(v any) (*int64, error) {
	if v == nil {
		return nil, nil
	}
	d, ok := jsonvalue.NumberOf(v)
	n, whole := d.Int64()
	if !ok || !whole || n < 0 || n > 1<<53 {
		text := pagetext.QuoteJSON(v)
		if num, isNum := v.(json.Number); isNum {
			text = pagetext.QuoteJSON(num) // as written, even beyond float64
		}
		return nil, fmt.Errorf("size %s is not a whole number from 0 to 2^53", text)
	}
	return &n, nil
}

// ParseAnnotations reads decoded annotations: nil is none; anything but an object with
// audience, priority and lastModified of the right types and ranges is an error.
func ParseAnnotations(raw any) (*Annotations, error) {
	if raw == nil {
		return nil, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	a := &Annotations{}
	for k, v := range m {
		switch k {
		case "audience":
			list, ok := v.([]any)
			if !ok {
				return nil, errors.New("audience is not an array")
			}
			for _, r := range list {
				s, _ := r.(string)
				if s != string(RoleUser) && s != string(RoleAssistant) {
					return nil, fmt.Errorf("audience holds %s; only \"user\" and \"assistant\" exist", pagetext.QuoteJSON(r))
				}
				a.Audience = append(a.Audience, Role(s))
			}
		case "priority":
			f, ok := jsonvalue.ToFloat(v)
			if !ok || f < 0 || f > 1 || math.IsNaN(f) {
				return nil, fmt.Errorf("priority %s is not a number from 0 to 1", pagetext.QuoteJSON(v))
			}
			a.Priority = &f
		case "lastModified":
			s, ok := v.(string)
			if !ok {
				return nil, errors.New("lastModified is not a string")
			}
			if err := CheckLastModified(s); err != nil {
				return nil, err
			}
			a.LastModified = s
		default:
			return nil, fmt.Errorf("unknown annotation %s", pagetext.Quote(k))
		}
	}
	return a, nil
}
