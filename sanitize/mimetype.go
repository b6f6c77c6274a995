package sanitize

import (
	"slices"
	"strings"
)

// What a browser does with a document of a given MIME type decides how the bridge hands on a
// tool's resource: the types below are those a browser renders as markup, where script may run,
// and those it only shows as text. Anything else a tool labels its text with is not trusted to
// be inert.

// MarkupFamily reports whether browsers render a document of this type as markup that can run
// script: an HTML MIME type, or an XML MIME type as the MIME Sniffing Standard defines it
// (text/xml, application/xml, any */*+xml such as application/xhtml+xml, image/svg+xml,
// application/rss+xml or application/atom+xml), or XSL (text/xsl). Browsers render all of these
// as documents: XHTML and SVG elements run script, an XSL style sheet can produce HTML.
func MarkupFamily(mime string) bool {
	t := canonicalMIME(mime)
	switch t {
	case "text/html", "text/xml", "application/xml", "text/xsl", "text/xml-external-parsed-entity",
		"application/xml-external-parsed-entity", "application/xml-dtd":
		return true
	}
	return strings.HasSuffix(t, "+xml")
}

// IsHTML reports whether mime is HTML or XHTML: markup the HTML sanitizer can make safe.
func IsHTML(mime string) bool {
	t := canonicalMIME(mime)
	return t == "text/html" || t == "application/xhtml+xml"
}

// inertTextTypes are types browsers show as text (or offer to save), never as a document that
// runs script: plain text, data and source code.
var inertTextTypes = []string{
	"text/plain", "text/csv", "text/markdown", "text/css", "text/tab-separated-values",
	"text/calendar", "text/vcard", "text/yaml", "text/javascript", "application/javascript",
	"application/ecmascript", "application/json", "application/x-ndjson", "application/yaml",
	"application/x-yaml", "application/toml", "application/sql", "application/graphql",
}

// InertText reports whether text of this type is shown as text: one of inertTextTypes, any
// */*+json, or a text/x-… type (source code, by convention) whose name does not mention markup.
// No type at all counts as text. Everything else — markup, and types the bridge cannot vouch
// for — is not.
func InertText(mime string) bool {
	t := canonicalMIME(mime)
	switch {
	case t == "", slices.Contains(inertTextTypes, t), strings.HasSuffix(t, "+json"):
		return true
	case strings.HasPrefix(t, "text/x-"):
		return !strings.ContainsAny(t, "+;") && !strings.Contains(t, "htm") && !strings.Contains(t, "xml") &&
			!strings.Contains(t, "xsl") && !strings.Contains(t, "svg")
	}
	return false
}
