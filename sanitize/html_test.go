package sanitize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// defaultRules are the rules a page's html blocks follow by default.
var defaultRules = sanitize.DefaultHTMLRules()

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
		{"base meta link",
			`<base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://evil.test">` +
				`<link rel=stylesheet href="https://x.test/a.css">`,
			`   `},
		{"svg and math", `<svg><script>alert(1)</script></svg><math><mi>x</mi></math>`, `    x  `},
		{"id and name (DOM clobbering)", `<p id="x" class="c">a</p>`, `<p>a</p>`},
		{"noscript mutation", `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`, `   &#34;&gt;`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitize.HTML(tt.in, defaultRules), "removed tags leave a space so words do not join")
		})
	}
}

func TestHTMLKeepsStructure(t *testing.T) {
	in := `<h2>T</h2><p><b>b</b> <em>e</em> <code>c</code></p><ul><li>one</li></ul><ol start="3"><li>x</li></ol>` +
		`<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>` +
		`<pre>  x</pre><blockquote>q</blockquote>` +
		`<img src="https://x.test/a.png" alt="A" width="10">`
	assert.Equal(t, in, sanitize.HTML(in, defaultRules))

	assert.Equal(t, `<a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">x</a>`,
		sanitize.HTML(`<a href="https://example.com" rel="opener" target="_self" onclick="x()">x</a>`, defaultRules))
	assert.Equal(t, `<a href="mailto:a@example.com" rel="nofollow noreferrer">m</a>`,
		sanitize.HTML(`<a href="mailto:a@example.com">m</a>`, defaultRules))
	dataImg := `<img src="` + dataURL("image/png", fixtures.PNG(2, 2, false)) + `">`
	assert.Equal(t, dataImg, sanitize.HTML(dataImg, defaultRules))
}

func TestHTMLText(t *testing.T) {
	clean := sanitize.HTML(`<h1>Report</h1>`+
		`<p>See <a href="https://e.test/r">the report</a> and <a href="https://e.test/x">https://e.test/x</a>.</p>`+
		`<ul><li>one</li><li>two</li></ul><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`+
		`<img src="https://e.test/i.png" alt="chart">`, defaultRules)
	assert.Equal(t,
		"# Report\n\nSee [the report](https://e.test/r) and [https://e.test/x](https://e.test/x).\n\n- one\n- two\n\n"+
			"| a | b |\n| --- | --- |\n| 1 | 2 |\n\n![chart](https://e.test/i.png)",
		sanitize.HTMLText(clean))
}

func TestRemoved(t *testing.T) {
	in := `<p onclick="x">a<script>1</script><iframe></iframe></p>`
	assert.Equal(t, "<iframe>, <script>, onclick= (3 in all)", sanitize.Removed(in, sanitize.HTML(in, defaultRules)))
	ok := `<a href="https://e.test">x</a>`
	assert.Equal(t, "", sanitize.Removed(ok, sanitize.HTML(ok, defaultRules)),
		"attributes the policy adds are not removals")
}

func TestHTMLIdempotent(t *testing.T) {
	for _, in := range []string{`<p>a &amp; b <b>c</b></p>`, `<a href="https://e.test/?a=1&b=2">x</a>`,
		strings.Repeat("<div>", 50) + "x"} {
		once := sanitize.HTML(in, defaultRules)
		assert.Equal(t, once, sanitize.HTML(once, defaultRules))
	}
}

