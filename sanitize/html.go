package sanitize

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	nethtml "golang.org/x/net/html"
)

// htmlPolicy is the one bluemonday policy every call shares. It is built on first use, not at
// start-up, so a page that never sanitizes HTML does not pay for its regexps.
var htmlPolicy = sync.OnceValue(newHTMLPolicy)

// rasterDataImage matches the only data: URLs an img may keep.
var rasterDataImage = regexp.MustCompile(`^(?i)data:image/(png|jpeg|gif|webp);base64,`)

// newHTMLPolicy is an allowlist at least as strict as the Sanitizer API's safe baseline, and
// stricter: no forms or controls, no style (bluemonday's CSS handlers are slow on hostile input),
// no embedding elements, no SVG or MathML, no id or name (DOM clobbering), no relative URLs.
func newHTMLPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(
		"h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span",
		"b", "strong", "i", "em", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
		"abbr", "cite", "dfn", "kbd", "samp", "var", "code", "pre", "blockquote", "q",
		"ul", "ol", "li", "dl", "dt", "dd",
		"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
		"figure", "figcaption", "details", "summary", "ruby", "rt", "rp", "wbr", "time",
	)
	p.AllowAttrs("title").Globally()
	p.AllowAttrs("lang").Matching(regexp.MustCompile(`^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$`)).Globally()
	p.AllowAttrs("dir").Matching(regexp.MustCompile(`^(?i)(ltr|rtl|auto)$`)).Globally()
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("td", "th")
	p.AllowAttrs("scope").Matching(regexp.MustCompile(`^(?i)(row|col|rowgroup|colgroup)$`)).OnElements("th")
	p.AllowAttrs("span").Matching(bluemonday.Integer).OnElements("col", "colgroup")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("reversed").Matching(regexp.MustCompile(`^$`)).OnElements("ol")
	p.AllowAttrs("value").Matching(bluemonday.Integer).OnElements("li")
	p.AllowAttrs("datetime").Matching(regexp.MustCompile(`^[0-9T:.+\-Z ]{1,40}$`)).OnElements("time", "del", "ins")
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^$`)).OnElements("details")

	p.AllowElements("a")
	p.AllowAttrs("href").Matching(regexp.MustCompile(`^(?i)\s*(https?://|mailto:)`)).OnElements("a")
	p.AllowElements("img")
	p.AllowAttrs("src").Matching(regexp.MustCompile(`^(?i)\s*(https://|data:image/(png|jpeg|gif|webp);base64,)`)).OnElements("img")
	p.AllowAttrs("alt").OnElements("img")
	p.AllowAttrs("width", "height").Matching(bluemonday.NumberOrPercent).OnElements("img")

	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	hasHost := func(u *url.URL) bool { return u.Host != "" && u.User == nil }
	p.AllowURLSchemeWithCustomPolicy("https", hasHost)
	p.AllowURLSchemeWithCustomPolicy("http", hasHost)
	p.AllowURLSchemeWithCustomPolicy("mailto", func(u *url.URL) bool { return u.Opaque != "" })
	p.AllowURLSchemeWithCustomPolicy("data", validDataImage)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // also adds rel="noopener"
	p.AddSpaceWhenStrippingTag(true)
	return p
}

// validDataImage admits a data: URL only when it is a base64 raster image that decodes.
func validDataImage(u *url.URL) bool {
	s := u.String()
	m := rasterDataImage.FindString(s)
	if m == "" {
		return false
	}
	payload := s[len(m):]
	_, err := base64.StdEncoding.DecodeString(payload)
	return err == nil
}

// SanitizedHTML is markup after HTML, its plain-text rendering for a model (HTMLText), and a
// note of what the sanitizer removed (Removed, "" when nothing was).
type SanitizedHTML struct {
	HTML, Text, Removed string
}

// SanitizeHTML runs HTML, HTMLText and Removed with one tokenizer pass over the input and one
// over the output, besides bluemonday's own.
func SanitizeHTML(markup string) SanitizedHTML {
	clean := HTML(markup)
	out := newMarkupCounts()
	text := htmlText(clean, out)
	return SanitizedHTML{HTML: clean, Text: text, Removed: removedBetween(countMarkup(markup), out)}
}

// HTML returns markup that keeps the safe structure of s — headings, paragraphs, emphasis,
// lists, tables, code, links and images — and removes everything that can run script, load
// frames or plugins, submit forms, restyle the page or clobber the DOM. Links may only point to
// https, http or mailto and get target="_blank" with rel="nofollow noreferrer noopener"; images
// may only load over https or be inline PNG, JPEG, GIF or WebP.
// HTML is idempotent: HTML(HTML(s)) == HTML(s).
func HTML(s string) string {
	return htmlPolicy().Sanitize(s)
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
// tagCounts), so that one pass over the sanitized markup serves both.
func htmlText(sanitized string, counts *markupCounts) string {
	var b strings.Builder
	b.Grow(len(sanitized) / 2)
	z := nethtml.NewTokenizer(strings.NewReader(sanitized))
	var hrefs []string // stack of open links' targets
	var linkText []int // b.Len() at each open link, to tell whether the text already says the URL
	pre := 0
	cellOpen := false
	atLineStart := func() bool {
		n := b.Len()
		return n == 0 || b.String()[n-1] == '\n' || b.String()[n-1] == ' '
	}
	for {
		tt := z.Next()
		switch tt {
		case nethtml.ErrorToken:
			return tidyText(b.String())
		case nethtml.TextToken:
			t := z.Text()
			if pre > 0 {
				b.Write(t)
				continue
			}
			// Fold each run of white space into one space, as a browser renders it, and drop
			// it where a line or a space already ends the output.
			space := atLineStart()
			for _, c := range t {
				if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
					if !space {
						b.WriteByte(' ')
						space = true
					}
					continue
				}
				b.WriteByte(c)
				space = false
			}
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			name, hasAttr := z.TagName()
			end := tt == nethtml.EndTagToken
			if counts != nil && !end {
				counts.tags[string(name)]++
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
				if counts != nil {
					counts.attr(k)
				}
			}
			switch tag := string(name); {
			case tag == "a" && !end:
				hrefs = append(hrefs, href)
				linkText = append(linkText, b.Len())
			case tag == "a" && end && len(hrefs) > 0:
				href, start := hrefs[len(hrefs)-1], linkText[len(linkText)-1]
				hrefs, linkText = hrefs[:len(hrefs)-1], linkText[:len(linkText)-1]
				if href != "" && !strings.Contains(b.String()[start:], href) {
					b.WriteString(" (" + href + ")")
				}
			case tag == "img":
				if alt := strings.TrimSpace(alt); alt != "" {
					b.WriteString("[image: " + collapseSpace(alt) + "]")
				} else {
					b.WriteString("[image]")
				}
			case tag == "pre":
				if end {
					pre--
				} else {
					pre++
				}
				b.WriteString("\n")
			case tag == "li" && !end:
				b.WriteString("\n- ")
			case tag == "tr":
				if !end {
					b.WriteString("\n")
				}
				cellOpen = false
			case tag == "td" || tag == "th":
				if !end {
					if cellOpen {
						b.WriteString(" | ")
					}
					cellOpen = true
				}
			case end && (tag == "li" || tag == "dt" || tag == "dd"):
				// the next item starts its own line
			case blockElements[tag]:
				b.WriteString("\n")
			}
		}
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
