package bridge

import (
	"fmt"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// convert turns one recognised block (see blockKind) into MCP blocks.
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
		code := jsonvalue.Scalar(m["code"])
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
	n.emit(&TextContent{Text: out, Annotations: ann, Meta: meta})
	if cut {
		n.violate("text", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

func (n *normalizer) image(data, declared, alt string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := decodeBinary(data, n.p.MaxImageBytes, "maxImageBytes")
	if err != nil {
		n.remove("image", err)
		return
	}
	if declared == "" && urlType != "application/octet-stream" {
		declared = urlType // a data: URL's own type counts, unless it only says "some bytes"
	}
	info, err := sanitize.CheckImage(raw, declared, n.p.imageLimits())
	if err != nil {
		n.remove("image", err)
		return
	}
	if alt != "" {
		alt, _, _ = sanitize.Text(alt, n.p.MaxTextChars)
		meta = withMeta(meta, "alt", alt)
	}
	n.emit(&ImageContent{Data: raw, MIMEType: info.MIMEType, Annotations: ann, Meta: meta})
}

func (n *normalizer) audio(data, declared string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := decodeBinary(data, n.p.MaxAudioBytes, "maxAudioBytes")
	if err != nil {
		n.remove("audio", err)
		return
	}
	if declared == "" {
		declared = urlType
	}
	mime, err := sanitize.CheckAudio(raw, declared, n.p.audioLimits())
	if err != nil {
		n.remove("audio", err)
		return
	}
	n.emit(&AudioContent{Data: raw, MIMEType: mime, Annotations: ann, Meta: meta})
}

// sanitizeMarkup applies MaxHTMLBytes to markup and sanitizes it. It reports false, having put
// a notice in the block's place, when the markup is over the limit ("32 B exceeds the 20 B
// limit", with what = " of text/xml" for resources).
func (n *normalizer) sanitizeMarkup(kind, markup, what string) (sanitize.SanitizedHTML, bool) {
	if n.p.MaxHTMLBytes > 0 && len(markup) > n.p.MaxHTMLBytes {
		n.remove(kind, &sanitize.LimitError{Limit: "maxHTMLBytes", Reason: fmt.Sprintf("%s%s exceeds the %s limit",
			sanitize.FormatBytes(int64(len(markup))), what, sanitize.FormatBytes(int64(n.p.MaxHTMLBytes)))})
		return sanitize.SanitizedHTML{}, false
	}
	return sanitize.SanitizeHTML(markup), true
}

func (n *normalizer) html(markup string, ann *Annotations, meta map[string]any) {
	s, ok := n.sanitizeMarkup("html", markup, "")
	if !ok {
		return
	}
	uri := fmt.Sprintf("webmcp://content/%d.html", len(n.out))
	n.emit(&EmbeddedResource{Resource: ResourceContents{URI: uri, MIMEType: "text/html", Text: s.HTML},
		Annotations: withAudience(ann, RoleUser), Meta: meta},
		&TextContent{Text: s.Text, Annotations: withAudience(ann, RoleAssistant)})
	if s.Removed != "" {
		n.violate("html", "sanitized", "html", "removed "+s.Removed)
	}
}

func (n *normalizer) link(raw, title, description string, ann *Annotations, meta map[string]any) {
	u, err := sanitize.URL(raw, n.p.urlRules())
	if err != nil {
		n.remove("link", err)
		return
	}
	name := title
	if name == "" {
		name = u
	}
	n.emit(&ResourceLink{URI: u, Name: name, Title: title, Description: description, Annotations: ann, Meta: meta})
}

// resourceLink passes an MCP resource_link through with a checked URI. A size the wire form does
// not allow is kept under ExtraMetaKey, with a notice.
func (n *normalizer) resourceLink(m map[string]any, ann *Annotations, meta map[string]any) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	u, err := sanitize.ResourceURI(str("uri"), n.p.MaxURLLength)
	if err != nil {
		n.remove("resource_link", err)
		return
	}
	rl := &ResourceLink{URI: u, Name: str("name"), Title: str("title"), Description: str("description"),
		MIMEType: str("mimeType"), Annotations: ann, Meta: meta}
	if rl.Name == "" {
		rl.Name = u
	}
	size, err := mcpwire.ParseSize(m["size"])
	rl.Size = size
	if icons, ok := m["icons"]; ok {
		rl.Meta = withMeta(rl.Meta, ExtraMetaKey, map[string]any{"icons": icons})
	}
	if err != nil {
		rl.Meta = withMeta(rl.Meta, ExtraMetaKey, map[string]any{"size": m["size"]})
	}
	n.emit(rl)
	if err != nil {
		n.violate("resource_link", "changed", "resource_link", err.Error()+"; it was moved under _meta."+ExtraMetaKey)
	}
}

func (n *normalizer) resource(r map[string]any, ann *Annotations, meta map[string]any) {
	str := func(k string) string { s, _ := r[k].(string); return s }
	u, err := sanitize.ResourceURI(str("uri"), n.p.MaxURLLength)
	if err != nil {
		n.remove("resource", err)
		return
	}
	mime := str("mimeType")
	rc := ResourceContents{URI: u, MIMEType: mime}
	rc.Meta, _ = r["_meta"].(map[string]any)
	if b64, isBlob := r["blob"].(string); isBlob {
		n.blobResource(rc, b64, ann, meta)
		return
	}
	text := str("text")
	if isMarkupType(mime) {
		s, ok := n.sanitizeMarkup("resource", text, " of "+mime)
		if !ok {
			return
		}
		rc.Text, rc.MIMEType = s.HTML, "text/html"
		n.emit(&EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
		if s.Removed != "" {
			n.violate("resource", "sanitized", "html", "removed "+s.Removed)
		}
		return
	}
	out, cut, chars := sanitize.Text(text, n.p.MaxTextChars)
	rc.Text = out
	n.emit(&EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
	if cut {
		n.violate("resource", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

// blobResource checks a base64 resource: markup must come as text (to be sanitized), images get
// the image checks, and the whole blob counts against MaxResultBytes.
func (n *normalizer) blobResource(rc ResourceContents, b64 string, ann *Annotations, meta map[string]any) {
	if isMarkupType(rc.MIMEType) {
		n.remove("resource", &sanitize.LimitError{Limit: "html",
			Reason: rc.MIMEType + " must be sent as text so that it can be sanitized, not as a blob"})
		return
	}
	raw, _, err := decodeBinary(b64, n.p.MaxResultBytes, "maxResultBytes")
	if err != nil {
		n.remove("resource", err)
		return
	}
	if strings.HasPrefix(sanitize.CanonicalMIME(rc.MIMEType), "image/") {
		if _, err := sanitize.CheckImage(raw, rc.MIMEType, n.p.imageLimits()); err != nil {
			n.remove("resource", err)
			return
		}
	}
	rc.Blob = raw
	n.emit(&EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
}

// isMarkupType reports MIME types a client might render as a document: they are sanitized.
func isMarkupType(mime string) bool {
	switch sanitize.CanonicalMIME(mime) {
	case "text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml":
		return true
	}
	return false
}

// withAudience copies a block's priority and lastModified onto annotations for one role.
func withAudience(a *Annotations, r Role) *Annotations {
	out := &Annotations{Audience: []Role{r}}
	if a != nil {
		out.Priority, out.LastModified = a.Priority, a.LastModified
	}
	return out
}

// withMeta sets meta[k] = v, merging v into an object already there.
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
