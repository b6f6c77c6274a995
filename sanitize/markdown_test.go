package sanitize_test

import (
	"html"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// TestMarkdown: what each structure becomes in the model's Markdown.
func TestMarkdown(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"headings", `<h1>a</h1><h3>b <br>c</h3>`, "# a\n\n### b c"},
		{"ordered from start", `<ol start="7"><li>a<li>b</ol>`, "7. a\n8. b"},
		{"li value", `<ol><li>a<li value="5">b<li>c</ol>`, "1. a\n5. b\n6. c"},
		{"reversed with start", `<ol reversed start="3"><li>a<li>b</ol>`, "3. a\n2. b"},
		{"reversed without start", `<ol reversed><li>a<li>b<li>c</ol>`, "- a\n- b\n- c"},
		{"reversed without start, a value", `<ol reversed><li>a<li value="5">b<li>c</ol>`, "- a\n5. b\n4. c"},
		{"nested", `<ul><li>a<ol><li>b<ul><li>c</ul></ol><li>d</ul>`, "- a\n  1. b\n     - c\n- d"},
		{"list after text", `<p>x</p><ul><li>a</ul><p>y</p>`, "x\n\n- a\n\ny"},
		{"table with th", `<table><tr><th>h</th></tr><tr><td>1</td></tr></table>`, "| h |\n| --- |\n| 1 |"},
		{"table without header", `<table><tr><td>1</td><td>2</td></tr></table>`, "|  |  |\n| --- | --- |\n| 1 | 2 |"},
		{"rowspan keeps the cells below in their columns",
			`<table><tr><th>a<th>b<th>c<tr><td rowspan="2">x<td>y<td>w<tr><td>z<td>v<tr><td>1<td>2<td>3</table>`,
			"| a | b | c |\n| --- | --- | --- |\n| x | y | w |\n|  | z | v |\n| 1 | 2 | 3 |"},
		{"rowspan in the middle, a short row",
			`<table><tr><th>a<th>b<th>c<tr><td>1<td rowspan="3">m<td>2<tr><td>3<tr><td>4<td>5</table>`,
			"| a | b | c |\n| --- | --- | --- |\n| 1 | m | 2 |\n| 3 |  |  |\n| 4 |  | 5 |"},
		{"colspan pads", `<table><tr><th>a</th><th>b</th></tr><tr><td colspan="2">x</td></tr></table>`,
			"| a | b |\n| --- | --- |\n| x |  |"},
		{"ragged rows padded", `<table><tr><th>a</th></tr><tr><td>1</td><td>2</td></tr></table>`,
			"| a |  |\n| --- | --- |\n| 1 | 2 |"},
		{"table in a list", `<ul><li>x<table><tr><th>a</th></tr></table></ul>`, "- x\n\n  | a |\n  | --- |"},
		{"nested table flattened", `<table><tr><th>a</th></tr><tr><td><table><tr><td>p</td><td>q</td></tr></table></td></tr></table>`,
			"| a |\n| --- |\n| p q |"},
		{"link", `<a href="https://e.test/a_(b)">t</a>`, "[t](https://e.test/a_\\(b\\))"},
		{"link without text", `<a href="https://e.test/"><img alt=""></a>`, "[https://e.test/](https://e.test/)"},
		{"link over blocks", `<a href="https://e.test/"><p>a</p><p>b</p></a>`, "a\n\nb\n\n<https://e.test/>"},
		{"image with url", `<img src="https://e.test/i.png" alt="a [b]">`, "![a \\[b\\]](https://e.test/i.png)"},
		{"image without alt", `<img src="https://e.test/i.png">`, "![](https://e.test/i.png)"},
		{"code with backticks", "<code>a``b</code>", "```a``b```"},
		{"code starting with a backtick", "<code>`a</code>", "`` `a ``"},
		{"pre fence", "<pre>\na\n  ```\n</pre>", "````\na\n  ```\n````"},
		{"pre keeps blank lines", "<pre>a\n\n\nb</pre>", "```\na\n\n\nb\n```"},
		{"quote nested", `<blockquote>a<blockquote>b</blockquote></blockquote>`, "> a\n>\n> > b"},
		{"br", `<p>a<br>b<br><br>c</p>`, "a\\\nb\n\nc"},
		{"br ending a paragraph", `<p>a<br></p><p>b</p>`, "a\n\nb"},
		{"hr", `<p>a</p><hr><p>b</p>`, "a\n\n---\n\nb"},
		{"escapes at line start", `<p># a</p><p>12) b</p><p>--- </p>`, "\\# a\n\n12\\) b\n\n\\---"},
		{"escapes inline", `<p>a|b [c](d) ` + "`e`" + ` &lt;f&gt; &amp;g \h</p>`, "a\\|b \\[c\\](d) \\`e\\` \\<f> \\&g \\\\h"},
		{"link left open inside code in a cell", `<table><tr><td><a href="https://e.test/"><code>x</td></tr></table>`,
			"|  |\n| --- |\n| [https://e.test/](https://e.test/)`x` |"},
		{"text runs join across dropped tags", "000</C>0<<A>", "000 0<"},
		{"empty item keeps its marker", `<ul><li></li><li>b</li></ul>`, "-\n- b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sanitize.HTMLAndText(tt.in, defaultRules).Text)
		})
	}
}

