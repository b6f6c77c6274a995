package sanitize_test

import (
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

// BenchmarkHTMLAndTextLinkTable500KB, BenchmarkHTMLLinkTable500KB and
// BenchmarkUGCPolicyLinkTable500KB are the module's html work (markup, text and counts),
// bluemonday with the module's policy alone, and bluemonday's UGCPolicy alone on a link-heavy
// document: the per-href cost.
func BenchmarkHTMLAndTextLinkTable500KB(b *testing.B) {
	benchSanitizer(b, fixtures.LinkTable(500<<10), func(s string) string { return sanitize.HTMLAndText(s, defaultRules).HTML })
}

func BenchmarkHTMLLinkTable500KB(b *testing.B) {
	benchSanitizer(b, fixtures.LinkTable(500<<10), func(s string) string { return sanitize.HTML(s, defaultRules) })
}

func BenchmarkUGCPolicyLinkTable500KB(b *testing.B) {
	benchSanitizer(b, fixtures.LinkTable(500<<10), bluemonday.UGCPolicy().Sanitize)
}
