package sanitize

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// The HTML allowlist lives in the tables below and nowhere else: newHTMLPolicy builds the
// bluemonday policy from them, Removed reads linkAttrs, and the tests check sanitized output
// against the same tables, so the policy and its checks cannot drift apart.
//
// The allowlist is at least as strict as the Sanitizer API's safe baseline, and stricter: no forms
// or controls, no style (bluemonday's CSS handlers are slow on hostile input), no embedding
// elements, no SVG or MathML, no id or name (DOM clobbering), no relative URLs.

// htmlElements are the elements HTML keeps; everything else is dropped, its text kept.
var htmlElements = []string{
	"h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span",
	"b", "strong", "i", "em", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
	"abbr", "cite", "dfn", "kbd", "samp", "var", "code", "pre", "blockquote", "q",
	"ul", "ol", "li", "dl", "dt", "dd",
	"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
	"figure", "figcaption", "details", "summary", "ruby", "rt", "rp", "wbr", "time",
	"a", "img",
}

// htmlAttr allows the attribute Name on the elements On (on every element of htmlElements when
// On is empty) when its whole value matches Value (any value when Value is nil). A URL-bearing
// attribute sets URL instead of Value.
type htmlAttr struct {
	Name  string
	On    []string
	Value *regexp.Regexp
	URL   *urlAttr
}

// urlAttr says what a URL-bearing attribute may hold: an absolute URL that URL accepts with
// URLRules{Schemes: Schemes} — so never a NeverAllowedScheme — or, when InlineImages is set, a
// base64 data: URL of one of inlineImageTypes. That is the one exception to scriptSchemes: such a
// URL is an image's bytes, not a navigation. (bluemonday runs the scheme checks only on href,
// src and cite of the elements that take them — a, img, q, blockquote, … — so a URL attribute
// anywhere else would be held to its scheme prefix alone; the tests' oracle would catch that.)
type urlAttr struct {
	Schemes      []string
	InlineImages bool
}

var (
	flagValue = regexp.MustCompile(`^$`) // a boolean attribute, written bare or as =""
	langTag   = regexp.MustCompile(`^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$`)
)

// htmlAttrs are the attributes HTML keeps; every other attribute is dropped.
var htmlAttrs = []htmlAttr{
	{Name: "title"},
	{Name: "lang", Value: langTag},
	{Name: "dir", Value: regexp.MustCompile(`^(?i)(ltr|rtl|auto)$`)},
	{Name: "colspan", On: []string{"td", "th"}, Value: bluemonday.Integer},
	{Name: "rowspan", On: []string{"td", "th"}, Value: bluemonday.Integer},
	{Name: "scope", On: []string{"th"}, Value: regexp.MustCompile(`^(?i)(row|col|rowgroup|colgroup)$`)},
	{Name: "span", On: []string{"col", "colgroup"}, Value: bluemonday.Integer},
	{Name: "start", On: []string{"ol"}, Value: bluemonday.Integer},
	{Name: "reversed", On: []string{"ol"}, Value: flagValue},
	{Name: "value", On: []string{"li"}, Value: bluemonday.Integer},
	{Name: "datetime", On: []string{"time", "del", "ins"}, Value: regexp.MustCompile(`^[0-9T:.+\-Z ]{1,40}$`)},
	{Name: "open", On: []string{"details"}, Value: flagValue},
	{Name: "href", On: []string{"a"}, URL: &urlAttr{Schemes: []string{"https", "http", "mailto"}}},
	{Name: "src", On: []string{"img"}, URL: &urlAttr{Schemes: []string{"https"}, InlineImages: true}},
	{Name: "alt", On: []string{"img"}},
	{Name: "width", On: []string{"img"}, Value: bluemonday.NumberOrPercent},
	{Name: "height", On: []string{"img"}, Value: bluemonday.NumberOrPercent},
}

// linkAttrs are the attributes the policy itself writes on an a with an href
// (RequireNoFollowOnLinks, RequireNoReferrerOnLinks, AddTargetBlankToFullyQualifiedLinks; the
// last adds noopener too). Any such attribute in the input is dropped, so in the output they are
// never the page's: Removed does not count them, and the tests accept exactly these values.
var linkAttrs = []htmlAttr{
	{Name: "rel", On: []string{"a"}, Value: regexp.MustCompile(`^nofollow noreferrer( noopener)?$`)},
	{Name: "target", On: []string{"a"}, Value: regexp.MustCompile(`^_blank$`)},
}

// inlineImageTypes are the only media types a data: URL in an img may have.
var inlineImageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// inlineImagePrefix matches the start of a data: URL that an img may keep.
var inlineImagePrefix = regexp.MustCompile(`^(?i)data:(` + quoteAll(inlineImageTypes) + `);base64,`)

// htmlPolicy is the one bluemonday policy every call shares. It is built on first use, not at
// start-up, so a page that never sanitizes HTML does not pay for its regexps.
var htmlPolicy = sync.OnceValue(newHTMLPolicy)

// newHTMLPolicy builds the bluemonday policy from htmlElements, htmlAttrs and linkAttrs.
func newHTMLPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(htmlElements...)
	var schemes []string
	inlineImages := false
	for _, a := range htmlAttrs {
		b := p.AllowAttrs(a.Name)
		if re := a.valuePattern(); re != nil {
			b = b.Matching(re)
		}
		if len(a.On) == 0 {
			b.Globally()
		} else {
			b.OnElements(a.On...)
		}
		if a.URL != nil {
			schemes = append(schemes, a.URL.Schemes...)
			inlineImages = inlineImages || a.URL.InlineImages
		}
	}
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	// Which schemes an attribute admits is in its valuePattern; here every scheme gets the
	// checks of URL, so a value passes only when URL would accept it too.
	slices.Sort(schemes)
	for _, scheme := range slices.Compact(schemes) {
		rules := URLRules{Schemes: []string{scheme}}
		p.AllowURLSchemeWithCustomPolicy(scheme, func(u *url.URL) bool {
			_, err := URL(u.String(), rules)
			return err == nil
		})
	}
	if inlineImages {
		p.AllowURLSchemeWithCustomPolicy("data", validDataImage)
	}
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // also adds rel="noopener"
	p.AddSpaceWhenStrippingTag(true)
	return p
}

// valuePattern is the regexp bluemonday matches the attribute's value against: Value, or for a
// URL attribute the scheme prefixes it admits (bluemonday trims white space before it parses).
func (a htmlAttr) valuePattern() *regexp.Regexp {
	if a.URL == nil {
		return a.Value
	}
	var alts []string
	for _, s := range a.URL.Schemes {
		alts = append(alts, regexp.QuoteMeta(s)+":")
	}
	if a.URL.InlineImages {
		alts = append(alts, strings.TrimPrefix(inlineImagePrefix.String(), "^(?i)"))
	}
	return regexp.MustCompile(`^(?i)\s*(` + strings.Join(alts, "|") + `)`)
}

// validDataImage admits a data: URL only when it is a base64 image of an inlineImageTypes type
// whose payload decodes. The bytes themselves are not sniffed.
func validDataImage(u *url.URL) bool {
	s := u.String()
	m := inlineImagePrefix.FindString(s)
	if m == "" {
		return false
	}
	_, err := base64.StdEncoding.DecodeString(s[len(m):])
	return err == nil
}

// quoteAll joins strs as regexp alternatives, each quoted.
func quoteAll(strs []string) string {
	q := make([]string, len(strs))
	for i, s := range strs {
		q[i] = regexp.QuoteMeta(s)
	}
	return strings.Join(q, "|")
}
