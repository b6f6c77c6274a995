package sanitize

import (
	"strings"

	"github.com/microcosm-cc/bluemonday"
	nethtml "golang.org/x/net/html"
)

// SanitizedHTML is markup after HTML, its plain-text rendering for a model (HTMLText), and a
// note of what the sanitizer removed (Removed, "" when nothing was).
type SanitizedHTML struct {
	HTML, Text, Removed string
}

// SanitizeHTML is SanitizeHTMLWith(markup, DefaultHTMLRules()).
func SanitizeHTML(markup string) SanitizedHTML {
	return sanitizeHTML(htmlPolicy(), markup)
}

// SanitizeHTMLWith runs HTMLWith, HTMLText and Removed with one tokenizer pass over the input
// and one over the output, besides bluemonday's own. A URL attribute the rules refuse is
// removed like any other attribute, and Removed names it ("src=").
func SanitizeHTMLWith(markup string, r HTMLRules) SanitizedHTML {
	return sanitizeHTML(policyFor(r), markup)
}

func sanitizeHTML(p *bluemonday.Policy, markup string) SanitizedHTML {
	clean := p.Sanitize(markup)
	out := newMarkupCounts()
	text := htmlText(clean, out)
	return SanitizedHTML{HTML: clean, Text: text, Removed: removedBetween(countMarkup(markup), out)}
}

// HTML is HTMLWith(s, DefaultHTMLRules()): links may only point to https, http or mailto, images
// may only load over https or be inline PNG, JPEG, GIF or WebP, and no URL is over 2048 bytes.
func HTML(s string) string {
	return htmlPolicy().Sanitize(s)
}

// HTMLWith returns markup that keeps the safe structure of s — headings, paragraphs, emphasis,
// lists, tables, code, links and images — and removes everything that can run script, load
// frames or plugins, submit forms, restyle the page or clobber the DOM. A link (a href) keeps its
// target only when URL accepts it with r.Links and gets target="_blank" with
// rel="nofollow noreferrer noopener"; an image (img src) keeps its URL only when URL accepts it
// with r.Images, or, for a base64 data: URL, when CheckImage accepts its bytes with
// r.InlineImages as the type the URL declares. Schemes that URL never allows
// (NeverAllowedScheme) are refused whatever r says. The policy for r is built on first use and
// cached (a few rules at a time), so reusing rules costs nothing more.
// HTMLWith is idempotent: HTMLWith(HTMLWith(s, r), r) == HTMLWith(s, r).
func HTMLWith(s string, r HTMLRules) string {
	return policyFor(r).Sanitize(s)
}

// blockElements start a new line in the plain-text rendering.
var blockElements = map[string]bool{
	"p": true, "div": true, "br": true, "hr": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "ul": true, "ol": true, "li": true, "dl": true, "dt": true, "dd": true,
	"table": true, "tr": true, "caption": true, "blockquote": true, "pre": true, "figure": true,
	"figcaption": true, "details": true, "summary": true, "thead": true, "tbody": true, "tfoot": true,
}

// HTMLText renders already sanitized markup as plain text for a model: block elements on their
// own lines, list items as "- ", table cells separated by " | ", links as "text (url)" and images
// as "[image: alt]". Runs of blank lines and spaces are collapsed.
func HTMLText(sanitized string) string {
	return htmlText(sanitized, nil)
}

// htmlText is HTMLText that also counts tags and attributes into counts when it is not nil (see
// markupCounts), so that one pass over the sanitized markup serves both.
func htmlText(sanitized string, counts *markupCounts) string {
	r := textRenderer{counts: counts}
	r.b.Grow(len(sanitized) / 2)
	z := nethtml.NewTokenizer(strings.NewReader(sanitized))
	for {
		switch tt := z.Next(); tt {
		case nethtml.ErrorToken:
			return tidyText(r.b.String())
		case nethtml.TextToken:
			r.text(z.Text())
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			r.tag(z, tt == nethtml.EndTagToken)
		}
	}
}

// textRenderer is the state of one htmlText pass.
type textRenderer struct {
	b        strings.Builder
	counts   *markupCounts
	hrefs    []string // stack of open links' targets
	linkText []int    // b.Len() at each open link, to tell whether the text already says the URL
	pre      int      // depth of open pre elements
	cellOpen bool     // a table cell was started in the current row
}

// atLineStart reports whether the output is empty or ends with a line break or a space.
func (r *textRenderer) atLineStart() bool {
	n := r.b.Len()
	return n == 0 || r.b.String()[n-1] == '\n' || r.b.String()[n-1] == ' '
}

// text writes a text token: verbatim inside pre, else with each run of white space folded into
// one space, as a browser renders it, and dropped where a line or a space already ends the output.
func (r *textRenderer) text(t []byte) {
	if r.pre > 0 {
		r.b.Write(t)
		return
	}
	space := r.atLineStart()
	for _, c := range t {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			if !space {
				r.b.WriteByte(' ')
				space = true
			}
			continue
		}
		r.b.WriteByte(c)
		space = false
	}
}

// tag reads a start, self-closing or end tag, counts it, and renders it.
func (r *textRenderer) tag(z *nethtml.Tokenizer, end bool) {
	name, hasAttr := z.TagName()
	if r.counts != nil && !end {
		r.counts.tags[string(name)]++
	}
	var href, alt string // the only attributes the rendering uses
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		switch {
		case string(name) == "a" && string(k) == "href":
			href = string(v)
		case string(name) == "img" && string(k) == "alt":
			alt = string(v)
		}
		if r.counts != nil {
			r.counts.attr(k)
		}
	}
	r.element(string(name), end, href, alt)
}

// element writes what a tag stands for in the plain text: line breaks, list markers, cell
// separators, a link's target after its text, an image's alt.
func (r *textRenderer) element(tag string, end bool, href, alt string) {
	switch {
	case tag == "a" && !end:
		r.hrefs = append(r.hrefs, href)
		r.linkText = append(r.linkText, r.b.Len())
	case tag == "a" && end && len(r.hrefs) > 0:
		n := len(r.hrefs) - 1
		href, start := r.hrefs[n], r.linkText[n]
		r.hrefs, r.linkText = r.hrefs[:n], r.linkText[:n]
		if href != "" && !strings.Contains(r.b.String()[start:], href) {
			r.b.WriteString(" (" + href + ")")
		}
	case tag == "img":
		if alt := strings.TrimSpace(alt); alt != "" {
			r.b.WriteString("[image: " + collapseSpace(alt) + "]")
		} else {
			r.b.WriteString("[image]")
		}
	case tag == "pre":
		if end {
			r.pre--
		} else {
			r.pre++
		}
		r.b.WriteString("\n")
	case tag == "li" && !end:
		r.b.WriteString("\n- ")
	case tag == "tr":
		if !end {
			r.b.WriteString("\n")
		}
		r.cellOpen = false
	case tag == "td" || tag == "th":
		if !end {
			if r.cellOpen {
				r.b.WriteString(" | ")
			}
			r.cellOpen = true
		}
	case end && (tag == "li" || tag == "dt" || tag == "dd"):
		// the next item starts its own line
	case blockElements[tag]:
		r.b.WriteString("\n")
	}
}

// collapseSpace folds each run of HTML white space into one space, as a browser renders it.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if isHTMLSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// tidyText trims each line and keeps at most one blank line in a row.
func tidyText(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	blank := true
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
