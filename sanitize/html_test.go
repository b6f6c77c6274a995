package sanitize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

func TestHTMLRemovesDanger(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"script", `<p>a</p><script>alert(1)</script>`, `<p>a</p>`},
		{"event handler", `<img src="https://x.test/a.png" onerror="alert(1)">`, `<img src="https://x.test/a.png">`},
		{"javascript href", `<a href="javascript:alert(1)">x</a>`, ` x `},
		{"entity javascript href", `<a href="jav&#x09;ascript:alert(1)">x</a>`, ` x `},
		{"relative href", `<a href="/x">x</a>`, ` x `},
		{"http img refused", `<img src="http://x.test/a.png">`, ` `},
		{"svg data img refused", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, ` `},
		{"style element and attribute", `<style>p{}</style><p style="color:red">a</p>`, `<p>a</p>`},
		{"form and controls", `<form action="https://x.test"><input name=a><button>b</button></form>`, `   b  `},
		{"iframe object embed", `<iframe src="https://x.test"></iframe><object data="x"></object><embed src="x">`, `     `},
		{"base meta link", `<base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://evil.test"><link rel=stylesheet href="https://x.test/a.css">`, `   `},
		{"svg and math", `<svg><script>alert(1)</script></svg><math><mi>x</mi></math>`, `    x  `},
		{"id and name (DOM clobbering)", `<p id="x" class="c">a</p>`, `<p>a</p>`},
		{"noscript mutation", `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`, `   &#34;&gt;`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitize.HTML(tt.in), "removed tags leave a space so words do not join")
		})
	}
}

func TestHTMLKeepsStructure(t *testing.T) {
	in := `<h2>T</h2><p><b>b</b> <em>e</em> <code>c</code></p><ul><li>one</li></ul><ol start="3"><li>x</li></ol>` +
		`<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>` +
		`<pre>  x</pre><blockquote>q</blockquote>` +
		`<img src="https://x.test/a.png" alt="A" width="10">`
	assert.Equal(t, in, sanitize.HTML(in))

	assert.Equal(t, `<a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">x</a>`,
		sanitize.HTML(`<a href="https://example.com" rel="opener" target="_self" onclick="x()">x</a>`))
	assert.Equal(t, `<a href="mailto:a@example.com" rel="nofollow noreferrer">m</a>`,
		sanitize.HTML(`<a href="mailto:a@example.com">m</a>`))
	dataImg := `<img src="data:image/png;base64,iVBORw0KGgo=">`
	assert.Equal(t, dataImg, sanitize.HTML(dataImg))
}

func TestHTMLText(t *testing.T) {
	clean := sanitize.HTML(`<h1>Report</h1><p>See <a href="https://e.test/r">the report</a> and <a href="https://e.test/x">https://e.test/x</a>.</p>` +
		`<ul><li>one</li><li>two</li></ul><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><img src="https://e.test/i.png" alt="chart">`)
	assert.Equal(t, "Report\n\nSee the report (https://e.test/r) and https://e.test/x.\n\n- one\n- two\n\na | b\n1 | 2\n[image: chart]", sanitize.HTMLText(clean))
}

func TestRemoved(t *testing.T) {
	in := `<p onclick="x">a<script>1</script><iframe></iframe></p>`
	assert.Equal(t, "<iframe>, <script>, onclick= (3 in all)", sanitize.Removed(in, sanitize.HTML(in)))
	ok := `<a href="https://e.test">x</a>`
	assert.Equal(t, "", sanitize.Removed(ok, sanitize.HTML(ok)), "attributes the policy adds are not removals")
}

func TestHTMLIdempotent(t *testing.T) {
	for _, in := range []string{`<p>a &amp; b <b>c</b></p>`, `<a href="https://e.test/?a=1&b=2">x</a>`, strings.Repeat("<div>", 50) + "x"} {
		once := sanitize.HTML(in)
		assert.Equal(t, once, sanitize.HTML(once))
	}
}

// TestHTMLURLs: a URL attribute keeps a value only when URL accepts it with the attribute's
// schemes; data: is kept only as an inline raster image in an img.
func TestHTMLURLs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"scheme case folded", `<a href="HTTPS://E.test/a">x</a>`, `<a href="https://E.test/a" rel="nofollow noreferrer noopener" target="_blank">x</a>`},
		{"credentials", `<a href="https://u:p@e.test/">x</a>`, ` x `},
		{"no host", `<a href="https:e.test">x</a>`, ` x `},
		{"empty mailto", `<a href="mailto:">x</a>`, ` x `},
		{"mailto with slashes, as URL allows", `<a href="mailto://e.test">x</a>`, `<a href="mailto://e.test" rel="nofollow noreferrer noopener" target="_blank">x</a>`},
		{"blob", `<a href="blob:https://e.test/1">x</a>`, ` x `},
		{"data link", `<a href="data:image/png;base64,iVBORw0KGgo=">x</a>`, ` x `},
		{"control before the scheme", "<a href=\"\x01https://e.test\">x</a>", ` x `},
		{"http image", `<img src="http://e.test/a.png">`, ` `},
		{"https image", `<img src="https://e.test/a.png">`, `<img src="https://e.test/a.png">`},
		{"inline gif", `<img src="data:image/gif;base64,R0lGODlh">`, `<img src="data:image/gif;base64,R0lGODlh">`},
		{"inline svg", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, ` `},
		{"inline image, not base64", `<img src="data:image/png,abc">`, ` `},
		{"inline image, broken base64", `<img src="data:image/png;base64,a">`, ` `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitize.HTML(tt.in))
		})
	}
}
