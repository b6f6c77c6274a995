package inputschema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxPatternLength is the longest pattern Compile accepts, in characters (code points). RE2
// refuses some longer patterns for their size or their depth ("expression too large",
// "expression nests too deeply"), which only compiling them tells; no pattern this long or
// shorter comes near either limit, so the page can decide about a pattern without RE2.
const MaxPatternLength = 1000

// JSON Schema patterns are ECMA-262 regular expressions; Go has RE2. The common subset means
// the same in both (\d and \w are ASCII in both, ^ and $ anchor the whole string), so a
// pattern is passed through except for the few spellings below, rewritten to mean what they
// mean in ECMAScript. Lookaround and backreferences have no RE2 equivalent: they are refused
// at compile time, by name, rather than reported as an "invalid" pattern. The other way
// round, RE2-only syntax that ECMAScript calls an error ((?i), \A, \z, (?P<name>…)) is
// accepted, though an ECMAScript validator would refuse the schema.

// compilePattern compiles an ECMA-262 pattern with RE2 (see translatePattern). Like any
// ECMAScript pattern it is not anchored: it must match somewhere in the string.
func compilePattern(s *site, v any) (check, error) {
	src := v.(string) // checkValue has checked
	if n := utf8.RuneCountInString(src); n > MaxPatternLength {
		return nil, s.bad("pattern", fmt.Sprintf(msgPatternLong, n, MaxPatternLength))
	}
	re2, feature := translatePattern(src)
	if feature != "" {
		return nil, s.bad("pattern", fmt.Sprintf(msgPatternUses, src, feature))
	}
	re, err := regexp.Compile(re2)
	if err != nil {
		// Only the error's code: its excerpt would quote the translated pattern.
		why := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			why = string(se.Code)
		}
		return nil, s.bad("pattern", fmt.Sprintf(msgPatternWrong, src)+": "+why)
	}
	rep := repetitionProduct(re2)
	if rep > MaxPatternRepetition {
		return nil, s.bad("pattern", fmt.Sprintf(msgPatternRepetition, src, rep, MaxPatternRepetition))
	}
	return func(v any, at string, b *budget) *InputError {
		x, ok := v.(string)
		if !ok {
			return nil
		}
		if e := b.spend(len(x), max(rep, 1), at, src); e != nil {
			return e
		}
		if !re.MatchString(x) {
			return fail(at, "pattern", "does not match %s", src)
		}
		return nil
	}, nil
}

// ecmaLookaround is the ECMAScript-only groups, by how they start.
var ecmaLookaround = []struct{ prefix, name string }{
	{"(?=", "lookahead"},
	{"(?!", "negative lookahead"},
	{"(?<=", "lookbehind"},
	{"(?<!", "negative lookbehind"},
}

