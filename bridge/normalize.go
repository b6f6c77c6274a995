package bridge

import (
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// ExtraMetaKey is the _meta key under which Normalize keeps members of a known block that the
// block type does not define, so that nothing the tool sent is lost.
const ExtraMetaKey = "webmcp-bridge/extra"

// Normalize turns what a WebMCP tool returned — a decoded JSON value: string, float64 or
// json.Number, bool, nil, []any or map[string]any — into an MCP CallToolResult, applying p.
//
// A string becomes a text block. An object whose "type" is one of the proposed WebMCP result
// types (text, image, html, link, table, error) or an MCP block type (text, image, audio,
// resource_link, resource), with that type's required members, becomes blocks; so does an array
// of such objects, or an envelope {content: [...], isError?, structuredContent?, _meta?} whose
// every item is one. Anything else is data: it becomes structuredContent (wrapped as
// {"result": v} when not an object) and its JSON as a text block, so nothing is lost — an
// envelope with one block of unknown type is data, too.
//
// A block that breaks a limit is replaced by a text notice that says what was removed and why,
// and reported in the returned violations; with p.Strict the whole result becomes an isError
// result listing the reasons. Normalize never panics on any such value.
func Normalize(v any, p Policy) (*CallToolResult, []Violation) {
	n := &normalizer{p: p}
	n.value(v)
	return n.finish()
}

// NormalizeJSON is Normalize for a JSON document. Numbers keep their exact text, and data keeps
// its members in the order the document gave them.
func NormalizeJSON(b []byte, p Policy) (*CallToolResult, []Violation, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, nil, err
	}
	n := &normalizer{p: p, rawJSON: b}
	n.value(v)
	r, vs := n.finish()
	return r, vs, nil
}

// ErrorResult is the result for a tool that failed (threw, rejected, or could not be run):
// isError with one text block that gives the message and, when not empty, the code.
func ErrorResult(message, code string) *CallToolResult {
	t := &TextContent{Text: errorText(message, code)}
	if code != "" {
		t.Meta = map[string]any{"code": code}
	}
	return &CallToolResult{Content: []Content{t}, IsError: true}
}

func errorText(message, code string) string {
	message, _, _ = sanitize.Text(message, 0)
	if strings.TrimSpace(message) == "" {
		message = "the tool failed without a message"
	}
	if code != "" {
		return "Error [" + code + "]: " + message
	}
	return "Error: " + message
}

type normalizer struct {
	p          Policy
	out        []Content
	violations []Violation
	isError    bool
	structured map[string]any
	// structuredBytes is the JSON size of structured, counted against MaxResultBytes.
	structuredBytes int64
	meta            map[string]any
	block           int // index of the input item being converted
	// rawJSON is the document the value was decoded from, when there is one: data is shown to
	// the model in the tool's own member order rather than Go's sorted one.
	rawJSON []byte
}

func (n *normalizer) value(v any) {
	switch x := v.(type) {
	case string:
		n.text(x, nil, nil)
		return
	case map[string]any:
		if kind := blockKind(x); kind != "" {
			n.convert(kind, x)
			return
		}
		if items, ok := envelopeItems(x); ok {
			for i, it := range items {
				n.block = i
				n.convert(blockKind(it), it)
			}
			n.block = 0
			n.envelopeMembers(x)
			return
		}
	case []any:
		if items, ok := blockList(x); ok {
			for i, it := range items {
				n.block = i
				n.convert(blockKind(it), it)
			}
			n.block = 0
			return
		}
	}
	n.data(v)
}

// envelopeMembers keeps an envelope's isError, structuredContent (wrapped when not an object)
// and _meta.
func (n *normalizer) envelopeMembers(m map[string]any) {
	if b, ok := m["isError"].(bool); ok && b {
		n.isError = true
	}
	if sc, ok := m["structuredContent"]; ok && sc != nil {
		n.structured = wrapStructured(sc)
		if b, err := appendJSON(n.structured); err == nil {
			n.structuredBytes = int64(len(b))
		}
	}
	if meta, ok := m["_meta"].(map[string]any); ok {
		n.meta = meta
	}
}

// convert turns one recognised block into MCP blocks.
func (n *normalizer) convert(kind string, m map[string]any) {
	ann, meta := n.common(kind, m)
	str := func(k string) string { s, _ := m[k].(string); return s }
	switch kind {
	case "text":
		n.text(str("text"), ann, meta)
	case "image":
		n.image(str("data"), str("mimeType"), str("alt"), ann, meta)
	case "audio":
		n.audio(str("data"), str("mimeType"), ann, meta)
	case "html":
		n.html(str("html"), ann, meta)
	case "link":
		n.link(str("url"), str("title"), str("description"), ann, meta)
	case "table":
		n.table(m, ann, meta)
	case "error":
		n.isError = true
		code := scalarString(m["code"])
		if code != "" {
			meta = withMeta(meta, "code", m["code"])
		}
		n.text(errorText(str("message"), code), ann, meta)
	case "resource_link":
		n.resourceLink(m, ann, meta)
	case "resource":
		n.resource(m["resource"].(map[string]any), ann, meta)
	}
}

