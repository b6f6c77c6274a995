package bridge

import (
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/mcpwire"
	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/internal/thrown"
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
		n.image(m["data"], str("mimeType"), str("alt"), ann, meta)
	case "audio":
		n.audio(m["data"], str("mimeType"), ann, meta)
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
		n.text(errorText(thrown.Message(str("name"), str("message")), code), ann, meta)
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

func (n *normalizer) image(data any, declared, alt string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := binaryData(data, n.p.MaxImageBytes, "maxImageBytes")
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
	n.typeCorrected("image", info)
}

// typeCorrected reports an image whose declared type was not what its bytes are: the block
// carries the type of the bytes (an allowed one, or CheckImage would have refused it).
func (n *normalizer) typeCorrected(kind string, info sanitize.ImageInfo) {
	if info.DeclaredType != "" {
		n.violate(kind, "changed", "imageTypes", "declared as "+pagetext.Quote(info.DeclaredType)+" but the bytes are "+
			info.MIMEType+"; the type was corrected")
	}
}

func (n *normalizer) audio(data any, declared string, ann *Annotations, meta map[string]any) {
	raw, urlType, err := binaryData(data, n.p.MaxAudioBytes, "maxAudioBytes")
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
func (n *normalizer) sanitizeMarkup(kind, markup, what string) (sanitize.HTMLResult, bool) {
	if n.p.MaxHTMLBytes > 0 && len(markup) > n.p.MaxHTMLBytes {
		n.remove(kind, &sanitize.LimitError{Limit: "maxHTMLBytes", Reason: fmt.Sprintf("%s%s exceeds the %s limit",
			sanitize.FormatBytes(int64(len(markup))), what, sanitize.FormatBytes(int64(n.p.MaxHTMLBytes)))})
		return sanitize.HTMLResult{}, false
	}
	return sanitize.HTMLAndText(markup, n.p.htmlRules()), true
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
	u, err := n.followable(raw)
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

// followable checks a URL a user or a model may follow — a link's url, a resource_link's uri —
// with the one URL rule (sanitize.URL under linkSchemes and maxURLLength). A relative URL is
// first resolved against the page's URL, as the page would resolve it.
func (n *normalizer) followable(raw string) (string, error) {
	if n.p.PageURL != "" {
		if abs, ok := resolveRelative(n.p.PageURL, raw); ok {
			raw = abs
		}
	}
	return sanitize.URL(raw, n.p.urlRules())
}

// resolveRelative resolves ref against base when ref is a plain relative reference: no scheme,
// and nothing a browser would repair (spaces, controls, backslashes) — sanitize.URL refuses
// those with its own reasons.
func resolveRelative(base, ref string) (string, bool) {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= 0x20 })
	if ref == "" || strings.ContainsAny(ref, "\\") ||
		strings.IndexFunc(ref, func(r rune) bool { return r <= 0x20 || r == 0x7f }) >= 0 {
		return "", false
	}
	if i := strings.IndexAny(ref, ":/?#"); i >= 0 && ref[i] == ':' {
		return "", false // it has a scheme: absolute
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return "", false
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	return b.ResolveReference(r).String(), true
}

// resourceLink passes an MCP resource_link through with its uri held to the one URL rule. A
// size the wire form does not allow is kept under ExtraMetaKey, with a notice.
func (n *normalizer) resourceLink(m map[string]any, ann *Annotations, meta map[string]any) {
	str := func(k string) string { s, _ := m[k].(string); return s }
	u, err := n.followable(str("uri"))
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

// resource checks an embedded resource. Its uri is an identifier, not a link, but a client may
// show or open it: unless it is an identifierURI, one the one URL rule does not allow is
// replaced by the bridge's own (webmcp://content/…) and kept under ExtraMetaKey. Text that browsers render as HTML is
// sanitized; other markup (XML, SVG, XSL, feeds) and types not known to be shown as text are
// handed on as text/plain; binary content gets the image and audio checks.
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
	var uriRefused error
	if !identifierURI(u) {
		if _, uriRefused = n.followable(u); uriRefused != nil {
			rc.URI = fmt.Sprintf("webmcp://content/%d", len(n.out))
			meta = withMeta(meta, ExtraMetaKey, map[string]any{"uri": u})
		}
	}
	emit := func(rc ResourceContents, meta map[string]any) {
		n.emit(&EmbeddedResource{Resource: rc, Annotations: ann, Meta: meta})
		if uriRefused != nil {
			n.violate("resource", "changed", "linkSchemes", uriRefused.Error()+"; the uri was replaced by "+rc.URI+
				" and kept under _meta."+ExtraMetaKey)
		}
	}
	if b64, isBlob := r["blob"].(string); isBlob {
		n.blobResource(rc, b64, meta, emit)
		return
	}
	text := str("text")
	if sanitize.IsHTML(mime) {
		s, ok := n.sanitizeMarkup("resource", text, " of "+mime)
		if !ok {
			return
		}
		rc.Text, rc.MIMEType = s.HTML, "text/html"
		emit(rc, meta)
		if s.Removed != "" {
			n.violate("resource", "sanitized", "html", "removed "+s.Removed)
		}
		return
	}
	asText := !sanitize.InertText(mime)
	if asText {
		rc.MIMEType = "text/plain"
		meta = withMeta(meta, ExtraMetaKey, map[string]any{"mimeType": mime})
	}
	out, cut, chars := sanitize.Text(text, n.p.MaxTextChars)
	rc.Text = out
	emit(rc, meta)
	if asText {
		why := "browsers render it as a document that can run script"
		if !sanitize.MarkupFamily(mime) {
			why = "it is not a type browsers are known to show as text"
		}
		n.violate("resource", "changed", "resource",
			fmt.Sprintf("%s: %s; it is handed on as text/plain (the type is kept under _meta.%s)",
				pagetext.Quote(mime), why, ExtraMetaKey))
	}
	if cut {
		n.violate("resource", "truncated", "maxTextChars", truncationReason(chars, n.p.MaxTextChars))
	}
}

// identifierURI reports URIs that name embedded content and that no browser or operating
// system follows: the bridge's own webmcp: and MCP Apps' ui: (a resource_link is always held to
// linkSchemes).
func identifierURI(u string) bool {
	return strings.HasPrefix(u, "webmcp:") || strings.HasPrefix(u, "ui:")
}

// blobResource checks a base64 resource: markup must come as text (to be sanitized), images
// get the image checks (and the type of their bytes), audio the audio checks, and the whole blob
// counts against MaxResultBytes.
func (n *normalizer) blobResource(rc ResourceContents, b64 string, meta map[string]any,
	emit func(ResourceContents, map[string]any)) {
	if sanitize.MarkupFamily(rc.MIMEType) {
		n.remove("resource", &sanitize.LimitError{Limit: "resource",
			Reason: pagetext.Quote(rc.MIMEType) + " is markup browsers can run script in: send it as text, not as a blob"})
		return
	}
	raw, _, err := decodeBinary(b64, n.p.MaxResultBytes, "maxResultBytes")
	if err != nil {
		n.remove("resource", err)
		return
	}
	var corrected sanitize.ImageInfo
	switch mime := sanitize.CanonicalMIME(rc.MIMEType); {
	case strings.HasPrefix(mime, "image/"):
		info, err := sanitize.CheckImage(raw, rc.MIMEType, n.p.imageLimits())
		if err != nil {
			n.remove("resource", err)
			return
		}
		rc.MIMEType, corrected = info.MIMEType, info
	case strings.HasPrefix(mime, "audio/"):
		if rc.MIMEType, err = sanitize.CheckAudio(raw, rc.MIMEType, n.p.audioLimits()); err != nil {
			n.remove("resource", err)
			return
		}
	}
	rc.Blob = raw
	emit(rc, meta)
	n.typeCorrected("resource", corrected)
}

// withAudience copies a block's priority and lastModified onto annotations for one role.
func withAudience(a *Annotations, r Role) *Annotations {
	out := &Annotations{Audience: []Role{r}}
	if a != nil {
		out.Priority, out.LastModified = a.Priority, a.LastModified
	}
	return out
}

// withMeta sets meta[k] = v, merging v into a copy of an object already there: meta is the
// bridge's own map, but the object under k may be the tool's, which Normalize never changes.
func withMeta(meta map[string]any, k string, v any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	if prev, ok := meta[k].(map[string]any); ok {
		if add, ok := v.(map[string]any); ok {
			merged := make(map[string]any, len(prev)+len(add))
			maps.Copy(merged, prev)
			maps.Copy(merged, add)
			v = merged
		}
	}
	meta[k] = v
	return meta
}
