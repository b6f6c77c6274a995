package bridge

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// compactRaw removes the white space between the tokens of valid JSON text.
func compactRaw(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		out = append(out, c)
	}
	return out
}

func (v Violation) appendJSON(w *jsonWriter) {
	w.raw(`{"block":`)
	w.value(v.Block)
	for _, f := range [...]struct{ k, v string }{{"type", v.Type}, {"limit", v.Limit}, {"reason", v.Reason}, {"notice", v.Notice}} {
		w.raw(`,"` + f.k + `":`)
		w.str(f.v)
	}
	w.raw("}")
}

// Violation is one policy rule a tool result broke, and what Normalize did about it.
type Violation struct {
	Block  int    `json:"block"`  // index of the offending item in the tool's content (0 for a single value)
	Type   string `json:"type"`   // the item's type as the tool gave it: "image", "html", "table", …
	Limit  string `json:"limit"`  // the policy setting that applied, e.g. "maxImageBytes"
	Reason string `json:"reason"` // what was wrong, e.g. "21.3 MiB exceeds the 5 MiB limit"
	Notice string `json:"notice"` // the text the agent sees in the block's place
}

// ExtraMetaKey is the _meta key under which Normalize keeps members of a known block that the
// block type does not define, so that nothing the tool sent is lost.
const ExtraMetaKey = "webmcp-bridge/extra"

// blockFields lists the members each recognised block type may have besides type, annotations
// and _meta; required ones are checked in blockKind.
var blockFields = map[string][]string{
	"text":          {"text"},
	"image":         {"data", "mimeType", "alt"},
	"audio":         {"data", "mimeType"},
	"html":          {"html"},
	"link":          {"url", "title", "description"},
	"table":         {"headers", "rows"},
	"error":         {"message", "code"},
	"resource_link": {"uri", "name", "title", "description", "mimeType", "size", "icons"},
	"resource":      {"resource"},
}

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
			if b, ok := x["isError"].(bool); ok && b {
				n.isError = true
			}
			if sc, ok := x["structuredContent"]; ok && sc != nil {
				n.structured = wrapStructured(sc)
				if b, err := appendJSON(n.structured); err == nil {
					n.structuredBytes = int64(len(b))
				}
			}
			if m, ok := x["_meta"].(map[string]any); ok {
				n.meta = m
			}
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
		ok = has("data") && optString("mimeType") && optString("alt")
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
	return blockList(list)
}

func blockList(list []any) ([]map[string]any, bool) {
	if len(list) == 0 {
		return nil, false
	}
	items := make([]map[string]any, len(list))
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok || blockKind(m) == "" {
			return nil, false
		}
		items[i] = m
	}
	return items, true
}

func wrapStructured(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{"result": v}
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

// common validates a block's annotations and _meta and keeps unknown members in _meta.
func (n *normalizer) common(kind string, m map[string]any) (*Annotations, map[string]any) {
	var meta map[string]any
	if mm, ok := m["_meta"].(map[string]any); ok {
		meta = make(map[string]any, len(mm)+1)
		for k, v := range mm {
			meta[k] = v
		}
	} else if mv, ok := m["_meta"]; ok && mv != nil {
		n.violate(kind, "changed", "annotations", "_meta is not an object; it was moved under "+ExtraMetaKey)
		meta = map[string]any{ExtraMetaKey: map[string]any{"_meta": mv}}
	}
	var extra map[string]any
	for k, v := range m {
		if k == "type" || k == "annotations" || k == "_meta" || contains(blockFields[kind], k) {
			continue
		}
		if extra == nil {
			extra = map[string]any{}
		}
		extra[k] = v
	}
	if extra != nil {
		if prev, ok := meta[ExtraMetaKey].(map[string]any); ok {
			for k, v := range extra {
				prev[k] = v
			}
		} else {
			meta = withMeta(meta, ExtraMetaKey, extra)
		}
	}
	raw, ok := m["annotations"]
	if !ok || raw == nil {
		return nil, meta
	}
	ann, err := parseAnnotations(raw)
	if err != nil {
		n.violate(kind, "changed", "annotations", "annotations dropped: "+err.Error())
		return nil, meta
	}
	return ann, meta
}

func parseAnnotations(raw any) (*Annotations, error) {
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
					return nil, fmt.Errorf("audience holds %v; only \"user\" and \"assistant\" exist", r)
				}
				a.Audience = append(a.Audience, Role(s))
			}
		case "priority":
			f, ok := toFloat(v)
			if !ok || f < 0 || f > 1 || math.IsNaN(f) {
				return nil, fmt.Errorf("priority %v is not a number from 0 to 1", v)
			}
			a.Priority = &f
		case "lastModified":
			s, ok := v.(string)
			if !ok {
				return nil, errors.New("lastModified is not a string")
			}
			a.LastModified = s
		default:
			return nil, fmt.Errorf("unknown annotation %q", k)
		}
	}
	return a, nil
}