// TestMarkdownTableOfTableResults: the table renderer that html tables use writes table
// TestMarkdownNestingBounded: markup nested thousands deep makes Markdown about as long as
// the text in it, not a prefix as deep as the nesting on every line (20,000 nested lists in
// 180 KB made 400 MB), and every item and quote keeps its text, the deep ones at a depth of
// their own.
func TestMarkdownNestingBounded(t *testing.T) {
	for name, doc := range map[string]string{
		"lists":        strings.Repeat("<ul><li>x", 20000),
		"ordered":      strings.Repeat("<ol><li>x", 20000),
		"quotes":       strings.Repeat("<blockquote>x", 20000),
		"quoted lists": strings.Repeat("<blockquote><ul><li><p>x", 10000),
	} {
		text := sanitize.HTMLAndText(doc, sanitize.DefaultHTMLRules()).Text
		assert.Less(t, len(text), 64*len(doc), name)
		assert.Equal(t, strings.Count(doc, ">x"), strings.Count(text, "x"), name)
	}
	deep := sanitize.HTMLAndText(strings.Repeat("<ul><li>", 40)+"deep", sanitize.DefaultHTMLRules()).Text
	assert.True(t, strings.HasSuffix(deep, "- deep"), "an item deeper than the prefix shows keeps its marker: %q", deep)
}

// TestMarkdownTableSpansBounded: a few KB of colspans and rowspans over many rows make a few
// hundred KB of Markdown at most, not the gigabytes that padding every row to every spanned
// column would (which in WebAssembly would end the module for the whole page), and every cell
// the page wrote is still there.
func TestMarkdownTableSpansBounded(t *testing.T) {
	for name, doc := range map[string]string{
		"colspans":  "<table><tr>" + strings.Repeat(`<td colspan="1000">a`, 20) + strings.Repeat("<tr><td>x", 1000) + "</table>",
		"rowspans":  "<table><tr>" + strings.Repeat(`<td colspan="1000" rowspan="1000">a`, 20) + strings.Repeat("<tr><td>x", 1000) + "</table>",
		"two rows":  "<table><tr>" + strings.Repeat(`<td colspan="1000">a`, 200) + "<tr><td>x</table>",
		"many rows": "<table>" + strings.Repeat(`<tr><td colspan="1000" rowspan="1000">a`, 2000) + "</table>",
	} {
		text := sanitize.HTMLAndText(doc, sanitize.DefaultHTMLRules()).Text
		assert.Less(t, len(text), 2<<20, name)
		assert.Equal(t, strings.Count(doc, ">a"), strings.Count(text, " a |"), name)
		assert.Equal(t, strings.Count(doc, ">x"), strings.Count(text, " x |"), name)
	}
}

// results' cells, escaped by EscapeMarkdown: a cell cannot end its row or start a new one.
func TestMarkdownTableOfTableResults(t *testing.T) {
	cells := []string{"a|b", "x\ny", "[l](https://evil.test/)", "`c`", "# h", "=1+1"}
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = sanitize.EscapeMarkdown(c)
	}
	got := sanitize.MarkdownTable([]string{"h"}, [][]string{esc})
	assert.Equal(t, "| h |  |  |  |  |  |\n| --- | --- | --- | --- | --- | --- |\n"+
		"| a\\|b | x y | \\[l\\](https://evil.test/) | \\`c\\` | # h | =1+1 |", got)
}

// FuzzMarkdownText: page text, whatever it holds, reads in the Markdown as that text and
// nothing more — with the escapes taken out it is the text as a browser folds its spaces, and
// no line starts with what opens a block, no bracket, backtick or pipe stands unescaped.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"# a", "1. b", "a | b", "[x](y)", "``` z", "- - -", "> q", "a\\", "<b>", "&amp;", "=\n==", "9999999999. x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || strings.ContainsAny(text, "\x00\r\u00a0") {
			return
		}
		md := sanitize.HTMLAndText("<p>"+html.EscapeString(text)+"</p>", defaultRules).Text
		want := strings.Join(strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n\f", r) }), " ")
		var plain strings.Builder
		for i := 0; i < len(md); i++ {
			c := md[i]
			if c == '\\' && i+1 < len(md) && strings.IndexByte("\\`[]|<&#>-+*=~_.)", md[i+1]) >= 0 {
				i++
				plain.WriteByte(md[i])
				continue
			}
			if strings.IndexByte("[]`|", c) >= 0 {
				t.Fatalf("%q stands unescaped in %q (text %q)", c, md, text)
			}
			plain.WriteByte(c)
		}
		if plain.String() != want {
			t.Fatalf("text %q reads as %q in %q", text, plain.String(), md)
		}
		if md != "" && strings.IndexByte("#>-+*=~_", md[0]) >= 0 {
			t.Fatalf("%q starts with a block marker", md)
		}
	})
}

// FuzzMarkdownSize: whatever markup goes in, its Markdown stays within a fixed multiple of its
// length (plus what the bounds on a table's spans allow): no nesting, span or repetition of
// markup makes the text grow faster than the markup does.
func FuzzMarkdownSize(f *testing.F) {
	for _, s := range []string{"<ul><li>x", "<blockquote>q", "<td colspan=1000 rowspan=1000>a<tr>", "<ol start=9><li>a",
		"<pre>`", "<a href=https://e.test/x>y</a>", "<h1>#"} {
		f.Add(s, 200)
	}
	f.Fuzz(func(t *testing.T, unit string, times int) {
		if len(unit) > 64 || times < 1 || times > 5000 {
			return
		}
		doc := strings.Repeat(unit, times)
		if md := sanitize.HTMLAndText(doc, defaultRules).Text; len(md) > 64*len(doc)+1<<20 {
			t.Fatalf("%d bytes of markup (%q × %d) made %d bytes of Markdown", len(doc), unit, times, len(md))
		}
	})
}
