package sanitize

import (
	"strings"

	"github.com/microcosm-cc/bluemonday"
	nethtml "golang.org/x/net/html"
)

// HTMLResult is markup after HTML, its plain-text rendering for a model (HTMLText), and a note
// of what the sanitizer removed (Removed, "" when nothing was).
type HTMLResult struct {
	HTML, Text, Removed string
}

// HTMLAndText is HTML, HTMLText and Removed in one pass of bluemonday over the input — the text
// and the output's counts are taken from its output as it is written — and one count of the
// input's tags. A URL attribute the rules refuse is removed like any other attribute, and
// Removed names it ("src="). This is what a tool result's html block needs: markup for the
// person, text for the model, and what was taken out.
func HTMLAndText(markup string, r HTMLRules) HTMLResult {
	return sanitizeHTML(policyFor(r), markup)
}

func sanitizeHTML(p *bluemonday.Policy, markup string) HTMLResult {
	if strings.TrimSpace(markup) == "" {
		return HTMLResult{HTML: markup, Text: HTMLText(markup)} // what Sanitize hands back as it is
	}
	w := &renderingWriter{r: textRenderer{counts: newMarkupCounts()}}
	w.html.Grow(len(markup))
	w.r.b.Grow(len(markup) / 2)
	if err := p.SanitizeReaderToWriter(strings.NewReader(markup), w); err != nil {
		// Sanitize's answer to input the tokenizer cannot read: nothing.
		return HTMLResult{Removed: removedBetween(countMarkup(markup), newMarkupCounts())}
	}
	clean := w.markedHTML()
	if w.unread {
		// Not the token-per-write bluemonday promises: read the output again instead.
		out := newMarkupCounts()
		return HTMLResult{HTML: clean, Text: htmlText(clean, out), Removed: removedBetween(countMarkup(markup), out)}
	}
	return HTMLResult{
		HTML:    clean,
		Text:    tidyText(w.r.b.String()),
		Removed: removedBetween(countMarkup(markup), w.r.counts),
	}
}

// renderingWriter is where bluemonday writes sanitized markup. bluemonday writes one token per
// call — a tag as Token.String gives it, escaped text, or the space that stands for a stripped
// tag — so the writer renders the plain text and counts the output's tags and attributes as
// they come, and gives links their marks (linkmarks.go), and nothing reads the output again.
// With linksOnly it reads only the start tags of links, for their marks. A write it cannot read
// as one token sets unread, and from there the caller reads the output instead.
type renderingWriter struct {
	html      strings.Builder
	r         textRenderer
	unread    bool
	unreadAt  int // html.Len() where unread was set
	linksOnly bool
}

func (w *renderingWriter) Write(b []byte) (int, error) { return w.WriteString(string(b)) }

func (w *renderingWriter) WriteString(s string) (int, error) {
	switch {
	case w.unread || s == "" || w.linksOnly && !strings.HasPrefix(s, "<a"):
		w.html.WriteString(s)
	case s[0] != '<':
		w.html.WriteString(s)
		writeText(&w.r, nethtml.UnescapeString(s))
	default:
		r := &w.r
		if w.linksOnly {
			r = &textRenderer{} // the tag's rendering is not wanted, only its mark
		}
		if !r.writtenTag(s) {
			w.unread, w.unreadAt = true, w.html.Len()
			w.html.WriteString(s)
			break
		}
		writeMarked(&w.html, s, r.mark)
	}
	return len(s), nil
}

// markedHTML is the markup written, its links marked: what the writer could not read is read
// again for them (markLinks).
func (w *renderingWriter) markedHTML() string {
	html := w.html.String()
	if w.unread {
		return html[:w.unreadAt] + markLinks(html[w.unreadAt:])
	}
	return html
}

// HTML returns markup that keeps the safe structure of s — headings, paragraphs, emphasis,
// lists, tables, code, links and images — and removes everything that can run script, load
// frames or plugins, submit forms, restyle the page or clobber the DOM. A link (a href) keeps its
// target only when URL accepts it with r.Links and gets target="_blank" with
// rel="nofollow noreferrer noopener"; an image (img src) keeps its URL only when URL accepts it
// with r.Images, or, for a base64 data: URL, when CheckImage accepts its bytes with
// r.InlineImages as the type the URL declares. Schemes that URL never allows
// (NeverAllowedScheme) are refused whatever r says. DefaultHTMLRules are the rules of a page's
// blocks by default. The policy for r is built on first use and cached (a few rules at a time),
// so reusing rules costs nothing more. HTML is idempotent: HTML(HTML(s, r), r) == HTML(s, r).
func HTML(s string, r HTMLRules) string {
	return sanitizeMarked(policyFor(r), s)
}

// blockElement reports whether tag starts a new line in the plain-text rendering. (A switch,
// not a map: it runs for every tag, and a string switch is cheaper than hashing, above all in
// WebAssembly.)
func blockElement(tag string) bool {
	switch tag {
	case "p", "div", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
		"table", "tr", "caption", "blockquote", "pre", "figure", "figcaption", "details", "summary", "thead",
		"tbody", "tfoot":
		return true
	}
	return false
}

// HTMLText renders already sanitized markup as plain text for a model: block elements on their
// own lines, list items as "- ", table cells separated by " | ", links as "text (url)" and images
// as "[image: alt]". Runs of blank lines and spaces are collapsed.
func HTMLText(sanitized string) string {
	return htmlText(sanitized, nil)
}

