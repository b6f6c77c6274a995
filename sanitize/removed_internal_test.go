package sanitize

import (
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// tokenCounts counts markup's start tags and attributes through x/net/html's own accessors:
// what countMarkup must agree with.
func tokenCounts(markup string) *markupCounts {
	c := newMarkupCounts()
	z := nethtml.NewTokenizer(strings.NewReader(markup))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return c
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			name, more := z.TagName()
			c.tags.add(name)
			for more {
				var k []byte
				k, _, more = z.TagAttr()
				c.attr(k)
			}
		}
	}
}

func countsString(c *markupCounts) string {
	return removedBetween(c, newMarkupCounts()) + " | " +
		removedBetween(&markupCounts{tags: c.attrs, attrs: newCounter(countedAttrs())}, newMarkupCounts())
}

func sameCounts(a, b *markupCounts) bool {
	for _, pair := range [][2]*counter{{&a.tags, &b.tags}, {&a.attrs, &b.attrs}} {
		same, names := true, 0
		pair[0].each(func(k string, n int) {
			names++
			same = same && pair[1].get(k) == n
		})
		pair[1].each(func(string, int) { names-- })
		if !same || names != 0 {
			return false
		}
	}
	return true
}

// FuzzCountMarkup: reading names from a tag's raw bytes counts what the tokenizer's accessors
// give, for any input.
func FuzzCountMarkup(f *testing.F) {
	for _, s := range []string{`<p a=1 A=2 b='x>' c="y" d=/ e/f =g h= >`, "<P\x00 a\x00=1 a\ufffd=2 B=3 b>",
		`<a/b=c/d>x<br/><img src=x/>`,
		`<div =a==b c = d e="f"g=h>`, `<script>"<iframe x=1>"</script><b y z>`, `<!--<i>--><![CDATA[<u>]]><x-y:z q:r=1>`,
		"<a\thref\n=\f'x'\r>", `<a href="x`, `<a b`, fixtures.Article(1 << 10),
		`</a b='>'>x<b>`, `<p>a</p x=">" >b<i>`, "a<1b<c<", `<a>x</a`, `<a x='`, "<b>\x00</b><Title>x<b>", `<i></>`,
		"<style>a</styles><b></STYLE\t><i>", "<script>if (a</script) " +
			"{}</script/><u>", "<textarea></textarea", "<script>x<!--</script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := countMarkup(in), tokenCounts(in); !sameCounts(got, want) {
			t.Fatalf("countMarkup(%q) = %s, the tokenizer says %s", in, countsString(got), countsString(want))
		}
	})
}

// TestCountMarkupScansTags: markup of text and tags (the article, a link- and table-heavy list)
// is counted by the direct scan, not the tokenizer; a comment or a raw text element sends it to
// the tokenizer.
func TestCountMarkupScansTags(t *testing.T) {
	for _, in := range []string{fixtures.Article(8 << 10),
		`<table><tr><td><a href="https://e.test/?a=1&amp;b=2" title='x>y'>1</a></td></tr></table>`} {
		if _, ok := scanTags(in); !ok {
			t.Errorf("scanTags(%.60q…) handed the markup to the tokenizer", in)
		}
	}
	for _, in := range []string{"<p>a<!-- b --></p>", "<p><script><!--x</script>", "<!doctype html><p>", "<p>x<?php ?>",
		"<p title='x",
		"<plaintext><b>"} {
		if _, ok := scanTags(in); ok {
			t.Errorf("scanTags(%q) did not hand the markup to the tokenizer", in)
		}
	}
}

// TestSanitizeReadsOutputOnce: for the inputs the fuzzers start from, bluemonday writes one
// token per call, so HTMLAndText never reads its output again.
func TestSanitizeReadsOutputOnce(t *testing.T) {
	for _, in := range []string{fixtures.Article(4 << 10),
		`<a href="https://e.test/?a=1&amp;b=2" title='"x"'>x</a><br/><img src="https://e.test/i.png" alt="a&lt;b">`,
		"<pre>\r\n x\x00 &amp;</pre><p title=\"\r\">a</p ><table><tr><td colspan=2>1</td></tr></table>", `<p>a</p foo=bar>`} {
		w := &renderingWriter{r: &mdRenderer{}, counts: newMarkupCounts()}
		if err := htmlPolicy().SanitizeReaderToWriter(strings.NewReader(in), w); err != nil || w.unread {
			t.Errorf("HTMLAndText(%q) read its output again (error %v)", in, err)
		}
	}
}
