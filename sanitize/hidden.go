package sanitize

import (
	"strconv"
	"strings"
)

// What a person would not see is dropped from the sanitized markup and from the model's text
// alike, decided element by element as bluemonday writes (renderingWriter): an element with the
// hidden attribute (unless its own style sets another display), with an inline style whose
// display is none, whose visibility is hidden or collapse, whose content-visibility is hidden,
// whose opacity is zero or whose font size is zero, and a template element — each with
// everything inside it. The policy lets the hidden and style attributes through to the writer,
// which reads them and writes neither.

// styleHides reports whether an inline style attribute's value (unescaped) hides its element
// from a person: display none, visibility hidden or collapse, content-visibility hidden,
// opacity at most zero, or a zero font size (font-size or the font shorthand). It reads the
// declarations as CSS does — comments ignored, property names and keywords in any case, CSS
// escapes resolved, the last declaration of a property winning unless an earlier one is
// !important and it is not — and ignores declarations whose values it cannot read, as a
// browser ignores invalid ones. With display set to another valid display it reports shows,
// which overrides the hidden attribute as an author style overrides the user agent's.
func styleHides(style string) (hides, shows bool) {
	var display, visibility, contentVis, opacity, fontSize cssValue
	for rest, more := stripCSSComments(style), true; more; {
		var decl string
		decl, rest, more = strings.Cut(rest, ";")
		name, value, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		name = strings.ToLower(strings.TrimSpace(unescapeCSS(name)))
		v := cssValue{set: true}
		v.value, v.important = cutImportant(strings.ToLower(strings.TrimSpace(unescapeCSS(value))))
		switch name {
		case "display":
			display.update(v)
		case "visibility":
			visibility.update(v)
		case "content-visibility":
			contentVis.update(v)
		case "opacity":
			opacity.update(v)
		case "font-size":
			fontSize.update(v)
		case "font":
			if fontShorthandZero(v.value) {
				fontSize.update(cssValue{set: true, value: "0", important: v.important})
			} else {
				fontSize.update(cssValue{set: true, value: "medium", important: v.important})
			}
		}
	}
	hides = display.value == "none" ||
		visibility.value == "hidden" || visibility.value == "collapse" ||
		contentVis.value == "hidden" ||
		opacity.set && zeroOpacity(opacity.value) ||
		fontSize.set && zeroLength(fontSize.value)
	return hides, display.set && displayKeyword(display.value)
}

// cssValue is one property's declared value in a style attribute.
type cssValue struct {
	value          string
	set, important bool
}

// update sets the value to v unless the value is !important and v is not.
func (c *cssValue) update(v cssValue) {
	if !c.important || v.important {
		*c = v
	}
}

// cutImportant removes a trailing "!important" (spaces allowed after "!"), lower-cased, and
// reports whether there was one.
func cutImportant(v string) (string, bool) {
	rest, ok := strings.CutSuffix(v, "important")
	if !ok {
		return v, false
	}
	rest = strings.TrimRight(rest, " \t\n\r\f")
	if rest, ok = strings.CutSuffix(rest, "!"); !ok {
		return v, false
	}
	return strings.TrimSpace(rest), true
}

// stripCSSComments replaces each /* … */ comment (an unterminated one runs to the end) by a
// space: a comment ends the token before it, as CSS tokenizing reads it ("no/**/ne" is two
// words, not none).
func stripCSSComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteByte(' ')
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}

// unescapeCSS resolves CSS escapes: a backslash and one to six hex digits (and one white space
// after them) is that code point, a backslash and any other character is that character.
func unescapeCSS(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		j := i + 1
		for j < len(s) && j < i+7 && isHexDigit(s[j]) {
			j++
		}
		if j == i+1 {
			b.WriteByte(s[j]) // an escaped character stands for itself
			i = j
			continue
		}
		n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
		if n == 0 || n > 0x10FFFF || 0xD800 <= n && n <= 0xDFFF {
			n = 0xFFFD
		}
		b.WriteRune(rune(n))
		if j < len(s) && isTagSpace(s[j]) {
			j++
		}
		i = j - 1
	}
	return b.String()
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// zeroOpacity reports whether an opacity value is a number or percentage at most zero.
func zeroOpacity(v string) bool {
	n, ok := cssNumber(strings.TrimSuffix(v, "%"))
	return ok && n <= 0
}

// zeroLength reports whether a font size is zero: a zero number with or without a unit.
func zeroLength(v string) bool {
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || v[i] == '+' || v[i] == '-') {
		i++
	}
	if i == 0 {
		return false
	}
	n, ok := cssNumber(v[:i])
	if !ok || n != 0 {
		return false
	}
	unit := v[i:]
	for j := 0; j < len(unit); j++ {
		if c := unit[j]; (c < 'a' || c > 'z') && c != '%' {
			return false
		}
	}
	return true
}

