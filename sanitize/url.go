package sanitize

import (
	"fmt"

	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	nethtml "golang.org/x/net/html"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
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
	s, err := trimURL(raw, rules)
	if err != nil || plainWebString(s, rules) {
		return s, err
	}
	return checkURL(s, rules)
}

// trimURL is URL's first step: the URL trimmed, refused when it is empty, over the length limit
// or holds a control character, a space or a backslash.
func trimURL(raw string, rules URLRules) (string, error) {
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
	return s, nil
}

// checkURL is the whole rule of URL for s, trimmed, within the length limit and free of controls,
// spaces and backslashes.
func checkURL(s string, rules URLRules) (string, error) {
	scheme, ok := urlScheme(s)
	if !ok {
		return "", limitErr("linkSchemes", "the URL is not absolute (it has no scheme)")
	}
	var readings [8]string
	for _, reading := range urlReadings(s, &readings) {
		if sch, ok := urlScheme(reading); ok && NeverAllowedScheme(sch) {
			return "", limitErr("linkSchemes", "the %s: scheme is never allowed", sch)
		}
	}
	if !slices.Contains(rules.Schemes, scheme) {
		return "", limitErr("linkSchemes", "the %s scheme is not allowed (allowed: %s)",
			pagetext.Quote(scheme+":"), strings.Join(rules.Schemes, ", "))
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", limitErr("linkSchemes", "the URL does not parse: %s", pagetext.Quote(unwrapURLError(err).Error()))
	}
	if u.User != nil {
		return "", limitErr("linkSchemes", "the URL carries credentials (user:password@)")
	}
	switch {
	case hostedScheme(scheme):
		if u.Host == "" || u.Opaque != "" {
			return "", limitErr("linkSchemes", "the %s: URL has no host", scheme)
		}
		var host string
		if strings.HasPrefix(u.Host, "[") {
			addr, err := netip.ParseAddr(u.Hostname())
			if err != nil || !addr.Is6() {
				return "", limitErr("linkSchemes", "the host %s is not a valid IPv6 address", pagetext.Quote(u.Host))
			}
			host = "[" + addr.String() + "]"
		} else if host, err = BrowserHost(u.Hostname()); err != nil {
			return "", err
		}
		// The host as the browser will read it replaces the one written: what a user or a model
		// is shown is where the link goes.
		authority := s[len(scheme)+3:]
		if i := strings.IndexAny(authority, "/?#"); i >= 0 {
			authority = authority[:i]
		}
		if port := u.Port(); port != "" {
			host += ":" + port
		}
		rest := s[len(scheme)+3+len(authority):]
		if max := rules.MaxLength; max > 0 && len(scheme)+3+len(host)+len(rest) > max {
			return "", limitErr("maxURLLength",
				"the URL is %d bytes once its host is written as the browser reads it, over the %d-byte limit",
				len(scheme)+3+len(host)+len(rest), max)
		}
		return scheme + "://" + host + rest, nil
	default:
		if u.Opaque == "" && u.Host == "" && u.Path == "" {
			return "", limitErr("linkSchemes", "the %s: URL is empty after the scheme", scheme)
		}
	}
	return scheme + s[len(scheme):], nil
}

// hostedScheme reports whether a URL of scheme must have a host, which URL writes as the
// browser reads it.
func hostedScheme(scheme string) bool {
	switch scheme {
	case "http", "https", "ws", "wss", "ftp":
		return true
	}
	return false
}

// rewriteToURLForm reports whether URL accepts u with rules and, when it does, rewrites u in
// place into the form URL returns (the host as the browser reads it), so that an href or src
// inside sanitized markup is written as a link block's URL is. The HTML policy's scheme checks
// call it: bluemonday writes out the *url.URL its check was given.
func rewriteToURLForm(u *url.URL, rules URLRules) bool {
	if plainWebURL(u, rules) || plainOpaqueURL(u, rules) {
		return true // URL would accept u.String() and hand it back unchanged
	}
	return rewriteChecked(u, rules)
}

// rewriteChecked is rewriteToURLForm through the whole rule of URL.
func rewriteChecked(u *url.URL, rules URLRules) bool {
	s, err := URL(u.String(), rules)
	if err != nil {
		return false
	}
	w, err := url.Parse(s)
	if err != nil {
		return false
	}
	*u = *w
	return true
}

