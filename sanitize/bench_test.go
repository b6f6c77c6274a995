package sanitize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// BenchmarkHTML500KB is our policy alone; BenchmarkUGCPolicy500KB is bluemonday's UGC policy on
// the same document, the yardstick the 12 MB/s target comes from.
func BenchmarkHTML500KB(b *testing.B) {
	doc := fixtures.Article(500 << 10)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		sanitize.HTML(doc, defaultRules)
	}
}

func BenchmarkUGCPolicy500KB(b *testing.B) {
	benchSanitizer(b, fixtures.Article(500<<10), bluemonday.UGCPolicy().Sanitize)
}

// benchSanitizer times sanitize on doc.
func benchSanitizer(b *testing.B, doc string, sanitize func(string) string) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		sanitize(doc)
	}
}

func BenchmarkHTMLText500KB(b *testing.B) {
	doc := sanitize.HTML(fixtures.Article(500<<10), defaultRules)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		sanitize.HTMLText(doc)
	}
}

func BenchmarkURL(b *testing.B) {
	rules := linkRules
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sanitize.URL("https://example.com/path/to/page?query=1&b=2#frag", rules); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckImage5MB is the image check alone on a ~5 MB PNG: sniffing and the header read.
func BenchmarkCheckImage5MB(b *testing.B) {
	img := fixtures.PNG(1, 1, false)
	data := append(append([]byte{}, img...), make([]byte, 5<<20-len(img)-16)...)
	lim := imageLimits
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sanitize.CheckImage(data, "image/png", lim); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHTMLAndText500KB is what Normalize does with an html block: sanitize, render the
// plain text and report removals.
func BenchmarkHTMLAndText500KB(b *testing.B) {
	doc := fixtures.Article(500 << 10)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		sanitize.HTMLAndText(doc, defaultRules)
	}
}

// BenchmarkCheckImagePNG5MB is the image check on a real ~5 MB PNG of noise: the header read and
// the structure walk, which reads every chunk's length and CRC.
func BenchmarkCheckImagePNG5MB(b *testing.B) {
	data := fixtures.PNG(1140, 1140, true)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sanitize.CheckImage(data, "image/png", imageLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckImageJPEG is the image check on a 1000×1000 JPEG: the segment walk and the scan
// for the markers in the entropy-coded data.
func BenchmarkCheckImageJPEG(b *testing.B) {
	data := fixtures.JPEG(1000, 1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sanitize.CheckImage(data, "image/jpeg", imageLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHTMLWithRules500KB is HTML under rules other than the default ones: after the
// first call their policy comes from the cache, so it costs what HTML does.
func BenchmarkHTMLWithRules500KB(b *testing.B) {
	doc := fixtures.Article(500 << 10)
	rules := sanitize.DefaultHTMLRules()
	rules.Links.Schemes = []string{"https"}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		sanitize.HTML(doc, rules)
	}
}

// linkTable is a link- and table-heavy document of at least n bytes, the shape of make bench's
// "linktable" (cmd/webmcp-bench/pages/pages.js): sections of a 12-row table whose rows hold
// absolute, relative, fragment, mailto and javascript links, styled cells and classes.
func linkTable(n int) string {
	var b strings.Builder
	for s := 1; b.Len() < n; s++ {
		fmt.Fprintf(&b, `<h2 id="s%d">Section %d</h2><p>See also <a href="https://en.example.org/wiki/Topic_%d">`+
			`Topic %d</a> and <a href="#s%d">the previous section</a>.</p><table class="wikitable sortable"><thead>`+
			`<tr><th>#</th><th>Name</th><th>Links</th><th>Value</th><th>Contact</th></tr></thead><tbody>`, s, s, s, s, s-1)
		for i := 1; i <= 12; i++ {
			k := s*100 + i
			contact := fmt.Sprintf("mailto:editor%d@example.org", k)
			if i%6 == 0 {
				contact = "javascript:alert(1)"
			}
			fmt.Fprintf(&b, `<tr><td>%d</td><td><a href="https://en.example.org/wiki/Item_%d" title="Item %d">Item %d</a>`+
				`</td><td><a href="https://cdn.example.net/src?id=%d&amp;ref=list#top">source</a> · `+
				`<a href="/wiki/Talk:Item_%d">talk</a></td><td style="text-align:right">%d</td><td><a href="%s">`+
				`contact</a></td></tr>`, i, k, k, k, k, k, (k*7919)%100000, contact)
		}
		fmt.Fprintf(&b, `</tbody></table><ul class="nav"><li><a href="https://en.example.org/wiki/A_%d">A</a></li>`+
			`<li><a href="https://en.example.org/wiki/B_%d">B</a></li><li><a href="https://en.example.org/wiki/C_%d">C</a>`+
			`</li></ul>`, s, s, s)
	}
	return b.String()
}

// BenchmarkHTMLAndTextLinkTable500KB, BenchmarkHTMLLinkTable500KB and
// BenchmarkUGCPolicyLinkTable500KB are the module's html work (markup, text and counts),
// bluemonday with the module's policy alone, and bluemonday's UGCPolicy alone on a link-heavy
// document: the per-href cost.
func BenchmarkHTMLAndTextLinkTable500KB(b *testing.B) {
	benchSanitizer(b, linkTable(500<<10), func(s string) string { return sanitize.HTMLAndText(s, defaultRules).HTML })
}

func BenchmarkHTMLLinkTable500KB(b *testing.B) {
	benchSanitizer(b, linkTable(500<<10), func(s string) string { return sanitize.HTML(s, defaultRules) })
}

func BenchmarkUGCPolicyLinkTable500KB(b *testing.B) {
	benchSanitizer(b, linkTable(500<<10), bluemonday.UGCPolicy().Sanitize)
}
