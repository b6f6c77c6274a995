package sanitize

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// The HTML allowlist lives in the tables below and nowhere else: newHTMLPolicy builds the
// bluemonday policy for an HTMLRules from them (the rules fill in what the URL attributes admit),
// Removed reads linkAttrs, and the tests check sanitized output against the same tables under
// the same rules, so the policy and its checks cannot drift apart.
//
// The allowlist is at least as strict as the Sanitizer API's safe baseline, and stricter: no forms
// or controls, no style (bluemonday's CSS handlers are slow on hostile input), no embedding
// elements, no SVG or MathML, no id or name (DOM clobbering), no relative URLs.

// htmlElements are the elements HTML keeps; everything else is dropped, its text kept. HTML5's
// sectioning and text-level elements are kept: they carry no script, no URL and no form.
var htmlElements = []string{
	"h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span",
	"article", "section", "header", "footer", "main", "nav", "aside", "hgroup", "address",
	"b", "strong", "i", "em", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
	"abbr", "cite", "dfn", "kbd", "samp", "var", "code", "pre", "blockquote", "q",
	"bdi", "bdo", "data",
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
	Value *pattern
	URL   *urlAttr
}

// pattern is a regexp compiled on first use: the tables below are made when the module starts,
// and a call without HTML should not wait for their regexps (one repeats 200 times).
type pattern struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// lazy is the pattern of expr, compiled once, on first use.
func lazy(expr string) *pattern { return &pattern{expr: expr} }

// compiled is the pattern of a regexp already compiled (bluemonday's own).
func compiled(re *regexp.Regexp) *pattern { return &pattern{re: re} }

// regexp compiles the pattern the first time it is asked for.
func (p *pattern) regexp() *regexp.Regexp {
	p.once.Do(func() {
		if p.re == nil {
			p.re = regexp.MustCompile(p.expr)
		}
	})
	return p.re
}

// urlAttr says what a URL-bearing attribute may hold under given HTMLRules: an absolute URL that
// URL accepts with the rules Role names, its schemes cut to those markup may hold (see
// HTMLRules.normalized) — so never a NeverAllowedScheme — or, when InlineImages is set, a base64
// data: URL of an image that the rules' InlineImages limits accept. That is the one exception to
// scriptSchemes: such a URL is an image's bytes, not a navigation. (bluemonday runs the scheme
// checks only on href, src and cite of the elements that take them — a, img, q, blockquote, … —
// so a URL attribute anywhere else would be held to its scheme prefix alone; the tests' oracle
// would catch that.)
type urlAttr struct {
	Role         urlRole
	InlineImages bool
}

// urlRole names the rules of an HTMLRules that a URL attribute follows.
type urlRole int

const (
	linkURL  urlRole = iota // HTMLRules.Links
	imageURL                // HTMLRules.Images
)

// urlRules returns the rules the attribute's URLs follow under r, which is normalized.
func (a urlAttr) urlRules(r HTMLRules) URLRules {
	if a.Role == imageURL {
		return r.Images
	}
	return r.Links
}

// inlineTypes returns the types of the data: images the attribute admits under r, which is
// normalized: none unless InlineImages is set.
func (a urlAttr) inlineTypes(r HTMLRules) []string {
	if !a.InlineImages {
		return nil
	}
	return r.InlineImages.Types
}

var (
	flagValue = lazy(`^$`) // a boolean attribute, written bare or as =""
	langTag   = lazy(`^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$`)
	integer   = compiled(bluemonday.Integer)
	dimension = compiled(bluemonday.NumberOrPercent) // a width or height
)

// htmlAttrs are the attributes HTML keeps; every other attribute is dropped.
var htmlAttrs = []htmlAttr{
	{Name: "title"},
	{Name: "lang", Value: langTag},
	{Name: "dir", Value: lazy(`^(?i)(ltr|rtl|auto)$`)},
	{Name: "colspan", On: []string{"td", "th"}, Value: integer},
	{Name: "rowspan", On: []string{"td", "th"}, Value: integer},
	{Name: "scope", On: []string{"th"}, Value: lazy(`^(?i)(row|col|rowgroup|colgroup)$`)},
	{Name: "span", On: []string{"col", "colgroup"}, Value: integer},
	{Name: "start", On: []string{"ol"}, Value: integer},
	{Name: "reversed", On: []string{"ol"}, Value: flagValue},
	{Name: "value", On: []string{"li"}, Value: integer},
	{Name: "value", On: []string{"data"}, Value: lazy(`^[^<>]{0,200}$`)},
	{Name: "datetime", On: []string{"time", "del", "ins"}, Value: lazy(`^[0-9T:.+\-Z ]{1,40}$`)},
	{Name: "open", On: []string{"details"}, Value: flagValue},
	{Name: "href", On: []string{"a"}, URL: &urlAttr{Role: linkURL}},
	{Name: "src", On: []string{"img"}, URL: &urlAttr{Role: imageURL, InlineImages: true}},
	{Name: "alt", On: []string{"img"}},
	{Name: "width", On: []string{"img"}, Value: dimension},
	{Name: "height", On: []string{"img"}, Value: dimension},
}

