package sanitize

import (
	"errors"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// A host name is mapped to ASCII the way the URL Standard does (UTS #46, non-transitional, no
// STD3 rule, hyphens not checked, bidi and joiners checked): upper case and full-width letters
// fold, the ideographic full stop and its kin become dots, and international names become
// Punycode ("xn--…"). A host of plain ASCII — letters, digits and the marks hosts may hold, no
// Punycode label — maps to itself in lower case, and hostToASCII does that itself; any other
// host goes to the host mapper: x/net/idna natively (host_idna.go), and in WebAssembly the
// browser's own URL parser, which the module installs with SetHostMapper, so that the module
// does not carry the IDNA and Unicode normalization tables the browser already has.

// HostMapper maps a host name (percent-decoded, not plain ASCII) to ASCII as a browser's URL
// parser does, or reports an error for a host the browser refuses.
type HostMapper func(host string) (string, error)

var hostMapper atomic.Pointer[HostMapper]

// SetHostMapper makes m the mapping of host names that are not plain ASCII, for URL and
// BrowserHost. Natively the default is x/net/idna with the URL Standard's options; in
// WebAssembly there is none until the module sets the browser's, and such hosts are refused.
func SetHostMapper(m HostMapper) { hostMapper.Store(&m) }

func init() {
	if defaultHostMapper != nil {
		SetHostMapper(defaultHostMapper)
	}
}

var (
	errNoHostMapper = errors.New("no host mapping for international names is installed")
	// errHostNotUTF8: the URL Standard decodes a host's bytes as UTF-8, each invalid sequence as
	// U+FFFD, which no domain name may hold. (x/net/idna wrote it into Punycode, "xn--0-p10i",
	// a host that URL then refused: the sanitizer kept a link its own rule refuses.)
	errHostNotUTF8 = errors.New("the host is not valid UTF-8")
)

// hostToASCII maps host as the URL Standard does.
func hostToASCII(host string) (string, error) {
	if ascii, ok := plainHost(host); ok {
		return ascii, nil
	}
	if !utf8.ValidString(host) {
		return "", errHostNotUTF8
	}
	for i := 0; i < len(host); i++ {
		// An ASCII character maps to itself (letters to lower case), so one that no host may
		// hold is refused here, and a mapper never sees what could end a URL's host early.
		if c := host[i]; c < 0x80 && !hostByte(asciiLower(c)) {
			return strings.ToLower(host), nil // the caller names the character
		}
	}
	m := hostMapper.Load()
	if m == nil {
		return "", errNoHostMapper
	}
	return (*m)(host)
}

// hostByte reports whether c (lower case) may stand in a host name as the bridge writes it:
// letters, digits and the few marks hosts use.
func hostByte(c rune) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~!$&'()*+,;=", c)
}

// asciiLower is c in lower case when it is an ASCII capital letter, else c.
func asciiLower(c byte) rune {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return rune(c)
}

// plainHost returns host in lower case when every byte is one hostByte allows (in either case)
// and no label starts with the Punycode prefix "xn--": the hosts that UTS #46 maps to
// themselves in lower case.
func plainHost(host string) (string, bool) {
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 0x80 || !hostByte(asciiLower(c)) {
			return "", false
		}
	}
	lower := strings.ToLower(host)
	for label := range strings.SplitSeq(lower, ".") {
		if strings.HasPrefix(label, "xn--") {
			return "", false
		}
	}
	return lower, true
}
