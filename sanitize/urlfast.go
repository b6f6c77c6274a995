package sanitize

import (
	"net/url"
	"slices"
	"strings"
)

// The fast path of the URL rule: most URLs in links and markup are plain web addresses —
// "https://" or "http://", a lower-case ASCII host name, perhaps a port, then a path, query and
// fragment of printable ASCII. For those every reading of the URL names the same scheme, the host
// maps to itself, and URL hands the URL back unchanged, so the check needs no parse, no host
// mapping (no crossing into JS in WebAssembly) and no allocation. Anything else takes the whole
// rule; the tests check that both paths agree.

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
		!allIn(u.Path, pathVerbatim) || !allIn(u.Fragment, fragmentVerbatim) {
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

// plainHostPort reports whether hostport is a host name of lower-case ASCII letters, digits,
// hyphens and dots, with no Punycode label and a last label that no IPv4 reading could take
// for a number, perhaps followed by ":" and a port: a host the URL Standard maps to itself.
func plainHostPort(hostport string) bool {
	host, port, hasPort := strings.Cut(hostport, ":")
	if host == "" || (hasPort && (port == "" || !allIn(port, digits))) {
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	if strings.HasPrefix(host, "xn--") || strings.Contains(host, ".xn--") {
		return false
	}
	last := strings.TrimSuffix(host, ".")
	last = last[strings.LastIndexByte(last, '.')+1:]
	// A letter beyond f (and not x) is in no base's digits: the label is a name.
	return strings.IndexFunc(last, func(r rune) bool { return 'g' <= r && r <= 'z' && r != 'x' }) >= 0
}

const (
	digits = "0123456789"
	alnum  = digits + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// pathVerbatim and fragmentVerbatim are the bytes url.URL writes unescaped in a path and a
	// fragment.
	pathVerbatim     = alnum + "-._~$&+,/:;=@"
	fragmentVerbatim = pathVerbatim + "!()*?"
)

// allIn reports whether every byte of s is one of set's.
func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