// linkAttrs are the attributes the bridge itself writes on an a with an href (linkmarks.go:
// what bluemonday's RequireNoFollowOnLinks, RequireNoReferrerOnLinks and
// AddTargetBlankToFullyQualifiedLinks would write). Any such attribute in the input is dropped,
// so in the output they are never the page's: Removed does not count them, and the tests accept
// exactly these values.
var linkAttrs = []htmlAttr{
	{Name: "rel", On: []string{"a"}, Value: lazy(`^nofollow noreferrer( noopener)?$`)},
	{Name: "target", On: []string{"a"}, Value: lazy(`^_blank$`)},
}

// inlineImageTypes are the only media types a data: URL in an img may ever have (which of them
// it may have is HTMLRules.InlineImages.Types).
var inlineImageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// htmlPolicy is the policy of DefaultHTMLRules, shared by every caller that uses them. It is built on
// first use, not at start-up, so a page that never sanitizes HTML does not pay for its regexps.
// Policies for other rules are built on first use too, and cached (htmlPolicies).
var htmlPolicy = sync.OnceValue(func() *bluemonday.Policy { return buildHTMLPolicy(DefaultHTMLRules().normalized()) })

// buildHTMLPolicy is newHTMLPolicy; the tests count the builds through it.
var buildHTMLPolicy = newHTMLPolicy

// newHTMLPolicy builds the bluemonday policy of normalized rules r from htmlElements, htmlAttrs
// and linkAttrs, with what the writer needs to judge what a person would not see: the hidden
// and style attributes, which it never writes, and the template element, which it leaves out
// with its content (hidden.go).
func newHTMLPolicy(r HTMLRules) *bluemonday.Policy {
	p := allowlistPolicy(r)
	p.AllowAttrs("hidden").Globally()
	p.AllowAttrs("style").Globally()
	// An element the allowlist drops hides its content all the same (<form hidden>,
	// <x-note style="display:none">): it reaches the writer when it carries either attribute.
	p.AllowAttrs("hidden").OnElementsMatching(otherElements())
	p.AllowAttrs("style").OnElementsMatching(otherElements())
	p.AllowElements("template")
	p.AllowNoAttrs().OnElements("template")
	return p
}

// judgedStyle reports whether the writer must read a style attribute with styleHides: it names
// a property styleHides reads (display, visibility, content-visibility, opacity, font-size,
// font), in any case, or holds a CSS escape, which could spell one. Every other style attribute
// is dropped unread. A scan by hand, not a regexp: it runs for every style attribute, and an
// unanchored case-folding alternation is among the dearest things a regexp does (above all in
// WebAssembly).
func judgedStyle(style string) bool {
	for i := 0; i < len(style); i++ {
		var word string
		switch style[i] | 0x20 { // an ASCII letter in lower case
		case 'd':
			word = "display"
		case 'v':
			word = "visibility"
		case 'o':
			word = "opacity"
		case 'f':
			word = "font"
		default:
			if style[i] == '\\' {
				return true
			}
			continue
		}
		if hasFoldedPrefix(style[i:], word) {
			return true
		}
	}
	return false
}

// hasFoldedPrefix reports whether s starts with word (lower-case ASCII letters and hyphens) in
// any ASCII case.
func hasFoldedPrefix(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for i := 0; i < len(word); i++ {
		if s[i]|0x20 != word[i] {
			return false
		}
	}
	return true
}

// skippedContent are the elements whose content bluemonday leaves out when it drops them
// (its default SkipElementsContent list). otherElements does not match them: bluemonday
// writes the content of an element a pattern matches.
var skippedContent = []string{"frame", "frameset", "iframe", "noembed", "noframes", "noscript", "nostyle",
	"object", "script", "style", "title"}

// otherElements matches every element name but those of skippedContent: the complement of a
// finite set, written as the ways a name can differ from each of them (a prefix of one
// followed by a character none continues with, a proper prefix that is none of them, or one
// of them followed by more).
var otherElements = sync.OnceValue(func() *regexp.Regexp {
	prefixes := map[string]string{} // prefix → the characters that continue it
	words := map[string]bool{}
	for _, w := range skippedContent {
		words[w] = true
		for i := 0; i < len(w); i++ {
			if !strings.ContainsRune(prefixes[w[:i]], rune(w[i])) {
				prefixes[w[:i]] += w[i : i+1]
			}
		}
		if _, ok := prefixes[w]; !ok {
			prefixes[w] = ""
		}
	}
	keys := make([]string, 0, len(prefixes))
	for k := range prefixes {
		keys = append(keys, k)
	}
	sort.Sort(sort.StringSlice(keys))
	var alts []string
	for _, p := range keys {
		if next := prefixes[p]; next == "" {
			alts = append(alts, regexp.QuoteMeta(p)+".+")
		} else {
			alts = append(alts, regexp.QuoteMeta(p)+"[^"+next+"].*")
		}
		if p != "" && !words[p] {
			alts = append(alts, regexp.QuoteMeta(p))
		}
	}
	return regexp.MustCompile(`^(?s:` + strings.Join(alts, "|") + `)$`)
})

