package sanitize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

var linkRules = sanitize.URLRules{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048}

func TestURLAccepts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com/a?b=c#d", "https://example.com/a?b=c#d"},
		{"  \x00https://example.com\x1f ", "https://example.com"},
		{"HTTPS://Example.com/", "https://example.com/"},
		{"mailto:someone@example.com", "mailto:someone@example.com"},
		// The host as the browser reads it: what a user or model is shown is where it goes.
		{"http://例え.jp/", "http://xn--r8jz45g.jp/"},
		{"https://аpple.com/login", "https://xn--pple-43d.com/login"}, // a Cyrillic а
		{"https://ＥＸＡＭＰＬＥ.com/", "https://example.com/"},              // full-width letters
		{"https://example。com/a", "https://example.com/a"},            // the ideographic full stop
		{"https://0x7f.1/admin", "https://127.0.0.1/admin"},
		{"https://2130706433:8080/", "https://127.0.0.1:8080/"},
		{"https://0177.0.0.1/", "https://127.0.0.1/"},
		{"https://[::1]:443/x", "https://[::1]:443/x"},
		{"https://my_host.example/", "https://my_host.example/"},
	}
	for _, tt := range tests {
		got, err := sanitize.URL(tt.in, linkRules)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got)
	}
}

func TestURLRefuses(t *testing.T) {
	tests := []struct{ in, reason string }{
		{"javascript:alert(1)", "the javascript: scheme is never allowed"},
		{"JaVaScRiPt:alert(1)", "the javascript: scheme is never allowed"},
		{" \x01javascript:alert(1)", "the javascript: scheme is never allowed"},
		{"java\tscript:alert(1)", "the URL contains a space or control character at byte 4"},
		{"java\nscript:alert(1)", "the URL contains a space or control character at byte 4"},
		{"javascript&colon;alert(1)", "the URL is not absolute (it has no scheme)"},
		{"&#106;avascript:alert(1)", "the URL is not absolute (it has no scheme)"},
		{"vbscript:msgbox", "the vbscript: scheme is never allowed"},
		{"data:text/html,<script>alert(1)</script>", "the data: scheme is never allowed"},
		{"file:///etc/passwd", "the file: scheme is never allowed"},
		{"ftp://example.com", `the "ftp:" scheme is not allowed (allowed: https, http, mailto)`},
		{"https://user:pass@example.com", "the URL carries credentials (user:password@)"},
		{"https:\\\\evil.com", "the URL contains a backslash (browsers read it as a slash)"},
		{"//example.com", "the URL is not absolute (it has no scheme)"},
		{"https:example.com", "the https: URL has no host"},
		{"https://" + strings.Repeat("a", 2100), "the URL is 2108 bytes, over the 2048-byte limit"},
		{"", "the URL is empty"},
		{"https://exa mple.com", "the URL contains a space or control character at byte 11"},
		// Not UTF-8: a browser reads it as U+FFFD, which no host may hold (idna wrote "xn--0-p10i",
		// which URL then refused; FuzzHTML found the sanitizer keeping it).
		{"https://\xde0/", "the host \"\ufffd0\" is not a valid domain name"},
		{"https://256.0.0.1/", `the host "256.0.0.1" is not a valid IPv4 address: a part is over 255`},
		{"https://1.2.3.4.5/", `the host "1.2.3.4.5" is not a valid IPv4 address: more than four parts`},
		{"https://a｛b.example/", `the host "a｛b.example" holds a character that has no place in a host name ('{')`},
		{"https://example.0x/", `the host "example.0x" is not a valid IPv4 address: part "example" is not a number`},
	}
	for _, tt := range tests {
		_, err := sanitize.URL(tt.in, linkRules)
		require.Error(t, err, "%q", tt.in)
		assert.Equal(t, tt.reason, err.Error(), "%q", tt.in)
	}
}

func TestResourceURI(t *testing.T) {
	got, err := sanitize.ResourceURI("ui://widget/1", 100)
	require.NoError(t, err)
	assert.Equal(t, "ui://widget/1", got)
	_, err = sanitize.ResourceURI("javascript:alert(1)", 100)
	assert.Error(t, err)
	_, err = sanitize.ResourceURI("relative/path", 100)
	assert.Error(t, err)
}