// TestHTMLURLs: a URL attribute keeps a value only when URL accepts it with the attribute's
// schemes; data: is kept only as an inline raster image in an img.
func TestHTMLURLs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"scheme and host case folded", `<a href="HTTPS://E.test/a">x</a>`,
			`<a href="https://e.test/a" rel="nofollow noreferrer noopener" target="_blank">x</a>`},
		{"credentials", `<a href="https://u:p@e.test/">x</a>`, ` x `},
		{"no host", `<a href="https:e.test">x</a>`, ` x `},
		{"empty mailto", `<a href="mailto:">x</a>`, ` x `},
		{"mailto with slashes, as URL allows", `<a href="mailto://e.test">x</a>`,
			`<a href="mailto://e.test" rel="nofollow noreferrer noopener" target="_blank">x</a>`},
		{"blob", `<a href="blob:https://e.test/1">x</a>`, ` x `},
		{"data link", `<a href="data:image/png;base64,iVBORw0KGgo=">x</a>`, ` x `},
		{"control before the scheme", "<a href=\"\x01https://e.test\">x</a>", ` x `},
		{"http image", `<img src="http://e.test/a.png">`, ` `},
		{"https image", `<img src="https://e.test/a.png">`, `<img src="https://e.test/a.png">`},
		{"inline gif", `<img src="` + dataURL("image/gif", fixtures.GIF(1, 1)) + `">`,
			`<img src="` + dataURL("image/gif", fixtures.GIF(1, 1)) + `">`},
		{"inline gif, declared in capitals", `<img src="` + dataURL("IMAGE/GIF", fixtures.GIF(1, 1)) + `">`,
			`<img src="` + dataURL("IMAGE/GIF", fixtures.GIF(1, 1)) + `">`},
		{"inline gif, only its signature", `<img src="data:image/gif;base64,R0lGODlh">`, ` `},
		{"inline svg", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, ` `},
		{"inline image, not base64", `<img src="data:image/png,abc">`, ` `},
		{"inline image, broken base64", `<img src="data:image/png;base64,a">`, ` `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitize.HTML(tt.in, defaultRules))
		})
	}
}

// TestHTMLURLHosts: the href of a link and the src of an image inside html get the one written
// form of a link block's URL (sanitize.URL): the host as the browser reads it.
func TestHTMLURLHosts(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"ideographic full stop", "https://a.test\u3002evil.test/", "https://a.test.evil.test/"},
		{"IPv4 in hex and short form", "https://0x7f.1/", "https://127.0.0.1/"},
		{"IPv4 as one number, with port, path, query and fragment", "https://2130706433:8443/p%20q?a=1&b=2#f",
			"https://127.0.0.1:8443/p%20q?a=1&b=2#f"},
		{"Cyrillic a", "https://\u0430pple.com/", "https://xn--pple-43d.com/"},
		{"full-width letters and capitals", "https://\uff25\uff38.Test/a.png", "https://ex.test/a.png"},
		{"already the browser's form", "https://e.test/a", "https://e.test/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			block, err := sanitize.URL(tt.url, sanitize.URLRules{Schemes: []string{"https"}})
			require.NoError(t, err)
			require.Equal(t, tt.want, block, "the link block's form")
			want := strings.ReplaceAll(tt.want, "&", "&amp;")
			assert.Equal(t, `<a href="`+want+`" rel="nofollow noreferrer noopener" target="_blank">x</a>`,
				sanitize.HTML(`<a href="`+tt.url+`">x</a>`, defaultRules))
			assert.Equal(t, `<img src="`+want+`">`, sanitize.HTML(`<img src="`+tt.url+`">`, defaultRules))
			s := sanitize.HTMLAndText(`<a href="`+tt.url+`">x</a>`, defaultRules)
			assert.Equal(t, "[x]("+tt.want+")", s.Text, "the Markdown links the same URL")
			assert.Empty(t, s.Removed)
		})
	}
	assert.Equal(t, ` x `, sanitize.HTML(`<a href="https://256.0.0.1/">x</a>`, defaultRules),
		"a host the browser refuses is removed")
}

