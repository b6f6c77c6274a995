package sanitize

import (
	"strconv"
	"strings"
)

// mdRenderer writes sanitized markup as GitHub-flavoured Markdown as its tokens come (one pass,
// nothing read twice): headings as #…######, lists with their markers and numbers and nested
// lists indented, tables as pipe tables (MarkdownTable's layout), links as [text](url), images
// as ![alt](url), code spans and fenced pre, quotes with "> ", <br> as a hard line break, and
// every other block on lines of its own, blocks apart by a blank line. Page text is escaped
// (appendEscapedText, lineStartEscape).
type mdRenderer struct {
	out     []byte // the Markdown written so far
	pending []byte // text written since the last tag (text)
	pbuf    []byte // a line's prefix, reused
	line    []byte // the current line's inline Markdown, without its prefix
	lineT   bool   // the line's first byte came from page text
	lineN   int    // lines written so far, so a link knows whether its text stayed on one line
	blank   bool   // a blank line is due before the next line
	// settled: the blank line due was written already (settle)
	settled bool
	// hardBreak: the last line written ends with a <br>'s backslash
	hardBreak bool

	boxes   []mdBox  // open quotes, lists and list items, outermost first
	items   int      // the list items among boxes
	heading int      // level of the open heading, 0 when none
	links   []mdLink // open links
	code    int      // depth of open code elements outside pre
	codeBuf []byte
	pre     int // depth of open pre elements
	preBuf  []byte
	table   *mdTable // the open table, or nil
	tbl     mdTable  // the table's buffers, reused
	lbuf    []byte   // a table line, reused
}

// mdBox is an open blockquote, list or list item.
type mdBox struct {
	kind     byte // 'q' quote, 'l' list, 'i' item
	ordered  bool
	reversed bool
	// countless: a reversed list without a start whose items so far had no value: bullets
	countless bool
	next      int    // the next item's number (ordered lists)
	marker    string // an item's marker, "- " or "3. "
	pending   bool   // the item's marker is still to be written
}

// mdLink is an open link: where its text starts in the line, and on which line.
type mdLink struct {
	href  string
	start int
	lineN int
}

// mdAttrs are the attributes the rendering reads.
type mdAttrs struct {
	href, alt, src   string
	start, value     int
	hasStart, hasVal bool
	reversed         bool
	colspan, rowspan int
}

// inCell reports whether inline content goes to a table's open cell rather than the line.
func (r *mdRenderer) inCell() bool { return r.table != nil && r.table.inCell }

// text takes a text write, unescaped. Writes that follow one another are one run of text, as
// a tokenizer reading the markup again would see them (bluemonday writes a space for a tag it
// drops, and nothing for content it skips): the run is rendered at the next tag (flushText), so
// that what page text becomes never depends on how it was written.
func (r *mdRenderer) text(t string) {
	r.pending = append(r.pending, t...)
}

// flushText renders the pending run of text: into pre verbatim, into code folded, else folded
// and escaped.
func (r *mdRenderer) flushText() {
	t := r.pending
	if len(t) == 0 {
		return
	}
	r.pending = t[:0]
	switch {
	case r.pre > 0 && !r.inCell():
		r.preBuf = append(r.preBuf, t...)
	case r.code > 0 || r.pre > 0:
		r.codeBuf = appendFolded(r.codeBuf, t, len(r.codeBuf) == 0 || r.codeBuf[len(r.codeBuf)-1] == ' ')
	default:
		if r.inCell() {
			r.table.cell = appendFoldedEscaped(r.table.cell, t, r.atSpace())
			return
		}
		empty := len(r.line) == 0
		r.line = appendFoldedEscaped(r.line, t, r.atSpace())
		if empty && len(r.line) > 0 {
			r.lineT = true
		}
	}
}

// atSpace reports whether the inline buffer is empty or ends with a space.
func (r *mdRenderer) atSpace() bool {
	b := r.line
	if r.inCell() {
		b = r.table.cell
	}
	return len(b) == 0 || b[len(b)-1] == ' '
}

// markup appends Markdown the renderer writes itself.
func (r *mdRenderer) markup(s string) {
	b := r.dst()
	*b = append(*b, s...)
}

// dst is the buffer inline content goes to, the open cell or the line; a line that starts
// here starts with the renderer's own Markdown, not page text.
func (r *mdRenderer) dst() *[]byte {
	if r.inCell() {
		return &r.table.cell
	}
	if len(r.line) == 0 {
		r.lineT = false
	}
	return &r.line
}

