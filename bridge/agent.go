package bridge

import (
	"errors"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/internal/refusal"
)

// ParseToolOutput is the agent side: it reads the string a tool's executeTool returned — the JSON
// of a CallToolResult when the page ran the bridge, any JSON value, or plain text — and normalizes
// it again under p. Nothing in raw is trusted: a page can bypass its own bridge, so HTML is
// sanitized again, images and audio re-sniffed and URLs re-validated. Text that is not a JSON
// object or array becomes a text block as it is.
func ParseToolOutput(raw string, p Policy) (*CallToolResult, []Violation) {
	if r, vs := refuseOversized(len(raw), p); r != nil {
		return r, vs
	}
	t := strings.TrimSpace(raw)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		v, err := jsonvalue.Decode([]byte(t))
		_, deep := errors.AsType[*jsonvalue.DepthError](err)
		switch {
		case deep:
			return refuse(refusal.TooDeep())
		case err == nil:
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
		n.item = i
		item, _ := it.(map[string]any)
		kind := blockKind(item)
		if kind == "" {
			t, _ := item["type"].(string)
			if t == "" {
				t = "content"
			} else {
				t = pagetext.Quote(t)
			}
			n.violate(t, "removed", "content", "not a valid content block")
			continue
		}
		n.convert(kind, item)
	}
	n.item = 0
	n.envelopeMembers(m)
	return n.finish()
}