// ecmaSpace is what ECMAScript's \s matches (WhiteSpace and LineTerminator, Unicode spaces
// included), as RE2 class ranges; RE2's own \s is ASCII only. ecmaNonSpace is its complement,
// for \S inside a class.
const (
	ecmaSpace    = `\t-\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	ecmaNonSpace = `\x00-\x08\x0e-\x1f\x21-\x{9f}\x{a1}-\x{167f}\x{1681}-\x{1fff}\x{200b}-\x{2027}` +
		`\x{202a}-\x{202e}\x{2030}-\x{205e}\x{2060}-\x{2fff}\x{3001}-\x{fefe}\x{ff00}-\x{10ffff}`
	// ecmaDot is ECMAScript's . : anything but a line terminator (RE2's stops only at \n).
	ecmaDot = `[^\n\r\x{2028}\x{2029}]`
)

// translatePattern rewrites an ECMA-262 pattern as RE2 syntax: . and \s with ECMAScript's
// meaning, \uXXXX and \u{X}, \cX, \0, [\b], the empty class [] and the any class [^], and a
// literal [ inside a class (RE2 would read [[:alpha:]] as a POSIX class). It returns the
// name of the first ECMAScript-only feature instead, if it meets one.
func translatePattern(src string) (re2, feature string) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); {
		rest := src[i:]
		n := 1
		switch c := rest[0]; {
		case c == '\\':
			if n, feature = translateEscape(&b, rest, inClass); feature != "" {
				return "", feature
			}
		case inClass && c == ']':
			inClass = false
			b.WriteByte(c)
		case inClass && c == '[':
			b.WriteString(`\[`)
		case inClass:
			b.WriteByte(c)
		case c == '(':
			for _, l := range ecmaLookaround {
				if strings.HasPrefix(rest, l.prefix) {
					return "", l.name
				}
			}
			b.WriteByte(c)
		case c == '.':
			b.WriteString(ecmaDot)
		case c == '[':
			n, inClass = openClass(&b, rest)
		default:
			b.WriteByte(c)
		}
		i += n
	}
	return b.String(), ""
}

// openClass writes the start of a class at rest ("[..."): the empty class [] matches
// nothing and [^] matches anything, where RE2 would read the ] as a literal.
func openClass(b *strings.Builder, rest string) (n int, inClass bool) {
	switch {
	case strings.HasPrefix(rest, "[]"):
		b.WriteString(`[^\x00-\x{10ffff}]`)
		return 2, false
	case strings.HasPrefix(rest, "[^]"):
		b.WriteString(`(?s:.)`)
		return 3, false
	case strings.HasPrefix(rest, "[^"):
		b.WriteString("[^")
		return 2, true
	}
	b.WriteByte('[')
	return 1, true
}

// translateEscape writes the escape at rest ("\..."), returning how many bytes it read, or
// the name of an ECMAScript-only feature. Escapes RE2 shares pass through as they are, and
// RE2 reports the ones that are invalid in both.
func translateEscape(b *strings.Builder, rest string, inClass bool) (int, string) {
	if len(rest) < 2 {
		b.WriteString(rest)
		return len(rest), ""
	}
	switch c := rest[1]; {
	case c >= '1' && c <= '9' && !inClass:
		return 0, "a backreference"
	case c == 'k' && strings.HasPrefix(rest[2:], "<") && !inClass:
		return 0, "a named backreference"
	case c == 'u':
		return translateUnicodeEscape(b, rest), ""
	case c == 's' && inClass:
		b.WriteString(ecmaSpace)
	case c == 'S' && inClass:
		b.WriteString(ecmaNonSpace)
	case c == 's':
		b.WriteString("[" + ecmaSpace + "]")
	case c == 'S':
		b.WriteString("[^" + ecmaSpace + "]")
	case c == 'b' && inClass:
		b.WriteString(`\x08`)
	case c == '0' && (len(rest) == 2 || rest[2] < '0' || rest[2] > '9'):
		b.WriteString(`\x00`)
	case c == 'c' && len(rest) > 2 && isASCIILetter(rest[2]):
		writeCodePoint(b, uint64(rest[2]%32))
		return 3, ""
	default:
		b.WriteString(rest[:2])
	}
	return 2, ""
}

// translateUnicodeEscape writes \uXXXX (a surrogate pair as one code point) or \u{X…} as
// RE2's \x{…}; anything else is passed on for RE2 to refuse.
func translateUnicodeEscape(b *strings.Builder, rest string) int {
	if strings.HasPrefix(rest, `\u{`) {
		if end := strings.IndexByte(rest, '}'); end > 3 {
			if r, err := strconv.ParseUint(rest[3:end], 16, 32); err == nil && r <= 0x10ffff {
				writeCodePoint(b, r)
				return end + 1
			}
		}
	} else if r, ok := hex4(rest[2:]); ok {
		if r >= 0xd800 && r < 0xdc00 && strings.HasPrefix(rest[6:], `\u`) {
			if lo, ok := hex4(rest[8:]); ok && lo >= 0xdc00 && lo < 0xe000 {
				writeCodePoint(b, 0x10000+(r-0xd800)<<10+(lo-0xdc00))
				return 12
			}
		}
		writeCodePoint(b, r)
		return 6
	}
	b.WriteString(rest[:2])
	return 2
}

// hex4 reads four hex digits.
func hex4(s string) (uint64, bool) {
	if len(s) < 4 {
		return 0, false
	}
	r, err := strconv.ParseUint(s[:4], 16, 32)
	return r, err == nil
}

func writeCodePoint(b *strings.Builder, r uint64) {
	b.WriteString(`\x{` + strconv.FormatUint(r, 16) + `}`)
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
