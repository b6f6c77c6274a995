package sanitize

import (
	"html"
	"net/url"
	"slices"
	"strings"
)

// URLRules are what a link URL must meet.
type URLRules struct {
	Schemes   []string // allowed schemes, lower case, e.g. "https"
	MaxLength int      // bytes; 0 means no limit
}

// scriptSchemes never pass, whatever the rules allow: they run code or smuggle documents.
var scriptSchemes = []string{"javascript", "vbscript", "data", "file", "blob", "filesystem", "livescript", "mocha"}

// NeverAllowedScheme reports whether scheme (lower case, without the colon) is one that URL
// refuses whatever URLRules.Schemes says: a policy may not list it.
func NeverAllowedScheme(scheme string) bool { return slices.Contains(scriptSchemes, scheme) }

// URL checks an absolute URL the way a browser would read it and fails closed. Leading and
// trailing C0 controls and spaces are trimmed (browsers do the same); anything else a browser
// would silently repair — tabs or newlines inside, backslashes, control characters — is refused,
// as are relative URLs, credentials, over-long URLs, schemes outside rules.Schemes, and any URL
// whose HTML-entity-decoded or percent-decoded reading names a script scheme. It returns the
// trimmed URL with its scheme in lower case.
func URL(raw string, rules URLRules) (string, error) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	if rules.MaxLength > 0 && len(s) > rules.MaxLength {
		return "", limitErr("maxURLLength", "the URL is %d bytes, over the %d-byte limit", len(s), rules.MaxLength)
	}
	if s == "" {
		return "", limitErr("linkSchemes", "the URL is empty")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c == ' ' {
			return "", limitErr("linkSchemes", "the URL contains a space or control character at byte %d", i)
		}
		if c == '\\' {
			return "", limitErr("linkSchemes", "the URL contains a backslash (browsers read it as a slash)")
		}
	}
	scheme, ok := urlScheme(s)
	if !ok {
		return "", limitErr("linkSchemes", "the URL is not absolute (it has no scheme)")
	}
	for _, reading := range urlReadings(s) {
		if sch, ok := urlScheme(reading); ok && NeverAllowedScheme(sch) {
			return "", limitErr("linkSchemes", "the %s: scheme is never allowed", sch)
		}
	}
	if !slices.Contains(rules.Schemes, scheme) {
		return "", limitErr("linkSchemes", "the %s: scheme is not allowed (allowed: %s)", scheme, strings.Join(rules.Schemes, ", "))
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", limitErr("linkSchemes", "the URL does not parse: %v", unwrapURLError(err))
	}
	if u.User != nil {
		return "", limitErr("linkSchemes", "the URL carries credentials (user:password@)")
	}
	switch scheme {
	case "http", "https", "ws", "wss", "ftp":
		if u.Host == "" || u.Opaque != "" {
			return "", limitErr("linkSchemes", "the %s: URL has no host", scheme)
		}
	default:
		if u.Opaque == "" && u.Host == "" && u.Path == "" {
			return "", limitErr("linkSchemes", "the %s: URL is empty after the scheme", scheme)
		}
	}
	return scheme + s[len(scheme):], nil
}

// ResourceURI checks the uri of an embedded resource or resource link that a tool handed over
// ready-made: it must be absolute, free of controls and backslashes, within maxLength, and not
// name a script scheme in any reading. Custom schemes (ui://, file-less app schemes) are allowed.
func ResourceURI(raw string, maxLength int) (string, error) {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	scheme, ok := urlScheme(s)
	if !ok {
		return URL(raw, URLRules{MaxLength: maxLength})
	}
	return URL(raw, URLRules{Schemes: []string{scheme}, MaxLength: maxLength})
}

// urlScheme returns the lower-cased scheme of s if s starts with one ([A-Za-z][A-Za-z0-9+.-]*:).
func urlScheme(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), true
		default:
			return "", false
		}
	}
	return "", false
}

// urlReadings are the ways a consumer might read s: as is, HTML-entity decoded (when the URL ends
// up in markup), percent decoded, and with the tabs and newlines browsers strip removed.
func urlReadings(s string) []string {
	out := []string{s, html.UnescapeString(s)}
	if dec, err := url.PathUnescape(s); err == nil {
		out = append(out, dec, html.UnescapeString(dec))
	}
	for _, r := range out[:len(out):len(out)] {
		stripped := strings.Map(func(c rune) rune {
			if c == '\t' || c == '\n' || c == '\r' {
				return -1
			}
			return c
		}, r)
		out = append(out, strings.TrimFunc(stripped, func(r rune) bool { return r <= 0x20 }))
	}
	return out
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