// htmlText is HTMLText that also counts tags and attributes into counts when it is not nil (see
// markupCounts).
func htmlText(sanitized string, counts *markupCounts) string {
	r := textRenderer{counts: counts}
	r.b.Grow(len(sanitized) / 2)
	z := nethtml.NewTokenizer(strings.NewReader(sanitized))
	for {
		switch tt := z.Next(); tt {
		case nethtml.ErrorToken:
			return tidyText(r.b.String())
		case nethtml.TextToken:
			writeText(&r, z.Text())
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			r.tag(z, tt == nethtml.EndTagToken)
		}
	}
}

// textRenderer is the state of one plain-text rendering.
type textRenderer struct {
	b        strings.Builder
	counts   *markupCounts
	hrefs    []string // stack of open links' targets
	linkText []int    // b.Len() at each open link, to tell whether the text already says the URL
	pre      int      // depth of open pre elements
	cellOpen bool     // a table cell was started in the current row
	mark     linkMark // the marks of the last start tag read (writtenTag)
}

// atLineStart reports whether the output is empty or ends with a line break or a space.
func (r *textRenderer) atLineStart() bool {
	n := r.b.Len()
	return n == 0 || r.b.String()[n-1] == '\n' || r.b.String()[n-1] == ' '
}

// writeText writes a text token, unescaped: verbatim inside pre, else with each run of white
// space folded into one space, as a browser renders it, and dropped where a line or a space
// already ends the output.
func writeText[T string | []byte](r *textRenderer, t T) {
	if r.pre > 0 {
		r.b.WriteString(string(t))
		return
	}
	space := r.atLineStart()
	for i := 0; i < len(t); {
		if isTagSpace(t[i]) {
			if !space {
				r.b.WriteByte(' ')
				space = true
			}
			i++
			continue
		}
		j := i + 1 // a run of other bytes is written at once
		for j < len(t) && !isTagSpace(t[j]) {
			j++
		}
		r.b.WriteString(string(t[i:j]))
		space = false
		i = j
	}
}

// tag reads a start, self-closing or end tag from the tokenizer, counts it, and renders it.
func (r *textRenderer) tag(z *nethtml.Tokenizer, end bool) {
	name, hasAttr := z.TagName()
	if r.counts != nil && !end {
		r.counts.tags.add(name)
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

// writtenTag counts and renders a tag in the form x/net/html's Token.String writes it —
// "<name>", "</name>", "<name/>", each name followed by ` key="escaped value"` pairs — and
// reports false for anything else. It reads the tag in one pass of its own, without a call per
// piece: it runs for every tag of the output, and in WebAssembly calls are dear.
func (r *textRenderer) writtenTag(s string) bool {
	r.mark = noMark
	n := len(s)
	if n < 3 || s[n-1] != '>' {
		return false
	}
	body := s[1 : n-1]
	end := body[0] == '/'
	if end {
		body = body[1:]
	} else if body[len(body)-1] == '/' {
		body = body[:len(body)-1] // a self-closing tag renders as a start tag
	}
	sp := 0
	for sp < len(body) && body[sp] != ' ' {
		sp++
	}
	name := body[:sp]
	if name == "" {
		return false
	}
	if end {
		r.element(name, true, "", "") // an end tag's attributes neither render nor count
		return true
	}
	if r.counts != nil {
		r.counts.tags.addString(name)
	}
	var href, alt string
	attrs := ""
	if sp < len(body) {
		attrs = body[sp+1:]
	}
	for attrs != "" {
		// The key runs to the first `="` and holds no space or quote; the value to the next quote.
		eq := 0
		for ; eq+1 < len(attrs) && (attrs[eq] != '=' || attrs[eq+1] != '"'); eq++ {
			if attrs[eq] == ' ' || attrs[eq] == '"' {
				return false
			}
		}
		if eq+1 >= len(attrs) {
			return false
		}
		k, rest := attrs[:eq], attrs[eq+2:]
		q := strings.IndexByte(rest, '"')
		if q < 0 || q+1 < len(rest) && rest[q+1] != ' ' {
			return false
		}
		v := rest[:q]
		attrs = rest[min(q+2, len(rest)):]
		switch {
		case name == "a" && k == "href":
			href = nethtml.UnescapeString(v)
			r.mark = markFor(href, r.mark)
		case name == "img" && k == "alt":
			alt = nethtml.UnescapeString(v)
		}
		if r.counts != nil {
			r.counts.attrString(k)
		}
	}
	r.element(name, false, href, alt)
	return true
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
			r.b.WriteString(" (") // written in pieces: a string built first was an allocation a link
			r.b.WriteString(href)
			r.b.WriteString(")")
		}
	case tag == "img":
		if alt := strings.TrimSpace(alt); alt != "" {
			r.b.WriteString("[image: ")
			r.b.WriteString(collapseSpace(alt))
			r.b.WriteString("]")
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
	case blockElement(tag):
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

// tidyText trims each line and keeps at most one blank line in a row, writing the lines once
// into one buffer.
func tidyText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	lines, blank := 0, true
	for rest, more := s, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "" {
			if blank {
				continue
			}
			l = ""
		}
		blank = l == ""
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		lines++
	}
	return strings.TrimSpace(b.String())
}
