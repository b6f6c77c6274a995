package sanitize

import (
	"net/url"
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

// The marks every kept link carries — rel="nofollow noreferrer", and on a link to another host
// also noopener and target="_blank" (linkAttrs) — are written by the bridge as the sanitized
// markup is written, not by bluemonday: its RequireNoFollowOnLinks, RequireNoReferrerOnLinks
// and AddTargetBlankToFullyQualifiedLinks rebuild every link's attributes three times over,
// about a quarter of its time on a page of links in WebAssembly. The markup is the same, byte
// for byte: the marks follow the link's other attributes, rel before target, as bluemonday
// writes them, on an a whose href the policy kept; the link is to another host when its URL
// has one (url.Parse, as bluemonday decides it).

// linkMark says which marks a tag gets.
type linkMark int

const (
	noMark       linkMark = iota
	localMarks            // an a with an href: rel="nofollow noreferrer"
	externalMark          // … to a URL with a host: rel="nofollow noreferrer noopener" target="_blank"
)

// markFor is the mark of an a whose href is the unescaped value href, given the mark its
// other href attributes (if any) gave.
func markFor(href string, sofar linkMark) linkMark {
	if hasHost(href) {
		return externalMark
	}
	return max(sofar, localMarks)
}

// hasHost reports whether url.Parse reads href without an error and with a host, telling the
// shapes of nearly every link without parsing: url.Parse finds a host only after "//", and
// "https://" or "http://" with a plain host name (hostNameBytes), followed by nothing it could
// refuse (a "%" or a control), has one.
func hasHost(href string) bool {
	if !strings.Contains(href, "//") {
		return false
	}
	rest, ok := strings.CutPrefix(href, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(href, "http://")
	}
	if ok {
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if end > 0 && hostNameBytes.allIn(rest[:end]) && strings.IndexFunc(rest[end:], func(r rune) bool {
			return r < 0x20 || r == 0x7f || r == '%'
		}) < 0 {
			return true
		}
	}
	u, err := url.Parse(href)
	return err == nil && u.Host != ""
}

// marks are the attributes each mark adds, as Token.String writes them.
var marks = [...]string{
	noMark:       "",
	localMarks:   ` rel="nofollow noreferrer"`,
	externalMark: ` rel="nofollow noreferrer noopener" target="_blank"`,
}

// writeMarked writes tag, a start tag as Token.String writes it, with the attributes of mark
// after its own.
func writeMarked(b *strings.Builder, tag string, mark linkMark) {
	if mark == noMark {
		b.WriteString(tag)
		return
	}
	end := len(tag) - 1 // before ">", or "/>" for a self-closing tag
	if end > 0 && tag[end-1] == '/' {
		end--
	}
	b.WriteString(tag[:end])
	b.WriteString(marks[mark])
	b.WriteString(tag[end:])
}

// sanitizeMarked is bluemonday's Sanitize with the link marks and without what a person would
// not see (HTML): the writer renders no Markdown and counts nothing.
func sanitizeMarked(p *bluemonday.Policy, s string) string {
	if strings.TrimSpace(s) == "" {
		return s // what Sanitize hands back as it is
	}
	w := &renderingWriter{}
	w.html.Grow(len(s))
	if err := p.SanitizeReaderToWriter(strings.NewReader(s), w); err != nil {
		return "" // Sanitize's answer to input the tokenizer cannot read
	}
	w.rereadUnread()
	return w.html.String()
}
