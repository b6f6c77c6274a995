// Package pagetext writes text a page chose into the bridge's own words: a notice ("[image
// removed: …]"), an error, a label. Whatever the page chose — a MIME type, a tag or attribute
// name, a URL scheme, a host, a file name, a JSON value — is quoted, stripped of control and
// format characters and cut short, so it can neither end the bridge's sentence nor pass for one of
// the bridge's own, and one page string cannot fill a notice.
//
// It is a leaf (the standard library and internal/jsonvalue) so that the wire model, the sanitizer, the normalizer and
// webmcp-mcp all quote with the same function.
package pagetext

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
)

// MaxQuotedChars is how many characters of one page-chosen string a notice quotes.
const MaxQuotedChars = 64

// MaxNoticeChars bounds a whole notice, whatever it quotes.
const MaxNoticeChars = 400

// Quote is s as the bridge names it in its own text: control and format characters (line
// breaks, bidi overrides, zero-width characters) removed, invalid UTF-8 as U+FFFD, cut to
// MaxQuotedChars characters with "…" when longer, in double quotes with quotes and backslashes
// escaped.
func Quote(s string) string {
	return strconv.Quote(Clean(s, MaxQuotedChars))
}

// Clean is s with control and format characters removed and invalid UTF-8 as U+FFFD, cut to
// maxChars characters (the last of them "…") when longer: the text itself, not yet quoted.
func Clean(s string, maxChars int) string {
	var b strings.Builder
	n := 0
	for i, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			continue
		}
		// An invalid byte reads as U+FFFD, one byte long: size is what it took in s.
		if _, size := utf8.DecodeRuneInString(s[i:]); n == maxChars-1 && hasMore(s[i+size:]) {
			b.WriteString("…")
			return b.String()
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// hasMore reports whether s holds a character Clean keeps.
func hasMore(s string) bool {
	for _, r := range s {
		if !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r) && r != '\u2028' && r != '\u2029' {
			return true
		}
	}
	return false
}

// Notice bounds one of the bridge's own notices: control characters removed (a notice is one
// line) and cut to MaxNoticeChars characters with "…". The page text inside it is already
// quoted with Quote; this is the last bound, for what no quoting site foresaw.
func Notice(s string) string {
	return Clean(s, MaxNoticeChars)
}

// QuoteJSON is a JSON value the page chose as the bridge names it: a string as Quote writes it,
// true, false and null as they are, a number as written but cut to MaxQuotedChars (digits cannot
// make a sentence), an object or array as its compact JSON, quoted.
func QuoteJSON(v any) string {
	switch x := v.(type) {
	case string:
		return Quote(x)
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return Clean(string(x), MaxQuotedChars)
	}
	b, err := jsonvalue.Marshal(v)
	if err != nil {
		return Quote(fmt.Sprint(v))
	}
	if s := string(b); s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return Clean(s, MaxQuotedChars)
	}
	return Quote(string(b))
}
