package sanitize

import (
	"strings"

	"github.com/microcosm-cc/bluemonday"
	nethtml "golang.org/x/net/html"
)

// HTMLResult is markup after HTML, its Markdown rendering for a model (HTMLText), and a note
// of what the sanitizer removed (Removed, "" when nothing was).
type HTMLResult struct {
	HTML, Text, Removed string
}

// HTMLAndText is HTML, HTMLText and Removed in one pass of bluemonday over the input — the
// Markdown, what a person would not see (hidden.go) and the output's counts are all decided from
// its output as it is written — and one count of the input's tags. A URL attribute the rules
// refuse is removed like any other attribute, and Removed names it ("src="); hidden elements
// are counted apart ("3 hidden elements"). This is what a tool result's html block needs:
// markup for the person, Markdown of what the person sees for the model, and what was taken out.
func HTMLAndText(markup string, r HTMLRules) HTMLResult {
	return sanitizeHTML(policyFor(r), markup)
}

func sanitizeHTML(p *bluemonday.Policy, markup string) HTMLResult {
	if strings.TrimSpace(markup) == "" {
		return HTMLResult{HTML: markup, Text: HTMLText(markup)} // what Sanitize hands back as it is
	}
	w := &renderingWriter{r: &mdRenderer{}, counts: newMarkupCounts()}
	w.html.Grow(len(markup))
	w.r.out = make([]byte, 0, len(markup)/2)
	if err := p.SanitizeReaderToWriter(strings.NewReader(markup), w); err != nil {
		// Sanitize's answer to input the tokenizer cannot read: nothing.
		return HTMLResult{Removed: removedBetween(countMarkup(markup), newMarkupCounts())}
	}
	w.rereadUnread()
	return HTMLResult{
		HTML:    w.html.String(),
		Text:    w.r.finish(),
		Removed: hiddenNote(removedBetween(countMarkup(markup), w.counts), w.hiddenCount),
	}
}

// hiddenNote adds the count of hidden elements to a Removed note.
func hiddenNote(removed string, hidden int) string {
	if hidden == 0 {
		return removed
	}
	h := FormatCount(int64(hidden)) + " hidden element"
	if hidden > 1 {
		h += "s"
	}
	if removed == "" {
		return h
	}
	return removed + " and " + h
}

// renderingWriter is where bluemonday writes sanitized markup. bluemonday writes one token per
// call — a tag as Token.String gives it, escaped text, or the space that stands for a stripped
// tag — so the writer reads each as it comes: it leaves out what a person would not see
// (hidden.go) and the hidden and style attributes it judged that by, gives links their marks
// (linkmarks.go), counts the output's tags and attributes, and renders the Markdown (r, nil
// when only the markup is wanted); nothing reads the output again. A write it cannot read as
// one token sets unread: from there the output is kept as written and read again token by
// token at the end (rereadUnread).
type renderingWriter struct {
	html        strings.Builder
	r           *mdRenderer
	counts      *markupCounts // r's counts, or nil
	hidden      hiddenSubtree
	hiddenCount int    // hidden elements left out (not those inside them)
	tagBuf      []byte // a tag without the attributes judged, reused
	unread      bool
	unreadAt    int // html.Len() where unread was set
}

func (w *renderingWriter) Write(b []byte) (int, error) { return w.WriteString(string(b)) }

func (w *renderingWriter) WriteString(s string) (int, error) {
	switch {
	case w.unread || s == "":
		w.html.WriteString(s)
	case s[0] != '<':
		if w.hidden.active() {
			break
		}
		w.html.WriteString(s)
		if w.r != nil {
			w.r.text(nethtml.UnescapeString(s))
		}
	default:
		if !w.tag(s) {
			w.unread, w.unreadAt = true, w.html.Len()
			w.html.WriteString(s)
		}
	}
	return len(s), nil
}

// rereadUnread reads what was written after the writer could not read a write, token by
// token, as if bluemonday had written it so.
func (w *renderingWriter) rereadUnread() {
	if !w.unread {
		return
	}
	rest := w.html.String()[w.unreadAt:]
	kept := w.html.String()[:w.unreadAt]
	w.html.Reset()
	w.html.WriteString(kept)
	w.unread = false
	z := nethtml.NewTokenizer(strings.NewReader(rest))
	for {
		switch tt := z.Next(); tt {
		case nethtml.ErrorToken:
			return
		case nethtml.TextToken, nethtml.StartTagToken, nethtml.EndTagToken, nethtml.SelfClosingTagToken:
			w.WriteString(z.Token().String())
		}
	}
}

// HTML returns markup that keeps the safe structure of s — headings, paragraphs, emphasis,
// lists, tables, code, links and images — and removes everything that can run script, load
// frames or plugins, submit forms, restyle the page or clobber the DOM, and what a person
// would not see (hidden.go) with everything inside it. A link (a href) keeps its
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

// blockElement reports whether tag starts a new block in the Markdown. (A switch, not a map:
// it runs for every tag, and a string switch is cheaper than hashing, above all in
// WebAssembly.)
func blockElement(tag string) bool {
	switch tag {
	case "p", "div", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
		"table", "tr", "caption", "blockquote", "pre", "figure", "figcaption", "details", "summary", "thead",
		"tbody", "tfoot", "article", "section", "header", "footer", "main", "nav", "aside", "hgroup", "address":
		return true
	}
	return false
}

// HTMLText renders already sanitized markup as GitHub-flavoured Markdown for a model, as
// HTMLAndText renders it: headings, lists, tables, links, images, code and quotes in Markdown,
// page text escaped where Markdown would read it as structure.
func HTMLText(sanitized string) string {
	w := &renderingWriter{r: &mdRenderer{}}
	w.unread = true // read token by token (rereadUnread), as what another writer wrote
	w.unreadAt = 0
	w.html.WriteString(sanitized)
	w.rereadUnread()
	return w.r.finish()
}

// collapseSpace folds each run of HTML white space into one space, as a browser renders it.
func collapseSpace(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\f") && !strings.Contains(s, "  ") {
		return s
	}
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
