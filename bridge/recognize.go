package bridge

import (
	"slices"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
)

// This file recognises what a tool returned: which objects are blocks of a known type, which
// are result envelopes, and what each block carries besides its own members.

// blockFields lists the members each recognised block type may have besides type, annotations
// and _meta; required ones are checked in blockKind.
var blockFields = map[string][]string{
	"text":          {"text"},
	"image":         {"data", "mimeType", "alt"},
	"audio":         {"data", "mimeType"},
	"html":          {"html"},
	"link":          {"url", "title", "description"},
	"table":         {"headers", "rows"},
	"error":         {"message", "code", "name"},
	"resource_link": {"uri", "name", "title", "description", "mimeType", "size", "icons"},
	"resource":      {"resource"},
}

// blockKind returns the type of m when m is a block this package understands — a known type
// with its required members of the right JSON types — and "" otherwise.
func blockKind(m map[string]any) string {
	t, _ := m["type"].(string)
	has := func(k string) bool { _, ok := m[k].(string); return ok }
	optString := func(k string) bool {
		v, ok := m[k]
		if !ok || v == nil {
			return true
		}
		_, isStr := v.(string)
		return isStr
	}
	ok := false
	switch t {
	case "text":
		ok = has("text")
	case "image", "audio":
		_, isBytes := m["data"].([]byte)
		ok = (has("data") || isBytes) && optString("mimeType") && optString("alt")
	case "html":
		ok = has("html")
	case "link":
		ok = has("url") && optString("title") && optString("description")
	case "table":
		rows, rowsOK := m["rows"].([]any)
		_, hdrOK := m["headers"].([]any)
		if m["headers"] == nil {
			hdrOK = true
		}
		ok = rowsOK && hdrOK
		for _, r := range rows {
			if _, isRow := r.([]any); !isRow {
				ok = false
			}
		}
	case "error":
		ok = has("message")
	case "resource_link":
		ok = has("uri") && optString("name") && optString("title") && optString("mimeType")
	case "resource":
		r, isObj := m["resource"].(map[string]any)
		if isObj {
			_, uriOK := r["uri"].(string)
			_, textOK := r["text"].(string)
			_, blobOK := r["blob"].(string)
			ok = uriOK && (textOK != blobOK)
		}
	}
	if !ok {
		return ""
	}
	return t
}

// envelopeItems returns the items of a CallToolResult-shaped object: only content, isError,
// structuredContent, resultType and _meta members, and every content item a known block.
func envelopeItems(m map[string]any) ([]map[string]any, bool) {
	list, ok := m["content"].([]any)
	if !ok {
		return nil, false
	}
	for k := range m {
		switch k {
		case "content", "isError", "structuredContent", "_meta", "resultType":
		default:
			return nil, false
		}
	}
	if ie, ok := m["isError"]; ok && ie != nil {
		if _, isBool := ie.(bool); !isBool {
			return nil, false
		}
	}
	if meta, ok := m["_meta"]; ok && meta != nil {
		if _, isObj := meta.(map[string]any); !isObj {
			return nil, false
		}
	}
	if len(list) == 0 {
		return nil, true
	}
	return blockList(list, false)
}

// blockList returns the items of list when every one is a block. With strings set, a string
// item is a text block too, as long as one item is a block: a tool that returns
// [imageBlob, "caption"] means an image and its caption, not data.
func blockList(list []any, strings bool) ([]map[string]any, bool) {
	if len(list) == 0 {
		return nil, false
	}
	items := make([]map[string]any, len(list))
	blocks := 0
	for i, it := range list {
		if s, ok := it.(string); ok && strings {
			items[i] = map[string]any{"type": "text", "text": s}
			continue
		}
		m, ok := it.(map[string]any)
		if !ok || blockKind(m) == "" {
			return nil, false
		}
		items[i] = m
		blocks++
	}
	return items, blocks > 0
}

func wrapStructured(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{"result": v}
}

// common validates a block's annotations and _meta and keeps unknown members in _meta.
func (n *normalizer) common(kind string, m map[string]any) (*Annotations, map[string]any) {
	var meta map[string]any
	if mm, ok := m["_meta"].(map[string]any); ok {
		meta = make(map[string]any, len(mm)+1)
		for k, v := range mm {
			meta[k] = v
		}
		if forged, ok := meta[NoticeMetaKey]; ok {
			// Only the bridge marks its notices; a tool's mark is kept, but where it marks nothing.
			delete(meta, NoticeMetaKey)
			meta = withMeta(meta, ExtraMetaKey, map[string]any{NoticeMetaKey: forged})
		}
	} else if mv, ok := m["_meta"]; ok && mv != nil {
		n.violate(kind, "changed", "annotations", "_meta is not an object; it was moved under "+ExtraMetaKey)
		meta = map[string]any{ExtraMetaKey: map[string]any{"_meta": mv}}
	}
	var extra map[string]any
	for k, v := range m {
		if k == "type" || k == "annotations" || k == "_meta" || slices.Contains(blockFields[kind], k) {
			continue
		}
		if extra == nil {
			extra = map[string]any{}
		}
		extra[k] = v
	}
	if extra != nil {
		meta = withMeta(meta, ExtraMetaKey, extra)
	}
	raw, ok := m["annotations"]
	if !ok || raw == nil {
		return nil, meta
	}
	raw = n.dropBadLastModified(kind, raw)
	ann, err := mcpwire.ParseAnnotations(raw)
	if err != nil {
		n.violate(kind, "changed", "annotations", "annotations dropped: "+err.Error())
		return nil, meta
	}
	return ann, meta
}

// dropBadLastModified removes a lastModified that is not an ISO 8601 date-time with an offset
// (the official TypeScript SDK refuses the whole result for one), with a notice; the block and
// its other annotations are kept.
func (n *normalizer) dropBadLastModified(kind string, raw any) any {
	m, ok := raw.(map[string]any)
	if !ok {
		return raw
	}
	lm, ok := m["lastModified"].(string)
	if !ok {
		return raw
	}
	err := mcpwire.CheckLastModified(lm)
	if err == nil {
		return raw
	}
	kept := make(map[string]any, len(m))
	for k, v := range m {
		if k != "lastModified" {
			kept[k] = v
		}
	}
	n.violate(kind, "changed", "annotations", err.Error()+"; it was dropped")
	return kept
}
