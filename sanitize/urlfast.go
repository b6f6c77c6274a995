package sanitize

import (
	"net/url"
	"slices"
	"strings"
)

// The fast path of the URL rule: most URLs in links and markup are plain web addresses —
// "https://" or "http://", a lower-case ASCII host name, perhaps a port, then a path, query and
// fragment of printable ASCII — or plain addresses without a host ("mailto:name@example.org",
// "tel:+1-555-0100"). For those every reading of the URL names the same scheme, a host maps to
// itself, and URL hands the URL back unchanged, so the check needs no parse, no host mapping (no
// crossing into JS in WebAssembly) and no allocation. Anything else takes the whole rule; the
// tests check that both paths agree.

// plainWebString reports whether URL(s, rules) would return s unchanged, for s already trimmed,
// within rules.MaxLength and free of controls, spaces and backslashes (URL checks those first).
func plainWebString(s string, rules URLRules) bool {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || (scheme != "https" && scheme != "http") || !slices.Contains(rules.Schemes, scheme) {
		return false
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if !plainHostPort(rest[:end]) {
		return false
	}
	tail := rest[end:]
	for i := 0; i < len(tail); i++ {
		switch c := tail[i]; {
		case c <= 0x20 || c >= 0x7f:
			return false
		case c == '%' && (i+2 >= len(tail) || !isHex(tail[i+1]) || !isHex(tail[i+2])):
			return false // url.Parse refuses a bad escape: let the whole rule say so
		}
	}
	return true
}

// plainWebURL reports whether URL(u.String(), rules) would accept the URL and write it as
// u.String() already does, reading u's parts without writing the URL out.
func plainWebURL(u *url.URL, rules URLRules) bool {
	if (u.Scheme != "https" && u.Scheme != "http") || !slices.Contains(rules.Schemes, u.Scheme) ||
		u.Opaque != "" || u.User != nil || u.OmitHost || u.RawPath != "" || u.RawFragment != "" ||
		!plainHostPort(u.Host) || (u.Path != "" && u.Path[0] != '/') ||
		!pathVerbatim.allIn(u.Path) || !fragmentVerbatim.allIn(u.Fragment) {
		return false
	}
	n := len(u.Scheme) + len("://") + len(u.Host) + len(u.Path)
	if u.RawQuery != "" || u.ForceQuery {
		n += 1 + len(u.RawQuery)
		for i := 0; i < len(u.RawQuery); i++ {
			if c := u.RawQuery[i]; c <= 0x20 || c >= 0x7f || c == '\\' {
				return false
			}
		}
	}
	if u.Fragment != "" {
		n += 1 + len(u.Fragment)
	}
	return rules.MaxLength <= 0 || n <= rules.MaxLength
}

// plainOpaqueURL reports whether URL(u.String(), rules) would accept u, a URL without a host
// ("mailto:", "tel:"), and write it as u.String() already does: a scheme of the rules that
// needs no host, and after it only letters, digits and "-._+@", with no query or fragment.
func plainOpaqueURL(u *url.URL, rules URLRules) bool {
	return u.Opaque != "" && opaqueVerbatim.allIn(u.Opaque) && u.RawQuery == "" && !u.ForceQuery &&
		u.Fragment == "" && u.RawFragment == "" && !hostedScheme(u.Scheme) && !NeverAllowedScheme(u.Scheme) &&
		slices.Contains(rules.Schemes, u.Scheme) &&
		(rules.MaxLength <= 0 || len(u.Scheme)+1+len(u.Opaque) <= rules.MaxLength)
}

// plainHostPort reports whether hostport is a host name of lower-case ASCII letters, digits,
// hyphens and dots, with no Punycode label and a last label that no IPv4 reading could take
// for a number, perhaps followed by ":" and a port: a host the URL Standard maps to itself.
func plainHostPort(hostport string) bool {
	host, port, hasPort := strings.Cut(hostport, ":")
	if host == "" || (hasPort && (port == "" || !digitBytes.allIn(port))) {
		return false
	}
	if !hostNameBytes.allIn(host) {
		return false
	}
	if strings.HasPrefix(host, "xn--") || strings.Contains(host, ".xn--") {
		return false
	}
	last := strings.TrimSuffix(host, ".")
	last = last[strings.LastIndexByte(last, '.')+1:]
	// A letter beyond f (and not x) is in no base's digits: the label is a name.
	return strings.IndexFunc(last, func(r rune) bool { return 'g' <= r && r <= 'z' && r != 'x' }) >= 0
}

// byteSet is a set of bytes, one bit each: testing a byte is a shift and a mask, where looking
// it up in a string of the bytes was a search per byte.
type byteSet [4]uint64

func setOf(bytes string) (s byteSet) {
	for i := 0; i < len(bytes); i++ {
		s[bytes[i]>>6] |= 1 << (bytes[i] & 63)
	}
	return s
}

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// allIn reports whether every byte of str is in set.
func (set *byteSet) allIn(str string) bool {
	for i := 0; i < len(str); i++ {
		if !set.has(str[i]) {
			return false
		}
	}
	return true
}

const (
	digits = "0123456789"
	alnum  = digits + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// pathBytes are the bytes url.URL writes unescaped in a path.
	pathBytes = alnum + "-._~$&+,/:;=@"
)

var (
	digitBytes = setOf(digits)
	// pathVerbatim and fragmentVerbatim are the bytes url.URL writes unescaped in a path and a
	// fragment.
	pathVerbatim     = setOf(pathBytes)
	fragmentVerbatim = setOf(pathBytes + "!()*?")
	// opaqueVerbatim are the bytes of an address without a host that no reading of the URL
	// changes (no "&", "%", "/" or ":") and that url.Parse keeps as they are.
	opaqueVerbatim = setOf(alnum + "-._+@")
	// hostNameBytes are the bytes of a host name that url.Parse takes as they are.
	hostNameBytes = setOf("abcdefghijklmnopqrstuvwxyz0123456789.-")
)

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