// allowlistPolicy is the policy of the allowlist tables alone.
func allowlistPolicy(r HTMLRules) *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(htmlElements...)
	// Kept without attributes too (bluemonday's own list lacks main, bdo and data); an a or an img
	// without its URL means nothing and goes.
	withoutURL := func(e string) bool { return e == "a" || e == "img" }
	p.AllowNoAttrs().OnElements(slices.DeleteFunc(slices.Clone(htmlElements), withoutURL)...)
	maxLength := map[string]int{} // scheme → the URL length limit it is checked with
	var inline []string
	for _, a := range htmlAttrs {
		re := a.valuePattern(r)
		if a.URL != nil {
			if re == nil {
				continue // the rules admit no URL here: drop the attribute
			}
			rules := a.URL.urlRules(r)
			for _, s := range rules.Schemes {
				if l, ok := maxLength[s]; !ok || l == 0 || rules.MaxLength > 0 && rules.MaxLength < l {
					maxLength[s] = rules.MaxLength
				}
			}
			inline = append(inline, a.URL.inlineTypes(r)...)
		}
		b := p.AllowAttrs(a.Name)
		if re != nil {
			b = b.Matching(re)
		}
		if len(a.On) == 0 {
			b.Globally()
		} else {
			b.OnElements(a.On...)
		}
	}
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	// Which schemes an attribute admits is in its valuePattern; here every scheme gets the
	// checks of URL, so a value passes only when URL would accept it too. bluemonday calls these
	// checks by scheme, not knowing the attribute: a scheme that two attributes admit with
	// different length limits is held to the smaller one in both.
	schemes := make([]string, 0, len(maxLength))
	for scheme := range maxLength {
		schemes = append(schemes, scheme)
	}
	sort.Sort(sort.StringSlice(schemes))
	for _, scheme := range schemes {
		rules := URLRules{Schemes: []string{scheme}, MaxLength: maxLength[scheme]}
		p.AllowURLSchemeWithCustomPolicy(scheme, func(u *url.URL) bool { return rewriteToURLForm(u, rules) })
	}
	if len(inline) > 0 {
		prefix, lim := inlineImagePrefix(inline), r.InlineImages
		p.AllowURLSchemeWithCustomPolicy("data", func(u *url.URL) bool { return validDataImage(u.String(), prefix, lim) })
	}
	// rel="nofollow noreferrer" on links, and noopener and target="_blank" on those to another
	// host, are written by the bridge as the markup is written (linkmarks.go): the policy
	// writes no rel or target.
	p.AddSpaceWhenStrippingTag(true)
	return p
}

// valuePattern is the regexp bluemonday matches the attribute's value against under normalized
// rules r: Value, or for a URL attribute the scheme prefixes it admits (bluemonday trims white
// space before it parses), nil when it admits none.
func (a htmlAttr) valuePattern(r HTMLRules) *regexp.Regexp {
	if a.URL == nil {
		if a.Value == nil {
			return nil
		}
		return a.Value.regexp()
	}
	var alts []string
	for _, s := range a.URL.urlRules(r).Schemes {
		alts = append(alts, regexp.QuoteMeta(s)+":")
	}
	if types := a.URL.inlineTypes(r); len(types) > 0 {
		alts = append(alts, strings.TrimPrefix(inlineImagePrefix(types).String(), "^(?i)"))
	}
	if len(alts) == 0 {
		return nil
	}
	return regexp.MustCompile(`^(?i)\s*(` + strings.Join(alts, "|") + `)`)
}

// inlineImagePrefix matches the start of a data: URL of one of types that an img may keep.
func inlineImagePrefix(types []string) *regexp.Regexp {
	return regexp.MustCompile(`^(?i)data:(` + quoteAll(types) + `);base64,`)
}

// validDataImage admits a data: URL only when it is base64 (prefix matches its start) whose
// bytes CheckImage accepts with lim as the type the URL declares.
func validDataImage(s string, prefix *regexp.Regexp, lim ImageLimits) bool {
	m := prefix.FindString(s)
	if m == "" {
		return false
	}
	payload := s[len(m):]
	if lim.MaxBytes > 0 && int64(base64.StdEncoding.DecodedLen(len(payload))) > lim.MaxBytes+2 {
		return false // too large, without decoding it (DecodedLen counts padding as bytes)
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return false
	}
	info, err := CheckImage(data, m[len("data:"):len(m)-len(";base64,")], lim)
	return err == nil && info.DeclaredType == ""
}

// quoteAll joins strs as regexp alternatives, each quoted.
func quoteAll(strs []string) string {
	q := make([]string, len(strs))
	for i, s := range strs {
		q[i] = regexp.QuoteMeta(s)
	}
	return strings.Join(q, "|")
}