// appendFolded appends t with each run of HTML white space folded into one space, none at the
// start when space is set (the buffer already ends with one).
func appendFolded[T string | []byte](b []byte, t T, space bool) []byte {
	for i := 0; i < len(t); {
		if isTagSpace(t[i]) {
			if !space {
				b = append(b, ' ')
				space = true
			}
			i++
			continue
		}
		j := i + 1
		for j < len(t) && !isTagSpace(t[j]) {
			j++
		}
		b = append(b, t[i:j]...)
		space = false
		i = j
	}
	return b
}

// inList reports whether a list item is open: its blocks are apart by a line break, not a
// blank line, so they stay in the item.
func (r *mdRenderer) inList() bool { return r.items > 0 }

// pushBox opens a box inside the others.
func (r *mdRenderer) pushBox(b mdBox) {
	r.boxes = append(r.boxes, b)
	if b.kind == 'i' {
		r.items++
	}
}

// cutBoxes closes the boxes from the nth on.
func (r *mdRenderer) cutBoxes(n int) {
	for _, b := range r.boxes[n:] {
		if b.kind == 'i' {
			r.items--
		}
	}
	r.boxes = r.boxes[:n]
}

// maxPrefixDepth is how many quotes and list items deep a line's prefix goes: what is nested
// deeper is written at that depth (an item with its marker), so that deeply nested markup cannot
// make every line longer than the page (20,000 nested lists in 180 KB made 400 MB of Markdown).
const maxPrefixDepth = 16

// writePrefix writes the prefix of a line: each quote's "> ", each item's marker on its first
// line and its indent after; blank (a blank line) leaves out what only pads, and so does a
// line without content (trim).
func (r *mdRenderer) writePrefix(blank, trim bool) {
	p := r.pbuf[:0]
	shown := min(len(r.boxes), maxPrefixDepth)
	for i := range shown {
		b := &r.boxes[i]
		switch b.kind {
		case 'q':
			p = append(p, "> "...)
		case 'i':
			if b.pending && !blank {
				p = append(p, b.marker...)
				b.pending = false
			} else {
				for range len(b.marker) {
					p = append(p, ' ')
				}
			}
		}
	}
	if shown < len(r.boxes) {
		if b := &r.boxes[len(r.boxes)-1]; b.kind == 'i' && b.pending && !blank {
			p = append(p, b.marker...) // an item deeper than maxPrefixDepth: its marker at that depth
			b.pending = false
		}
	}
	if blank || trim {
		for len(p) > 0 && p[len(p)-1] == ' ' {
			p = p[:len(p)-1]
		}
	}
	r.out = append(r.out, p...)
	r.pbuf = p
}

// writeLine writes one line: the prefix, head (a heading's marker), then content with a
// backslash before content[esc] when esc >= 0; a blank line before it when one is due.
func (r *mdRenderer) writeLine(head string, content []byte, esc int) {
	if len(r.out) > 0 {
		r.out = append(r.out, '\n')
		if r.blank && !r.settled {
			r.writePrefix(true, true)
			r.out = append(r.out, '\n')
		}
	}
	r.blank, r.settled, r.hardBreak = false, false, false
	r.writePrefix(false, head == "" && len(content) == 0)
	r.out = append(r.out, head...)
	if esc >= 0 {
		r.out = append(r.out, content[:esc]...)
		r.out = append(r.out, '\\')
		content = content[esc:]
	}
	r.out = append(r.out, content...)
	r.lineN++
}

// settle writes a blank line that is due now, before a quote opens, so that it carries the
// prefix of the boxes around the quote and not the quote's.
func (r *mdRenderer) settle() {
	if r.blank && !r.settled && len(r.out) > 0 {
		r.out = append(r.out, '\n')
		r.writePrefix(true, true)
		r.settled = true
	}
}

// flush ends the current line: written (page text at its start escaped) when it holds
// anything, a heading's marker before it.
func (r *mdRenderer) flush() {
	line := trimSpaceBytes(r.line)
	if len(line) == 0 && r.hardBreak {
		// The paragraph ended after a <br>: a backslash that ends a paragraph is no break but
		// a backslash, so it goes.
		r.out = r.out[:len(r.out)-1]
		r.hardBreak = false
	}
	if len(line) > 0 {
		esc := -1
		if r.lineT {
			esc = lineStartEscape(line)
		}
		r.writeLine(headings[r.heading], line, esc)
	}
	r.line, r.lineT = r.line[:0], false
}

// headings are the markers of headings by level.
var headings = [...]string{"", "# ", "## ", "### ", "#### ", "##### ", "###### "}