// TestHTMLWithRules: the URLs in markup follow the same rules as the blocks — the schemes and
// length of links and image URLs, and for inline images every check of CheckImage — and a URL
// the rules refuse is removed and reported like any other attribute.
func TestHTMLWithRules(t *testing.T) {
	png, gif, jpg := fixtures.PNG(3, 2, false), fixtures.GIF(2, 2), fixtures.JPEG(2, 2)
	img := func(src string) string { return `<img src="` + src + `" alt="a">` }
	link := func(href string) string {
		return `<a href="` + href + `" rel="nofollow noreferrer noopener" target="_blank">x</a>`
	}
	rules := func(edit func(r *sanitize.HTMLRules)) sanitize.HTMLRules {
		r := sanitize.DefaultHTMLRules()
		edit(&r)
		return r
	}
	httpsLinks := rules(func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{"https"} })
	short := rules(func(r *sanitize.HTMLRules) { r.Links.MaxLength, r.Images.MaxLength = 100, 100 })
	long := "https://e.test/" + strings.Repeat("a", 185) // 200 bytes
	tests := []struct {
		name, in string
		rules    sanitize.HTMLRules
		want     string
		removed  string
	}{
		{"https link, https only", `<a href="https://e.test/">x</a>`, httpsLinks, link("https://e.test/"), ""},
		{"http link, https only", `<a href="http://e.test/">x</a>`, httpsLinks, ` x `, "<a>, href= (2 in all)"},
		{"never-allowed scheme listed", `<a href="javascript:alert(1)">x</a>`,
			rules(func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{"javascript", "https"} }),
			` x `, "<a>, href= (2 in all)"},
		{"scheme listed in capitals", `<a href="ftp://e.test/">x</a>`,
			rules(func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{" FTP"} }), link("ftp://e.test/"), ""},
		{"href within MaxLength", `<a href="https://e.test/a">x</a>`, short, link("https://e.test/a"), ""},
		{"href over MaxLength", `<a href="` + long + `">x</a>`, short, ` x `, "<a>, href= (2 in all)"},
		{"image URL over MaxLength", `<img src="` + long + `" alt="a">`, short, `<img alt="a">`, "src="},
		{"image URL, no image schemes", img("https://e.test/a.png"),
			rules(func(r *sanitize.HTMLRules) { r.Images.Schemes = nil }), `<img alt="a">`, "src="},
		{"inline PNG", img(dataURL("image/png", png)), sanitize.DefaultHTMLRules(), img(dataURL("image/png", png)), ""},
		{"inline JPEG", img(dataURL("image/jpeg", jpg)), sanitize.DefaultHTMLRules(), img(dataURL("image/jpeg", jpg)), ""},
		{"inline WebP", img(dataURL("image/webp", fixtures.WebP1x1)), sanitize.DefaultHTMLRules(),
			img(dataURL("image/webp", fixtures.WebP1x1)), ""},
		{"inline PNG whose bytes are SVG", img("data:image/png;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"),
			sanitize.DefaultHTMLRules(), `<img alt="a">`, "src="},
		{"inline PNG header claiming 100000×100000", img(dataURL("image/png", fixtures.PNGBomb(100000, 100000))),
			sanitize.DefaultHTMLRules(), `<img alt="a">`, "src="},
		{"inline PNG, truncated", img(dataURL("image/png", png[:len(png)-12])), sanitize.DefaultHTMLRules(), `<img alt="a">`,
			"src="},
		{"inline image, mislabelled", img(dataURL("image/png", gif)), sanitize.DefaultHTMLRules(), `<img alt="a">`, "src="},
		{"inline GIF, type not allowed", img(dataURL("image/gif", gif)),
			rules(func(r *sanitize.HTMLRules) { r.InlineImages.Types = []string{"image/png"} }), `<img alt="a">`, "src="},
		{"inline PNG over MaxBytes", img(dataURL("image/png", png)),
			rules(func(r *sanitize.HTMLRules) { r.InlineImages.MaxBytes = int64(len(png)) - 1 }), `<img alt="a">`, "src="},
		{"inline PNG over MaxWidth", img(dataURL("image/png", png)),
			rules(func(r *sanitize.HTMLRules) { r.InlineImages.MaxWidth = 2 }), `<img alt="a">`, "src="},
		{"inline images refused", img(dataURL("image/png", png)),
			rules(func(r *sanitize.HTMLRules) { r.InlineImages.Types = nil }), `<img alt="a">`, "src="},
		{"no alt, so the img goes too", `<img src="` + dataURL("image/png", png[:len(png)-12]) + `">`,
			sanitize.DefaultHTMLRules(), ` `, "<img>, src= (2 in all)"},
		{"nothing allowed", `<a href="https://e.test/">x</a>` + img("https://e.test/a.png"), sanitize.HTMLRules{},
			` x <img alt="a">`, "<a>, href=, src= (3 in all)"},
		// bluemonday checks a URL by its scheme, not by the attribute that holds it: a scheme two
		// attributes admit with different limits is held to the smaller one in both.
		{"one scheme, two limits", img("https://e.test/" + strings.Repeat("b", 50)),
			rules(func(r *sanitize.HTMLRules) { r.Links.MaxLength, r.Images.MaxLength = 30, 0 }), `<img alt="a">`, "src="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sanitize.HTMLAndText(tt.in, tt.rules)
			assert.Equal(t, tt.want, got.HTML)
			assert.Equal(t, tt.removed, got.Removed)
			assert.Equal(t, got.HTML, sanitize.HTML(tt.in, tt.rules))
			assert.Equal(t, got.HTML, sanitize.HTML(got.HTML, tt.rules), "idempotent")
		})
	}
}

