package sanitize

import (
	"strconv"
	"strings"

	nethtml "golang.org/x/net/html"
)

// tag reads a tag in the form x/net/html's Token.String writes it — "<name>", "</name>",
// "<name/>", each name followed by ` key="escaped value"` pairs — and writes what of it a
// person sees: a hidden element and everything inside it are left out (counted, so Removed
// does not name them), the hidden and style attributes are dropped, a link gets its marks, and
// the Markdown renders it. It reports false for anything else. It reads the tag in one pass of
// its own, without a call per piece: it runs for every tag of the output, and in WebAssembly
// calls are dear.
func (w *renderingWriter) tag(s string) bool {
	n := len(s)
	if n < 3 || s[n-1] != '>' {
		return false
	}
	body := s[1 : n-1]
	end := body[0] == '/'
	if end {
		body = body[1:]
	} else if body[len(body)-1] == '/' {
		body = body[:len(body)-1] // a self-closing tag is read as a start tag, as browsers do
	}
	sp := 0
	for sp < len(body) && body[sp] != ' ' {
		sp++
	}
	name := body[:sp]
	if name == "" {
		return false
	}
	if end {
		if w.hidden.active() {
			w.hidden.endTag(name)
			return true
		}
		if !keptElement(name) {
			w.space() // an element kept only to be judged: dropped as bluemonday drops it
			return true
		}
		w.html.WriteString(s)
		if w.r != nil {
			w.r.element(name, true, nil) // an end tag's attributes neither render nor count
		}
		return true
	}
	attrs := ""
	if sp < len(body) {
		attrs = body[sp+1:]
	}
	var a mdAttrs
	var hiddenAttr bool
	var style string
	var judged []int // offsets in s of the hidden and style attributes: [start, end) pairs
	mark := noMark
	for off := 1 + sp + 1; attrs != ""; {
		// The key runs to the first `="` and holds no space or quote; the value to the next quote.
		eq := 0
		for ; eq+1 < len(attrs) && (attrs[eq] != '=' || attrs[eq+1] != '"'); eq++ {
			if attrs[eq] == ' ' || attrs[eq] == '"' {
				return false
			}
		}
		if eq+1 >= len(attrs) {
			return false
		}
		k, rest := attrs[:eq], attrs[eq+2:]
		q := strings.IndexByte(rest, '"')
		if q < 0 || q+1 < len(rest) && rest[q+1] != ' ' {
			return false
		}
		v := rest[:q]
		used := min(eq+2+q+2, len(attrs))
		switch k {
		case "hidden":
			hiddenAttr = true
			judged = append(judged, off-1, off+eq+2+q+1)
		case "style": // never written; read only when it may hide (or show) the element
			if u := nethtml.UnescapeString(v); judgedStyle(u) {
				style = u
			}
			judged = append(judged, off-1, off+eq+2+q+1)
		case "href":
			if name == "a" {
				a.href = nethtml.UnescapeString(v)
				mark = markFor(a.href, mark)
			}
		case "alt":
			a.alt = nethtml.UnescapeString(v)
		case "src":
			a.src = nethtml.UnescapeString(v)
		case "start":
			a.start, a.hasStart = atoi(v)
		case "value":
			a.value, a.hasVal = atoi(v)
		case "reversed":
			a.reversed = true
		case "colspan":
			a.colspan, _ = atoi(v)
		case "rowspan":
			a.rowspan, _ = atoi(v)
		}
		attrs = attrs[used:]
		off += used
	}
	if w.hidden.active() && w.hidden.startTag(name) {
		w.count(name, s, nil)
		return true
	}
	hides := name == "template"
	if hiddenAttr || style != "" {
		h, shows := styleHides(style)
		hides = hides || h || hiddenAttr && !shows
	}
	if hides {
		w.hiddenCount++
		w.count(name, s, nil)
		w.hidden.begin(name)
		return true
	}
	if name != "template" && !keptElement(name) {
		w.space() // an element kept only to be judged: dropped as bluemonday drops it
		return true
	}
	w.count(name, s, judged)
	if len(judged) > 0 {
		w.tagBuf = appendCut(w.tagBuf[:0], s, judged)
		writeMarked(&w.html, string(w.tagBuf), mark)
	} else {
		writeMarked(&w.html, s, mark)
	}
	if w.r != nil {
		w.r.element(name, false, &a)
	}
	return true
}

// space writes the space bluemonday writes for a tag it drops, into the markup and the text.
func (w *renderingWriter) space() {
	w.html.WriteByte(' ')
	if w.r != nil {
		w.r.text(" ")
	}
}

// count counts a start tag as written (s) and its attributes, less those in the ranges skip.
func (w *renderingWriter) count(name, s string, skip []int) {
	if w.counts == nil {
		return
	}
	w.counts.tags.addString(name)
	i := 1 + len(name)
	for i < len(s) && s[i] == ' ' {
		skipped := false
		for j := 0; j < len(skip); j += 2 {
			if skip[j] == i {
				i, skipped = skip[j+1], true
				break
			}
		}
		if skipped {
			continue
		}
		eq := strings.Index(s[i:], `="`)
		if eq < 0 {
			return
		}
		w.counts.attrString(s[i+1 : i+eq])
		q := strings.IndexByte(s[i+eq+2:], '"')
		if q < 0 {
			return
		}
		i += eq + 2 + q + 1
	}
}

// appendCut appends s without the byte ranges [r[0], r[1]), [r[2], r[3]), … (ascending).
func appendCut(b []byte, s string, r []int) []byte {
	at := 0
	for i := 0; i+1 < len(r); i += 2 {
		b = append(b, s[at:r[i]]...)
		at = r[i+1]
	}
	return append(b, s[at:]...)
}

// atoi reads an integer attribute's value.
func atoi(v string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, err == nil
}
