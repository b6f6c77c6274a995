//go:build !(js && wasm)

package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPlainHost: a host hostToASCII maps by itself, without the mapper, maps as x/net/idna with
// the URL Standard's options does — including the refusals the caller makes of what it returns.
func FuzzPlainHost(f *testing.F) {
	for _, s := range []string{"example.com", "EXAMPLE.com.", "a..b", "-a-.b_c", "xn--nxasmq6b.com", "XN--a.b",
		"1.2.3.4.5", "a~!$&'()*+,;=b",
		"", ".", "a b", "a\rb", "a%b", "a/b", "a:80", "ÄÖ.com", "a\u3002b", "a\x00b", "ab--c.xn-d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		if _, plain := plainHost(host); !plain && !hasBadASCII(host) {
			return // the mapper's to answer
		}
		if !utf8.ValidString(host) {
			if _, err := hostToASCII(host); err == nil {
				t.Fatalf("hostToASCII(%q) accepted a host that is not UTF-8", host)
			}
			return // refused before anything is mapped
		}
		got, err := hostToASCII(host)
		if err != nil {
			t.Fatalf("hostToASCII(%q): %v without the mapper", host, err)
		}
		want, werr := hostProfile.ToASCII(host)
		if accepted(got, nil) != accepted(want, werr) || accepted(got, nil) && got != want {
			t.Fatalf("hostToASCII(%q) = %q; x/net/idna says %q, %v", host, got, want, werr)
		}
	})
}

func hasBadASCII(host string) bool {
	for i := 0; i < len(host); i++ {
		if c := host[i]; c < 0x80 && !hostByte(asciiLower(c)) {
			return true
		}
	}
	return false
}

// accepted is what BrowserHost does with a mapping: refuse an error, an empty host or one with
// a character no host may hold.
func accepted(ascii string, err error) bool {
	return err == nil && ascii != "" && strings.IndexFunc(ascii, func(r rune) bool { return !hostByte(r) }) < 0
}