// TestHTMLRulesDefault: the default rules share one policy; rules that
// differ only in form (order, case, duplicates, schemes markup may not hold) share one too.
func TestHTMLRulesDefault(t *testing.T) {
	doc := fixtures.Article(4<<10) + `<img src="` + dataURL("image/png", fixtures.PNG(2, 2, false)) + `">`
	builds := sanitize.ResetHTMLPolicy()
	assert.Equal(t, sanitize.HTMLAndText(doc, defaultRules).HTML, sanitize.HTML(doc, defaultRules))
	assert.Len(t, builds(), 1, "one policy for both")
	assert.Zero(t, sanitize.CachedHTMLPolicies())

	same := sanitize.DefaultHTMLRules()
	same.Links.Schemes = []string{"MAILTO", "http", "https", "https", "javascript"}
	same.InlineImages.Types = []string{"image/webp", "image/jpg", "image/gif", "image/png", "image/svg+xml"}
	assert.Equal(t, sanitize.HTMLPolicyKey(sanitize.DefaultHTMLRules()), sanitize.HTMLPolicyKey(same))
	assert.Equal(t, sanitize.HTML(doc, defaultRules), sanitize.HTML(doc, same))
	assert.Len(t, builds(), 1)
}

// TestHTMLPolicyKeyTellsRulesApart: rules that differ in any one setting are cached under
// different keys (so never share a policy), lists split differently included.
func TestHTMLPolicyKeyTellsRulesApart(t *testing.T) {
	variants := map[string]func(r *sanitize.HTMLRules){
		"default":             func(*sanitize.HTMLRules) {},
		"link schemes":        func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{"https"} },
		"link schemes split":  func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{"a", "b"} },
		"link schemes joined": func(r *sanitize.HTMLRules) { r.Links.Schemes = []string{"ab"} },
		"link length":         func(r *sanitize.HTMLRules) { r.Links.MaxLength = 99 },
		"image schemes":       func(r *sanitize.HTMLRules) { r.Images.Schemes = []string{"http"} },
		"image length":        func(r *sanitize.HTMLRules) { r.Images.MaxLength = 99 },
		"inline types":        func(r *sanitize.HTMLRules) { r.InlineImages.Types = []string{"image/gif"} },
		"inline bytes":        func(r *sanitize.HTMLRules) { r.InlineImages.MaxBytes = 99 },
		"inline width":        func(r *sanitize.HTMLRules) { r.InlineImages.MaxWidth = 99 },
		"inline height":       func(r *sanitize.HTMLRules) { r.InlineImages.MaxHeight = 99 },
		"inline pixels":       func(r *sanitize.HTMLRules) { r.InlineImages.MaxPixels = 99 },
	}
	seen := map[string]string{}
	for name, change := range variants {
		r := sanitize.DefaultHTMLRules()
		change(&r)
		key := sanitize.HTMLPolicyKey(r)
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s share the key %q", name, other, key)
		}
		seen[key] = name
	}
}

// TestHTMLPolicyCache: policies for other rules are built once each and the cache stays within
// its bound, however many rules pass through it.
func TestHTMLPolicyCache(t *testing.T) {
	builds := sanitize.ResetHTMLPolicy()
	markup := `<a href="https://e.test/` + strings.Repeat("a", 40) + `">x</a>`
	n := sanitize.MaxCachedHTMLPolicies + 5
	for round := range 2 {
		for i := range n {
			r := sanitize.DefaultHTMLRules()
			r.Links.MaxLength = 50 + i // all but the first few refuse nothing here
			want := `<a href="https://e.test/` + strings.Repeat("a", 40) +
				`" rel="nofollow noreferrer noopener" target="_blank">x</a>`
			if len("https://e.test/")+40 > r.Links.MaxLength {
				want = ` x `
			}
			assert.Equal(t, want, sanitize.HTML(markup, r), "round %d, rules %d", round, i)
			assert.LessOrEqual(t, sanitize.CachedHTMLPolicies(), sanitize.MaxCachedHTMLPolicies)
		}
	}
	total := 0
	for _, b := range builds() {
		total += b
	}
	assert.Len(t, builds(), n)
	assert.Equal(t, 2*n, total, "rules used in a cycle longer than the cache are built again")

	builds = sanitize.ResetHTMLPolicy()
	r := sanitize.DefaultHTMLRules()
	r.Links.MaxLength = 10
	for range 100 {
		sanitize.HTML(markup, r)
	}
	assert.Equal(t, map[string]int{sanitize.HTMLPolicyKey(r): 1}, builds())
}