func trimSpaceBytes(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// block ends the line at a block boundary: a blank line follows outside list items.
func (r *mdRenderer) block() {
	if r.inCell() {
		if !r.atSpace() {
			r.table.cell = append(r.table.cell, ' ')
		}
		return
	}
	r.flush()
	if !r.inList() {
		r.blank = true
	}
}

// element renders a start or end tag.
func (r *mdRenderer) element(tag string, end bool, a *mdAttrs) {
	r.flushText()
	if r.table != nil && r.tableTag(tag, end, a) {
		return
	}
	switch tag {
	case "a":
		r.link(end, a)
	case "img":
		if !end {
			r.image(a)
		}
	case "code", "pre":
		r.codeTag(tag, end)
	case "br":
		r.lineBreak()
	case "h1", "h2", "h3", "h4", "h5", "h6":
		if r.inCell() {
			r.block()
			return
		}
		r.flush()
		r.blank = true
		r.heading = 0
		if !end {
			r.heading = int(tag[1] - '0')
		}
	case "hr":
		if !r.inCell() {
			r.flush()
			r.blank = true
			r.writeLine("---", nil, -1)
			r.blank = true
		}
	case "ul", "ol":
		r.list(tag == "ol", end, a)
	case "li":
		r.item(end, a)
	case "blockquote":
		if r.inCell() {
			r.block()
			return
		}
		r.flush()
		r.blank = true
		if end {
			r.closeBox('q')
		} else {
			r.settle()
			r.pushBox(mdBox{kind: 'q'})
		}
	case "table":
		if !end {
			r.block()
			r.startTable()
		}
	default:
		if blockElement(tag) {
			r.block()
		}
	}
}

// link opens or closes a link: its text becomes [text](url) when it stayed on one line.
func (r *mdRenderer) link(end bool, a *mdAttrs) {
	if !end {
		if len(r.links) > 0 {
			r.link(true, nil) // a link inside a link closes it, as the HTML parser does
		}
		href := a.href
		if r.code > 0 || r.pre > 0 {
			href = "" // a link inside code is its text
		}
		start, n := len(r.line), r.lineN
		if r.inCell() {
			start, n = len(r.table.cell), -1
		}
		// A link without a URL is kept too, so that its end tag closes it and no other.
		r.links = append(r.links, mdLink{href: href, start: start, lineN: n})
		return
	}
	if len(r.links) == 0 {
		return
	}
	l := r.links[len(r.links)-1]
	r.links = r.links[:len(r.links)-1]
	if l.href == "" {
		return
	}
	buf, n := &r.line, r.lineN
	if r.inCell() {
		buf, n = &r.table.cell, -1
	}
	if n != l.lineN || l.start > len(*buf) {
		r.markup(" ") // its text did not stay on one line: the URL on its own
		r.markup("<")
		r.markup(l.href)
		r.markup(">")
		return
	}
	// [text](url), the bracket put in front of the text where it starts in the buffer.
	b := *buf
	for len(b) > l.start && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	start := l.start
	for start < len(b) && b[start] == ' ' {
		start++
	}
	if start == len(b) {
		b = appendEscapedText(b, l.href) // no text: the URL is its text
	}
	b = append(b, 0)
	copy(b[start+1:], b[start:])
	b[start] = '['
	b = append(b, "]("...)
	b = appendLinkDestination(b, l.href, r.inCell())
	b = append(b, ')')
	if start == 0 && !r.inCell() {
		r.lineT = false
	}
	*buf = b
}

// image writes ![alt](url): the URL when the rules kept one and it is not inline data, which
// is no text for a model; nothing for an image with neither.
func (r *mdRenderer) image(a *mdAttrs) {
	alt := strings.TrimSpace(collapseSpace(a.alt))
	src := a.src
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(src)), "data:") {
		src = ""
	}
	if r.code > 0 || r.pre > 0 {
		r.text(alt)
		return
	}
	if alt == "" && src == "" {
		return
	}
	b := r.dst()
	*b = append(*b, "!["...)
	*b = appendEscapedText(*b, alt)
	*b = append(*b, "]("...)
	*b = appendLinkDestination(*b, src, r.inCell())
	*b = append(*b, ')')
}

// codeTag opens or closes inline code or a pre block.
func (r *mdRenderer) codeTag(tag string, end bool) {
	if tag == "pre" && !r.inCell() {
		if !end {
			if r.pre == 0 {
				r.flush()
				r.blank = true
				r.preBuf = r.preBuf[:0]
			}
			r.pre++
			return
		}
		if r.pre == 0 {
			return
		}
		if r.pre--; r.pre == 0 {
			r.fence()
		}
		return
	}
	if r.pre > 0 && tag == "code" {
		return // code inside pre is the pre's
	}
	if !end {
		if r.code == 0 {
			r.codeBuf = r.codeBuf[:0]
		}
		r.code++
		return
	}
	if r.code == 0 {
		return
	}
	if r.code--; r.code == 0 {
		if code := trimSpaceBytes(r.codeBuf); len(code) > 0 {
			b := r.dst()
			*b = appendCodeSpan(*b, code, r.inCell())
		}
	}
}

