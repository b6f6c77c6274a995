package inputschema

import (
	"strings"
	"unicode/utf8"
)

// MaxPatternRepetition is the largest repetition product a pattern may have: how many items
// (characters, classes, escapes, assertions) it holds once each counted repetition a{n,m} is
// written out m times (n times for a{n,}). RE2's matcher keeps up to that many states alive per
// character of the string, so the product times the string's length is the work of one check
// (see MaxPatternWork); a pattern over this bound could check only a few characters within it,
// so Compile refuses it. It is RE2's own bound on one counted repetition, 1000.
const MaxPatternRepetition = 1000

// MaxPatternWork bounds the pattern checks of one validation: the sum over every string checked
// against a pattern of its length in bytes times the pattern's repetition product. RE2's
// matcher in WebAssembly is slowest per unit on a pattern such as [a-z]{1000}! over a run of
// letters; 50,000 units keep even that validation to tens of milliseconds on the page's
// thread. Arguments past it are refused, not matched.
const MaxPatternWork = 50_000

// repetitionProduct is the repetition product (see MaxPatternRepetition) of re, RE2 text that
// regexp.Compile accepted. It reads re as the page's schema check reads it (schema-check.ts):
// an item is a character, a class [...], an escape (\p{Greek}, \x{41}, \d, \b, …) or a \Q…\E
// literal; a group adds what it holds; *, + and ? add nothing; a{n,m} multiplies by m (n when
// unbounded, at least 1); (?flags) alone holds nothing.
func repetitionProduct(re string) int {
	type frame struct{ sum, last int }
	stack := []frame{{}}
	add := func(n int) {
		top := &stack[len(stack)-1]
		top.sum, top.last = top.sum+n, n
	}
	for t := re; t != ""; {
		switch c := t[0]; {
		case c == '(':
			var group bool
			t, group = openGroup(t)
			if group {
				stack = append(stack, frame{})
			}
		case c == ')':
			inner := stack[len(stack)-1].sum
			stack = stack[:len(stack)-1]
			add(inner)
			t = t[1:]
		case c == '|':
			stack[len(stack)-1].last = 0
			t = t[1:]
		case c == '*' || c == '+' || c == '?':
			t = strings.TrimPrefix(t[1:], "?")
		case c == '{' && countedBounds(t) != "":
			factor, rest := countedFactor(t)
			top := &stack[len(stack)-1]
			top.sum += top.last*factor - top.last
			top.last *= factor
			t = strings.TrimPrefix(rest, "?")
		case c == '[':
			t = skipClass(t)
			add(1)
		case c == '\\' && strings.HasPrefix(t, `\Q`):
			lit, rest, _ := strings.Cut(t[2:], `\E`)
			if lit != "" {
				add(1)
			}
			t = rest
		case c == '\\':
			t = skipEscape(t)
			add(1)
		default:
			_, n := utf8.DecodeRuneInString(t)
			t = t[n:]
			add(1)
		}
	}
	return stack[0].sum
}

// openGroup reads a group's opening at t ("(", "(?:", "(?i:", "(?P<name>", "(?<name>") or flags
// alone ("(?i)"), and reports whether a group opened.
func openGroup(t string) (string, bool) {
	switch {
	case !strings.HasPrefix(t, "(?"):
		return t[1:], true
	case strings.HasPrefix(t, "(?P<"), strings.HasPrefix(t, "(?<"):
		return t[strings.IndexByte(t, '>')+1:], true
	}
	end := strings.IndexAny(t, ":)")
	return t[end+1:], t[end] == ':'
}

// countedBounds is the {n}, {n,} or {n,m} at the start of t, or "" when t does not start with
// one (then { is a literal).
func countedBounds(t string) string {
	i := 1
	digits := func() int {
		start := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return ""
	}
	if i < len(t) && t[i] == ',' {
		i++
		digits()
	}
	if i < len(t) && t[i] == '}' {
		return t[:i+1]
	}
	return ""
}

// countedFactor is how many copies the counted repetition at the start of t makes: its
// maximum, its minimum when it has none, at least 1; and what follows it. RE2 has refused
// counts over 1000.
func countedFactor(t string) (int, string) {
	b := countedBounds(t)
	lo, hi, comma := strings.Cut(b[1:len(b)-1], ",")
	n := atoi(lo)
	if comma && hi != "" {
		n = atoi(hi)
	}
	return max(n, 1), t[len(b):]
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = min(n*10+int(c-'0'), 1_000_000)
	}
	return n
}

// skipClass returns what follows the class at t ("[…]"; a ] first in it is a literal).
func skipClass(t string) string {
	i := 1
	if strings.HasPrefix(t[i:], "^") {
		i++
	}
	for first := true; i < len(t); first = false {
		switch {
		case t[i] == ']' && !first:
			return t[i+1:]
		case t[i] == '\\':
			i += len(t[i:]) - len(skipEscape(t[i:]))
		default:
			i++
		}
	}
	return ""
}

// skipEscape returns what follows the escape at t ("\…"): \p{Name}, \pL, \x{…}, \xHH, an octal
// \0 to \777, or a backslash and one character.
func skipEscape(t string) string {
	if len(t) < 2 {
		return ""
	}
	switch c := t[1]; {
	case (c == 'p' || c == 'P' || c == 'x') && strings.HasPrefix(t[2:], "{"):
		if end := strings.IndexByte(t, '}'); end > 0 {
			return t[end+1:]
		}
	case c == 'p' || c == 'P':
		_, n := utf8.DecodeRuneInString(t[2:])
		return t[2+n:]
	case c == 'x':
		return t[min(4, len(t)):]
	case c >= '0' && c <= '7':
		i := 2
		for i < len(t) && i < 4 && t[i] >= '0' && t[i] <= '7' {
			i++
		}
		return t[i:]
	}
	_, n := utf8.DecodeRuneInString(t[1:])
	return t[1+n:]
}