// fontShorthandZero reports whether a font shorthand's size (the token before the family,
// with an optional /line-height) is zero.
func fontShorthandZero(v string) bool {
	for _, tok := range strings.Fields(v) {
		size, _, _ := strings.Cut(tok, "/")
		if zeroLength(size) {
			return true
		}
	}
	return false
}

func cssNumber(s string) (float64, bool) {
	n, err := strconv.ParseFloat(s, 64)
	return n, err == nil && !strings.ContainsAny(s, "xXpPiInN_")
}

// displayKeyword reports whether a display value shows an element: a display type a browser
// accepts other than none, or a global keyword that does not revert to the user agent's none.
func displayKeyword(v string) bool {
	switch v {
	case "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid", "flow-root",
		"list-item", "contents", "table", "inline-table", "table-row", "table-cell", "table-row-group",
		"table-header-group", "table-footer-group", "table-column", "table-column-group", "table-caption",
		"ruby", "ruby-text", "run-in", "flow", "initial", "unset", "inherit", "math":
		return true
	}
	return false
}

// voidElement reports whether an element of this name has no content and no end tag.
func voidElement(name string) bool {
	switch name {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}

// hiddenSubtree follows the elements open inside a hidden element, from its start tag to the
// end tag that closes it, as a browser's tree builder would close them: an end tag closes the
// nearest open element of its name unless a table or cell stands between them, and a start tag
// may close open elements first (an li the open li, a block the open p, a cell the open cell).
// Markup it cannot follow keeps it open, so the rest is dropped too: never less than a browser
// hides.
type hiddenSubtree struct {
	open []string
}

// active reports whether a hidden element is open.
func (h *hiddenSubtree) active() bool { return len(h.open) > 0 }

// start opens the hidden element name (a void element hides only itself).
func (h *hiddenSubtree) begin(name string) {
	if !voidElement(name) {
		h.open = append(h.open[:0], name)
	}
}

// startTag takes a start tag inside the hidden element and reports whether it still is: a
// start tag that closes the hidden element itself (an li after a hidden li) ends it, and the
// tag is then not part of it.
func (h *hiddenSubtree) startTag(name string) bool {
	h.open = h.open[:impliedClose(h.open, name)]
	if len(h.open) == 0 {
		return false
	}
	if !voidElement(name) {
		h.open = append(h.open, name)
	}
	return true
}

// endTag takes an end tag inside the hidden element; afterwards active says whether it is
// still open.
func (h *hiddenSubtree) endTag(name string) {
	for i := len(h.open) - 1; i >= 0; i-- {
		if h.open[i] == name {
			h.open = h.open[:i]
			return
		}
		if scopeBoundary(h.open[i]) {
			return // a browser ignores it: the element is not in scope
		}
	}
}

// scopeBoundary reports whether an end tag for an element outside this one is ignored inside
// it (the HTML parser's "has an element in scope", for the elements sanitized markup holds).
func scopeBoundary(name string) bool {
	switch name {
	case "table", "td", "th", "caption", "template":
		return true
	}
	return false
}

// impliedClose returns how many of the open elements stay open when a start tag of name
// arrives: those the tree builder would close first are cut (an open li by an li, an open dt or
// dd by either, an open p by a block, an open cell or row by a cell or row).
func impliedClose(open []string, name string) int {
	kind := closingKind(name)
	if kind == 0 {
		return len(open)
	}
	for i := len(open) - 1; i >= 0; i-- {
		e := open[i]
		if closingKind(e) == kind && (kind != 'p' || e == "p") {
			return i
		}
		if closeBoundary(kind, e) {
			break
		}
	}
	return len(open)
}

// closingKind groups the start tags that close an open element of their group: 'l' li, 'd'
// dt and dd, 'c' cells, 'r' rows, 's' table sections, 'p' what closes a p (and p itself); 0
// for the rest.
func closingKind(name string) byte {
	switch name {
	case "li":
		return 'l'
	case "dt", "dd":
		return 'd'
	case "td", "th":
		return 'c'
	case "tr":
		return 'r'
	case "thead", "tbody", "tfoot":
		return 's'
	}
	if closesP(name) {
		return 'p'
	}
	return 0
}

// closeBoundary reports whether an open element e keeps a start tag of kind from closing what
// is open outside it.
func closeBoundary(kind byte, e string) bool {
	switch e {
	case "table", "template":
		return true
	case "td", "th", "caption":
		return kind != 'c' && kind != 'r' && kind != 's'
	case "ul", "ol":
		return kind == 'l'
	case "dl":
		return kind == 'd'
	case "tr":
		return kind == 'c'
	}
	return false
}

// closesP reports whether a start tag of name closes an open p.
func closesP(name string) bool {
	switch name {
	case "address", "article", "aside", "blockquote", "details", "div", "dl", "figcaption", "figure",
		"footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "nav", "ol", "p",
		"pre", "section", "summary", "table", "ul":
		return true
	}
	return false
}