// fence writes the pre's text as a fenced code block, its fence one backtick longer than the
// longest run inside it (three at least).
func (r *mdRenderer) fence() {
	body := string(r.preBuf)
	body = strings.TrimPrefix(body, "\n") // the HTML parser drops a newline that opens a pre
	body = strings.TrimPrefix(body, "\r")
	body = strings.TrimRight(body, "\n\r")
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	r.writeLine(fence, nil, -1)
	if body != "" {
		for rest, more := body, true; more; {
			var l string
			l, rest, more = strings.Cut(rest, "\n")
			r.writeLine(strings.TrimSuffix(l, "\r"), nil, -1)
		}
	}
	r.writeLine(fence, nil, -1)
	r.blank = true
}

// lineBreak writes <br>: a hard line break in a paragraph, a space in a heading or a cell.
func (r *mdRenderer) lineBreak() {
	switch {
	case r.pre > 0 && !r.inCell():
		r.preBuf = append(r.preBuf, '\n')
	case r.code > 0 || r.pre > 0:
		r.codeBuf = appendFolded(r.codeBuf, " ", len(r.codeBuf) == 0 || r.codeBuf[len(r.codeBuf)-1] == ' ')
	case r.inCell() || r.heading > 0:
		if !r.atSpace() {
			r.markup(" ")
		}
	case len(trimSpaceBytes(r.line)) == 0:
		r.flush()
		if !r.inList() {
			r.blank = true
		}
	case len(r.links) > 0:
		r.markup(" ") // a break inside a link's text would split the link
	default:
		r.line = append(trimSpaceBytes(r.line), '\\')
		r.flush()
		r.hardBreak = true
	}
}

// list opens or closes a list.
func (r *mdRenderer) list(ordered, end bool, a *mdAttrs) {
	if r.inCell() {
		r.block()
		return
	}
	r.flush()
	if end {
		r.closeBox('l')
		if !r.inList() {
			r.blank = true
		}
		return
	}
	if !r.inList() {
		r.blank = true
	}
	b := mdBox{kind: 'l', ordered: ordered, reversed: a.reversed, next: 1}
	if a.hasStart {
		b.next = a.start
	} else if a.reversed {
		// It counts down from the number of its items, which this one pass learns only at its
		// end: its items are written as bullets until one has a value to count down from.
		b.countless = true
	}
	r.pushBox(b)
}

// item opens or closes a list item; an item opens a list of its own when none is open.
func (r *mdRenderer) item(end bool, a *mdAttrs) {
	if r.inCell() {
		r.block()
		return
	}
	r.flush()
	if end {
		r.closeBox('i')
		return
	}
	l := -1
	for i := len(r.boxes) - 1; i >= 0; i-- {
		if r.boxes[i].kind == 'l' {
			l = i
			break
		}
		if r.boxes[i].kind == 'q' {
			break
		}
	}
	if l < 0 {
		r.pushBox(mdBox{kind: 'l', next: 1})
		l = len(r.boxes) - 1
	}
	r.cutBoxes(l + 1) // an item closes the open one, as the HTML parser does
	list := &r.boxes[l]
	marker := "- "
	if list.ordered && (!list.countless || a.hasVal) {
		list.countless = false
		n := list.next
		if a.hasVal {
			n = a.value
		}
		if 0 <= n && n <= 999_999_999 {
			marker = strconv.Itoa(n) + ". "
		}
		if list.reversed {
			list.next = n - 1
		} else {
			list.next = n + 1
		}
	}
	r.pushBox(mdBox{kind: 'i', marker: marker, pending: true})
}

// closeBox closes the innermost open box of kind and every box inside it; none closes when no
// box of kind is open.
func (r *mdRenderer) closeBox(kind byte) {
	for i := len(r.boxes) - 1; i >= 0; i-- {
		if r.boxes[i].kind == kind {
			if kind == 'i' && r.boxes[i].pending {
				// an empty item still shows its marker
				r.writeLine("", nil, -1)
			}
			r.cutBoxes(i)
			return
		}
	}
}

// finish closes what is still open and returns the Markdown.
func (r *mdRenderer) finish() string {
	r.flushText()
	if r.pre > 0 {
		r.pre = 0
		r.fence()
	}
	if r.code > 0 {
		r.code = 1
		r.codeTag("code", true)
	}
	for len(r.links) > 0 {
		r.link(true, nil)
	}
	if r.table != nil {
		r.endTable()
	}
	r.flush()
	return strings.Trim(string(r.out), "\n ")
}
