package sanitize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// TestHTMLKeepsSemanticElements: HTML5's sectioning and text-level elements, which carry no
// script, come through as written, and nothing of them counts as removed; their script does not.
func TestHTMLKeepsSemanticElements(t *testing.T) {
	for _, in := range []string{
		`<article><header><h2>Soup</h2></header><section><p>Boil</p></section><footer>Served hot</footer></article>`,
		`<main><nav><ul><li>Home</li></ul></nav><aside>Tip</aside></main>`,
		`<hgroup><h1>Recipes</h1><p>for winter</p></hgroup><address>Kitchen 1</address>`,
		`<p><mark>new</mark> <time datetime="2026-11-25">today</time> <data value="42">forty-two</data></p>`,
		`<p><abbr title="tablespoon">tbsp</abbr> <dfn>roux</dfn> <bdi>إيان</bdi> <bdo dir="rtl">abc</bdo> ` +
			`<small>fine</small></p>`,
		`<p><s>old</s> <u>note</u> <q>quote</q> <cite>Book</cite> <kbd>Ctrl</kbd> <samp>out</samp> <var>x</var></p>`,
		`<dl><dt>Salt</dt><dd>1 tsp</dd></dl>`,
	} {
		out := sanitize.HTML(in, defaultRules)
		assert.Equal(t, in, out)
		assert.Empty(t, sanitize.Removed(in, out), in)
	}
	in := `<article onclick="x()"><section><script>alert(1)</script><p>ok</p></section></article>`
	assert.Equal(t, `<article><section><p>ok</p></section></article>`, sanitize.HTML(in, defaultRules))
}