// violate records a violation and puts its notice, "[kind verb: reason]", into the content
// where the block stood (verb "removed") or right after what was kept of it.
func (n *normalizer) violate(kind, verb, limit, reason string) {
	notice := "[" + kind + " " + verb + ": " + reason + "]"
	n.violations = append(n.violations, Violation{Block: n.block, Type: kind, Limit: limit, Reason: reason, Notice: notice})
	n.out = append(n.out, &TextContent{Text: notice})
}

func (n *normalizer) fail(kind string, err error) {
	limit := "policy"
	var le *sanitize.LimitError
	if errors.As(err, &le) {
		limit = le.Limit
	}
	n.violate(kind, "removed", limit, err.Error())
}

func (n *normalizer) text(s string, ann *Annotations, meta map[string]any) {
	out, cut, chars := sanitize.Text(s, n.p.MaxTextChars)
	n.out = append(n.out, &TextContent{Text: out, Annotations: ann, Meta: meta})
	if cut {
		n.violate("text", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

func truncationReason(chars, limit int) string {
	return fmt.Sprintf("%s characters exceed the %s-character limit; the first %s were kept",
		sanitize.FormatCount(int64(chars)), sanitize.FormatCount(int64(limit)), sanitize.FormatCount(int64(limit)))
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

func (n *normalizer) html(markup string, ann *Annotations, meta map[string]any) {
	if n.p.MaxHTMLBytes > 0 && len(markup) > n.p.MaxHTMLBytes {
		n.fail("html", &sanitize.LimitError{Limit: "maxHTMLBytes", Reason: fmt.Sprintf("%s exceeds the %s limit",
			sanitize.FormatBytes(int64(len(markup))), sanitize.FormatBytes(int64(n.p.MaxHTMLBytes)))})
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
		if n.p.MaxHTMLBytes > 0 && len(text) > n.p.MaxHTMLBytes {
			n.fail("resource", &sanitize.LimitError{Limit: "maxHTMLBytes", Reason: fmt.Sprintf("%s of %s exceeds the %s limit",
				sanitize.FormatBytes(int64(len(text))), mime, sanitize.FormatBytes(int64(n.p.MaxHTMLBytes)))})
			return
		}
		clean := sanitize.HTML(text)
		removed := sanitize.Removed(text, clean)
		rc.Text = clean
		rc.MIMEType = "text/html"
		n.out = append(n.out, &EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
		if removed != "" {
			n.violate("resource", "sanitized", "html", "removed "+removed)
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

// decodeBinary reads base64 (standard or URL alphabet, padded or not, white space ignored) or a
// data: URL, and returns the bytes and the data URL's MIME type. It refuses early when the
// encoded length alone shows the decoded bytes would exceed maxBytes.
func decodeBinary(s string, maxBytes int64, limit string) ([]byte, string, error) {
	mime := ""
	if len(s) > 5 && strings.EqualFold(s[:5], "data:") {
		comma := strings.IndexByte(s, ',')
		if comma < 0 {
			return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data: URL has no comma"}
		}
		header := s[5:comma]
		params := strings.Split(header, ";")
		mime = strings.TrimSpace(params[0])
		isBase64 := false
		for _, p := range params[1:] {
			if strings.EqualFold(strings.TrimSpace(p), "base64") {
				isBase64 = true
			}
		}
		s = s[comma+1:]
		if !isBase64 {
			dec, err := url.PathUnescape(s)
			if err != nil {
				return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data: URL is not valid percent-encoding"}
			}
			if maxBytes > 0 && int64(len(dec)) > maxBytes {
				return nil, "", sizeErr(int64(len(dec)), maxBytes, limit)
			}
			return []byte(dec), mime, nil
		}
	}
	if maxBytes > 0 {
		if est := int64(len(s)) / 4 * 3; est > maxBytes+3 {
			return nil, "", sizeErr(est, maxBytes, limit)
		}
	}
	// Standard padded base64 first, as nearly everyone sends; white space only when that fails.
	for attempt := 0; attempt < 2; attempt++ {
		text := s
		if attempt == 1 {
			text = stripBase64Space(s)
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(text); err == nil {
				if maxBytes > 0 && int64(len(b)) > maxBytes {
					return nil, "", sizeErr(int64(len(b)), maxBytes, limit)
				}
				return b, mime, nil
			}
		}
	}
	return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data is neither base64 nor a data: URL"}
}

func sizeErr(n, max int64, limit string) error {
	return &sanitize.LimitError{Limit: limit, Reason: fmt.Sprintf("%s exceeds the %s limit",
		sanitize.FormatBytes(n), sanitize.FormatBytes(max))}
}

func stripBase64Space(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

func withAudience(a *Annotations, r Role) *Annotations {
	out := &Annotations{Audience: []Role{r}}
	if a != nil {
		out.Priority, out.LastModified = a.Priority, a.LastModified
	}
	return out
}

func withMeta(meta map[string]any, k string, v any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	if prev, ok := meta[k].(map[string]any); ok {
		if add, ok := v.(map[string]any); ok {
			for kk, vv := range add {
				prev[kk] = vv
			}
			return meta
		}
	}
	meta[k] = v
	return meta
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// scalarString renders a JSON scalar as text; objects and arrays as JSON; nil as "".
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		w := &jsonWriter{}
		w.float(x)
		return string(w.buf)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	b, err := appendJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