// BrowserHost returns host (of an http, https, ws, wss or ftp URL, without port or brackets)
// as a browser reads it: percent-decoded, IDNA-mapped to lower-case ASCII (Punycode for
// international names, so a look-alike shows as what it is), and an IPv4 address written as
// numbers in any of the forms browsers accept ("0x7f.1", "2130706433", "0177.0.0.1") as dotted
// decimal ("127.0.0.1"). A host a browser would refuse is an error.
func BrowserHost(host string) (string, error) {
	dec, err := url.PathUnescape(host)
	if err != nil {
		return "", limitErr("linkSchemes", "the host %s is not valid: %v", pagetext.Quote(host), err)
	}
	ascii, err := hostToASCII(dec)
	if err != nil || ascii == "" {
		return "", limitErr("linkSchemes", "the host %s is not a valid domain name", pagetext.Quote(host))
	}
	for _, c := range ascii {
		// Letters, digits and the few marks hosts use; anything else the mapping produced (a
		// full-width brace becomes "{") is refused rather than written into a URL.
		if !hostByte(c) {
			return "", limitErr("linkSchemes",
				"the host %s holds a character that has no place in a host name (%q)", pagetext.Quote(host), c)
		}
	}
	ipv4, isIP, err := parseIPv4(ascii)
	if err != nil {
		return "", limitErr("linkSchemes", "the host %s is not a valid IPv4 address: %v", pagetext.Quote(host), err)
	}
	if isIP {
		return ipv4, nil
	}
	return ascii, nil
}

// parseIPv4 reads host as the URL Standard's IPv4 parser does when its last label is a number
// (decimal, 0x hex or 0 octal): up to four parts, the last filling the remaining bytes.
func parseIPv4(host string) (string, bool, error) {
	trimmed := strings.TrimSuffix(host, ".")
	if !isIPv4Number(trimmed[strings.LastIndexByte(trimmed, '.')+1:]) {
		return "", false, nil // a name, the common case: nothing to split
	}
	labels := strings.Split(trimmed, ".")
	if len(labels) > 4 {
		return "", true, fmt.Errorf("more than four parts")
	}
	nums := make([]uint64, len(labels))
	for i, l := range labels {
		n, ok := ipv4Number(l)
		if !ok {
			return "", true, fmt.Errorf("part %s is not a number", pagetext.Quote(l))
		}
		nums[i] = n
	}
	last := len(nums) - 1
	for _, n := range nums[:last] {
		if n > 255 {
			return "", true, fmt.Errorf("a part is over 255")
		}
	}
	if nums[last] >= 1<<(8*(5-len(nums))) {
		return "", true, fmt.Errorf("the last part is too large")
	}
	addr := nums[last]
	for i, n := range nums[:last] {
		addr += n << (8 * (3 - i))
	}
	return fmt.Sprintf("%d.%d.%d.%d", addr>>24, addr>>16&255, addr>>8&255, addr&255), true, nil
}

func isIPv4Number(l string) bool {
	switch {
	case l == "":
		return false
	case strings.HasPrefix(l, "0x") || strings.Trim(l, "0123456789") == "":
		// "0x" followed by anything, or all digits, counts as a number, perhaps one that fails
		// to parse.
		return true
	case strings.Trim(l, "0123456789abcdefABCDEFxX") != "":
		return false // a name: no base's digits (ipv4Number would refuse it, at the cost of an error)
	}
	_, ok := ipv4Number(l)
	return ok
}

func ipv4Number(l string) (uint64, bool) {
	base := 10
	switch {
	case strings.HasPrefix(l, "0x") || strings.HasPrefix(l, "0X"):
		l, base = l[2:], 16
		if l == "" {
			return 0, true
		}
	case len(l) > 1 && l[0] == '0':
		l, base = l[1:], 8
	}
	n, err := strconv.ParseUint(l, base, 64)
	return n, err == nil && n <= 1<<32
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
// up in markup), percent decoded, and with the tabs and newlines browsers strip removed. The
// readings are written into buf, so that checking a URL allocates only for readings that differ.
func urlReadings(s string, buf *[8]string) []string {
	out := append(buf[:0], s, nethtml.UnescapeString(s))
	if dec, err := url.PathUnescape(s); err == nil {
		out = append(out, dec, nethtml.UnescapeString(dec))
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
