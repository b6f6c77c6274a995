package sanitize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// TestMIMETypeFamilies: every type a browser renders as markup is markup (whatever its case or
// parameters), HTML and XHTML are the ones the sanitizer takes, and only types shown as text
// are inert text.
func TestMIMETypeFamilies(t *testing.T) {
	for _, c := range []struct {
		mime               string
		markup, html, text bool
	}{
		{"text/html", true, true, false},
		{"TEXT/HTML; charset=utf-8", true, true, false},
		{"application/xhtml+xml", true, true, false},
		{"image/svg+xml", true, false, false},
		{"application/atom+xml", true, false, false},
		{"application/rss+xml", true, false, false},
		{"text/xsl", true, false, false},
		{"application/xslt+xml", true, false, false},
		{"text/xml", true, false, false},
		{"application/xml", true, false, false},
		{"application/mathml+xml", true, false, false},
		{"text/plain", false, false, true},
		{"text/csv; header=present", false, false, true},
		{"application/json", false, false, true},
		{"application/ld+json", false, false, true},
		{"text/x-python", false, false, true},
		{"", false, false, true},
		{"text/x-server-parsed-html", false, false, false},
		{"application/pdf", false, false, false},
		{"multipart/x-mixed-replace", false, false, false},
		{"text/vnd.wap.wml", false, false, false},
		{"application/x-unknown", false, false, false},
	} {
		assert.Equal(t, c.markup, sanitize.MarkupFamily(c.mime), "MarkupFamily(%q)", c.mime)
		assert.Equal(t, c.html, sanitize.IsHTML(c.mime), "IsHTML(%q)", c.mime)
		assert.Equal(t, c.text, sanitize.InertText(c.mime), "InertText(%q)", c.mime)
	}
}