func (n *normalizer) text(s string, ann *Annotations, meta map[string]any) {
	out, cut, chars := sanitize.Text(s, n.p.MaxTextChars)
	n.out = append(n.out, &TextContent{Text: out, Annotations: ann, Meta: meta})
	if cut {
		n.violate("text", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

func (n *normalizer) image(data, declared, alt string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := decodeBinary(data, n.p.MaxImageBytes, "maxImageBytes")
	if err != nil {
		n.fail("image", err)
		return
	}
	if declared == "" && urlType != "application/octet-stream" {
		declared = urlType // a data: URL's own type counts, unless it only says "some bytes"
	}
	info, err := sanitize.CheckImage(raw, declared, n.p.imageLimits())
	if err != nil {
		n.fail("image", err)
		return
	}
	if alt != "" {
		alt, _, _ = sanitize.Text(alt, n.p.MaxTextChars)
		meta = withMeta(meta, "alt", alt)
	}
	n.out = append(n.out, &ImageContent{Data: raw, MIMEType: info.MIMEType, Annotations: ann, Meta: meta})
}

func (n *normalizer) audio(data, declared string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := decodeBinary(data, n.p.MaxAudioBytes, "maxAudioBytes")
	if err != nil {
		n.fail("audio", err)
		return
	}
	if declared == "" {
		declared = urlType
	}
	mime, err := sanitize.CheckAudio(raw, declared, n.p.audioLimits())
	if err != nil {
		n.fail("audio", err)
		return
	}
	n.out = append(n.out, &AudioContent{Data: raw, MIMEType: mime, Annotations: ann, Meta: meta})
}

// markupFits applies MaxHTMLBytes to markup before it is sanitized, replacing the block with a
// notice when it is over ("32 B<what> exceeds the 20 B limit").
func (n *normalizer) markupFits(kind, markup, what string) bool {
	if n.p.MaxHTMLBytes <= 0 || len(markup) <= n.p.MaxHTMLBytes {
		return true
	}
	n.fail(kind, &sanitize.LimitError{Limit: "maxHTMLBytes", Reason: fmt.Sprintf("%s%s exceeds the %s limit",
		sanitize.FormatBytes(int64(len(markup))), what, sanitize.FormatBytes(int64(n.p.MaxHTMLBytes)))})
	return false
}

func (n *normalizer) html(markup string, ann *Annotations, meta map[string]any) {
	if !n.markupFits("html", markup, "") {
		return
	}
	s := sanitize.SanitizeHTML(markup)
	uri := fmt.Sprintf("webmcp://content/%d.html", len(n.out))
	n.out = append(n.out,
		&EmbeddedResource{Resource: ResourceContents{URI: uri, MIMEType: "text/html", Text: s.HTML},
			Annotations: withAudience(ann, RoleUser), Meta: meta},
		&TextContent{Text: s.Text, Annotations: withAudience(ann, RoleAssistant)})
	if s.Removed != "" {
		n.violate("html", "sanitized", "html", "removed "+s.Removed)
	}
}

func (n *normalizer) link(raw, title, description string, ann *Annotations, meta map[string]any) {
	u, err := sanitize.URL(raw, n.p.urlRules())
	if err != nil {
		n.fail("link", err)
		return
	}
	name := title
	if name == "" {
		name = u
	}
	n.out = append(n.out, &ResourceLink{URI: u, Name: name, Title: title, Description: description, Annotations: ann, Meta: meta})
}

func (n *normalizer) resourceLink(m map[string]any, ann *Annotations, meta map[string]any) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	u, err := sanitize.ResourceURI(str("uri"), n.p.MaxURLLength)
	if err != nil {
		n.fail("resource_link", err)
		return
	}
	rl := &ResourceLink{URI: u, Name: str("name"), Title: str("title"), Description: str("description"),
		MIMEType: str("mimeType"), Annotations: ann, Meta: meta}
	if rl.Name == "" {
		rl.Name = u
	}
	if sz, ok := toFloat(m["size"]); ok && sz >= 0 && sz == math.Trunc(sz) && sz < 1<<53 {
		s := int64(sz)
		rl.Size = &s
	} else if m["size"] != nil {
		rl.Meta = withMeta(rl.Meta, ExtraMetaKey, map[string]any{"size": m["size"]})
	}
	if icons, ok := m["icons"]; ok {
		rl.Meta = withMeta(rl.Meta, ExtraMetaKey, map[string]any{"icons": icons})
	}
	n.out = append(n.out, rl)
}

func (n *normalizer) resource(r map[string]any, ann *Annotations, meta map[string]any) {
	str := func(k string) string { s, _ := r[k].(string); return s }
	u, err := sanitize.ResourceURI(str("uri"), n.p.MaxURLLength)
	if err != nil {
		n.fail("resource", err)
		return
	}
	mime := str("mimeType")
	rc := ResourceContents{URI: u, MIMEType: mime}
	if rm, ok := r["_meta"].(map[string]any); ok {
		rc.Meta = rm
	}
	markup := isMarkupType(mime)
	if b64, isBlob := r["blob"].(string); isBlob {
		if markup {
			n.fail("resource", &sanitize.LimitError{Limit: "html",
				Reason: mime + " must be sent as text so that it can be sanitized, not as a blob"})
			return
		}
		raw, _, err := decodeBinary(b64, n.p.MaxResultBytes, "maxResultBytes")
		if err != nil {
			n.fail("resource", err)
			return
		}
		if strings.HasPrefix(sanitize.CanonicalMIME(mime), "image/") {
			if _, err := sanitize.CheckImage(raw, mime, n.p.imageLimits()); err != nil {
				n.fail("resource", err)
				return
			}
		}
		rc.Blob = raw
		n.out = append(n.out, &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
		return
	}
	text := str("text")
	if markup {
		if !n.markupFits("resource", text, " of "+mime) {
			return
		}
		s := sanitize.SanitizeHTML(text)
		rc.Text = s.HTML
		rc.MIMEType = "text/html"
		n.out = append(n.out, &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
		if s.Removed != "" {
			n.violate("resource", "sanitized", "html", "removed "+s.Removed)
		}
		return
	}
	out, cut, chars := sanitize.Text(text, n.p.MaxTextChars)
	rc.Text = out
	n.out = append(n.out, &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
	if cut {
		n.violate("resource", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

// isMarkupType reports MIME types a client might render as a document: they are sanitized.
func isMarkupType(mime string) bool {
	switch sanitize.CanonicalMIME(mime) {
	case "text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml":
		return true
	}
	return false
}

// data keeps any other JSON value as structuredContent and its JSON as text.
func (n *normalizer) data(v any) {
	var b []byte
	var err error
	if n.rawJSON != nil {
		b = compactRaw(n.rawJSON)
	} else {
		b, err = appendJSON(v)
	}
	if err != nil {
		n.fail("data", fmt.Errorf("the value cannot be written as JSON: %v", err))
		return
	}
	if n.p.MaxResultBytes > 0 && int64(len(b)) > n.p.MaxResultBytes {
		n.fail("data", &sanitize.LimitError{Limit: "maxResultBytes", Reason: fmt.Sprintf("%s of JSON exceeds the %s limit",
			sanitize.FormatBytes(int64(len(b))), sanitize.FormatBytes(n.p.MaxResultBytes))})
		return
	}
	n.structured = wrapStructured(v)
	n.structuredBytes = int64(len(b))
	text, _, _ := sanitize.Text(string(b), 0) // JSON text may hold invalid UTF-8 the decoder replaced
	n.out = append(n.out, &TextContent{Text: text})
}

// finish applies the whole-result limit and strict mode.
func (n *normalizer) finish() (*CallToolResult, []Violation) {
	if n.p.MaxResultBytes > 0 {
		n.enforceResultBytes()
	}
	if n.p.Strict && len(n.violations) > 0 {
		reasons := make([]string, len(n.violations))
		for i, v := range n.violations {
			reasons[i] = v.Notice
		}
		return &CallToolResult{IsError: true, Content: []Content{&TextContent{
			Text: "Tool result refused by the strict policy: " + strings.Join(reasons, " "),
		}}}, n.violations
	}
	if n.out == nil {
		n.out = []Content{}
	}
	return &CallToolResult{Content: n.out, StructuredContent: n.structured, IsError: n.isError, Meta: n.meta}, n.violations
}

// enforceResultBytes replaces blocks, last first, with notices until the estimated size of the
// result fits MaxResultBytes.
func (n *normalizer) enforceResultBytes() {
	sizes := make([]int64, len(n.out))
	var total int64
	for i, c := range n.out {
		sizes[i] = blockSize(c)
		total += sizes[i]
	}
	total += n.structuredBytes
	for i := len(n.out) - 1; i >= 0 && total > n.p.MaxResultBytes; i-- {
		if sizes[i] < 256 {
			continue
		}
		reason := fmt.Sprintf("the result would be %s, over the %s limit", sanitize.FormatBytes(total), sanitize.FormatBytes(n.p.MaxResultBytes))
		notice := "[" + n.out[i].ContentType() + " removed: " + reason + "]"
		n.violations = append(n.violations, Violation{Block: i, Type: n.out[i].ContentType(), Limit: "maxResultBytes", Reason: reason, Notice: notice})
		n.out[i] = &TextContent{Text: notice}
		total -= sizes[i] - int64(len(notice))
	}
}

// blockSize estimates a block's JSON size without writing it.
func blockSize(c Content) int64 {
	switch b := c.(type) {
	case *TextContent:
		return int64(len(b.Text)) + 64
	case *ImageContent:
		return int64(base64.StdEncoding.EncodedLen(len(b.Data))) + 64
	case *AudioContent:
		return int64(base64.StdEncoding.EncodedLen(len(b.Data))) + 64
	case *EmbeddedResource:
		if b.Resource.Blob != nil {
			return int64(base64.StdEncoding.EncodedLen(len(b.Resource.Blob))) + 128
		}
		return int64(len(b.Resource.Text)) + 128
	case *ResourceLink:
		return int64(len(b.URI)+len(b.Name)+len(b.Title)+len(b.Description)) + 96
	}
	return 64
}
