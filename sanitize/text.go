package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Text makes s valid UTF-8 (each invalid byte sequence becomes U+FFFD) and cuts it to at most
// maxChars characters (runes), never splitting a UTF-8 sequence. It returns the text, whether it
// was cut, and how many characters the valid text had before cutting. maxChars <= 0 means no limit.
func Text(s string, maxChars int) (out string, truncated bool, chars int) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if maxChars <= 0 || len(s) <= maxChars {
		// Every rune is at least one byte, so a string of at most maxChars bytes fits.
		return s, false, utf8.RuneCountInString(s)
	}
	chars = utf8.RuneCountInString(s)
	if chars <= maxChars {
		return s, false, chars
	}
	cut, n := 0, 0
	for i := range s {
		if n == maxChars {
			cut = i
			break
		}
		n++
	}
	return s[:cut], true, chars
}
