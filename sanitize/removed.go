package sanitize

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	nethtml "golang.org/x/net/html"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
)

// Removed compares markup before and after HTML and names what the sanitizer took out, for a
// notice such as "removed <script>, <iframe>, onerror= (3 in all)". It counts start tags and
// attribute names; the rel and target attributes the policy adds itself are not counted. It
// returns "" when nothing was removed.
func Removed(before, after string) string {
	return removedBetween(countMarkup(before), countMarkup(after))
}

// markupCounts counts start tags by name and attributes by name.
type markupCounts struct {
	tags, attrs counter
}

func newMarkupCounts() *markupCounts {
	return &markupCounts{tags: newCounter(countedTags()), attrs: newCounter(countedAttrs())}
}

// counter counts names: those of its table in an array, without hashing them (nameTable), any
// other in a map. A name already counted costs no allocation: the map holds pointers, and a
// lookup by string(bytes) does not copy the bytes.
type counter struct {
	table *nameTable
	known []int           // by index in table.names
	other map[string]*int // nil until a name not in the table comes
}

func newCounter(t *nameTable) counter { return counter{table: t, known: make([]int, len(t.names))} }

func (c *counter) add(name []byte) {
	if i := indexOf(c.table, name); i >= 0 {
		c.known[i]++
	} else if n := c.other[string(name)]; n != nil {
		*n++
	} else {
		c.addOther(string(name))
	}
}

func (c *counter) addString(name string) {
	if i := indexOf(c.table, name); i >= 0 {
		c.known[i]++
	} else if n := c.other[name]; n != nil {
		*n++
	} else {
		c.addOther(name)
	}
}

func (c *counter) addOther(name string) {
	if c.other == nil {
		c.other = map[string]*int{}
	}
	c.other[name] = new(1)
}

func (c *counter) get(name string) int {
	if i := indexOf(c.table, name); i >= 0 {
		return c.known[i]
	}
	if n := c.other[name]; n != nil {
		return *n
	}
	return 0
}

// each calls f with every name counted and its count.
func (c *counter) each(f func(name string, n int)) {
	for i, n := range c.known {
		if n > 0 {
			f(c.table.names[i], n)
		}
	}
	for k, n := range c.other {
		f(k, *n)
	}
}

// attr counts an attribute unless it is one of linkAttrs, which the policy writes itself.
func (c *markupCounts) attr(k []byte) {
	if !isLinkAttr(string(k)) {
		c.attrs.add(k)
	}
}

// attrString is attr for a name held as a string.
func (c *markupCounts) attrString(a string) {
	if !isLinkAttr(a) {
		c.attrs.addString(a)
	}
}

func isLinkAttr(a string) bool {
	for _, l := range linkAttrs {
		if l.Name == a {
			return true
		}
	}
	return false
}

// countMarkup counts markup's start tags and attributes as x/net/html's tokenizer reads them,
// reading each tag's name and attributes from its raw bytes (readRawTag) so that counting
// allocates nothing for names already seen. Markup made of text and tags only — no comment,
// doctype or processing instruction, no element whose content the tokenizer reads as raw text
// (script, style, textarea, …), every tag closed — is scanned directly (scanTags), without the
// tokenizer's byte-by-byte states; anything else is tokenized.
func countMarkup(markup string) *markupCounts {
	if c, ok := scanTags(markup); ok {
		return c
	}
	c := newMarkupCounts()
	var names rawTagNames
	z := nethtml.NewTokenizer(strings.NewReader(markup))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return c
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			readRawTag(&names, z.Raw(), c)
		}
	}
}

// scanTags counts the start tags and attributes of markup that holds only text and closed
// start and end tags, and reports false for anything else (the counts are then incomplete).
// From "<" and a letter to its ">" a tag is read as the tokenizer reads it (readRawTag), so a
// quoted attribute value may hold "<" and ">"; after the start tag of an element whose content
// the tokenizer reads as raw text (script, style, textarea, …) that content is skipped to its
// end tag (rawTextEnd).
func scanTags(markup string) (*markupCounts, bool) {
	c := newMarkupCounts()
	var names rawTagNames
	for i := 0; ; {
		lt := strings.IndexByte(markup[i:], '<')
		if lt < 0 {
			return c, true
		}
		i += lt
		if i+1 >= len(markup) {
			return c, true // a "<" that ends the text
		}
		switch next := markup[i+1]; {
		case isASCIILetter(next):
			end := readRawTag(&names, markup[i:], c)
			if end >= len(markup)-i {
				return c, false // unclosed at the end: the tokenizer drops it
			}
			i += end + 1
			if rawTextElement(names.name) {
				skip, ok := rawTextEnd(markup[i:], names.name)
				if !ok {
					return c, false
				}
				i += skip
			}
		case next == '/' && i+2 < len(markup) && isASCIILetter(markup[i+2]):
			end := readRawTag(&names, markup[i+1:], nil) // an end tag's attributes count for nothing
			if end >= len(markup)-i-1 {
				return c, false
			}
			i += end + 2
		case next == '!' || next == '?' || next == '/':
			return c, false // a comment, doctype, processing instruction or bogus comment
		default:
			i++ // "<" and anything else is text
		}
	}
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// rawTextEnd returns the length of the raw text at the start of s that follows a start tag
// named name: up to the first "</name" (in any case) that a space, "/" or ">" follows, or all of
// s. It reports false for plaintext (raw to the end, whatever follows) and for script content
// with "<!" before its end, where the tokenizer's escaped script states decide.
func rawTextEnd(s string, name []byte) (int, bool) {
	if string(name) == "plaintext" {
		return 0, false
	}
	for i := 0; ; {
		lt := strings.Index(s[i:], "</")
		if lt < 0 {
			return len(s), string(name) != "script" || !strings.Contains(s, "<!")
		}
		i += lt
		if string(name) == "script" && strings.Contains(s[:i], "<!") {
			return 0, false
		}
		after := i + 2 + len(name)
		if after < len(s) && strings.EqualFold(s[i+2:after], string(name)) &&
			(isTagSpace(s[after]) || s[after] == '/' || s[after] == '>') {
			return i, true
		}
		i += 2
	}
}

// rawTextElement reports whether the tokenizer reads what follows a start tag of this name (in
// lower case) as raw text or RCDATA rather than markup.
func rawTextElement(name []byte) bool {
	switch string(name) {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return true
	}
	return false
}

// rawTagNames holds the buffers readRawTag reuses from tag to tag.
type rawTagNames struct {
	name []byte   // the tag's name, in lower case, after readRawTag
	seen [][]byte // the tag's attribute names so far, in keys
	keys []byte
}

func isTagSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// normalName appends b to dst in ASCII lower case, NUL as U+FFFD when nul is set.
func normalName[T string | []byte](dst []byte, b T, nul bool) []byte {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0 && nul:
			dst = append(dst, "\ufffd"...)
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// readRawTag reads the tag that raw starts with ("<a href=x>…", or "/a>…" for an end tag's
// name on) as x/net/html's tokenizer does (the WHATWG tag states): names in ASCII lower case
// with NUL as U+FFFD, an attribute whose name repeats an earlier one in the tag ignored. It
// counts the tag and its attributes into c (unless c is nil), leaves the name in t.name, and
// returns the index of the ">" that ends the tag, or len(raw) when none does.
func readRawTag[T string | []byte](t *rawTagNames, raw T, c *markupCounts) int {
	i, n := 1, len(raw)
	skipSpace := func() {
		for i < n && isTagSpace(raw[i]) {
			i++
		}
	}
	for i < n && !isTagSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	t.name = normalName(t.name[:0], raw[1:i], true)
	if c != nil {
		c.tags.add(t.name)
	}
	t.seen, t.keys = t.seen[:0], t.keys[:0]
	for skipSpace(); i < n && raw[i] != '>'; skipSpace() {
		start := i
		for i < n && (i == start && raw[i] == '=' || !isTagSpace(raw[i]) && raw[i] != '=' && raw[i] != '/' && raw[i] != '>') {
			i++
		}
		key := raw[start:i]
		i = skipAttrValue(raw, i)
		if len(key) == 0 || c == nil {
			continue
		}
		// A repeat is told by the name in lower case; it is counted with NUL as U+FFFD, too.
		at := len(t.keys)
		t.keys = normalName(t.keys, key, false)
		k := t.keys[at:]
		if slices.ContainsFunc(t.seen, func(s []byte) bool { return string(s) == string(k) }) {
			continue
		}
		t.seen = append(t.seen, k)
		if bytes.IndexByte(k, 0) >= 0 {
			k = normalName(nil, key, true)
		}
		c.attr(k)
	}
	return i
}

// skipAttrValue returns the index in raw after the value that may follow an attribute name
// ending at i: nothing, "/", or "=" and a quoted or unquoted value.
func skipAttrValue[T string | []byte](raw T, i int) int {
	n := len(raw)
	for i < n && isTagSpace(raw[i]) {
		i++
	}
	if i >= n {
		return i
	}
	switch raw[i] {
	case '/':
		return i + 1
	case '=':
		i++
	default:
		return i
	}
	for i < n && isTagSpace(raw[i]) {
		i++
	}
	if i >= n {
		return i
	}
	switch q := raw[i]; q {
	case '>':
		return i
	case '"', '\'':
		for j := i + 1; j < n; j++ {
			if raw[j] == q {
				return j + 1
			}
		}
		return n
	}
	for i < n && !isTagSpace(raw[i]) && raw[i] != '>' {
		i++
	}
	return i
}

// markupName is a tag or attribute name as a notice names it: a plain word of at most 16
// lower-case letters and digits (every element and attribute HTML, SVG and MathML define that a
// sanitizer removes, such as script or onerror) bare, anything else — a custom name can carry
// colons, commas and a sentence — quoted as page text.
func markupName(k string) string {
	if len(k) > 16 || k == "" || k[0] < 'a' || k[0] > 'z' {
		return pagetext.Quote(k)
	}
	for i := 1; i < len(k); i++ {
		if c := k[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return pagetext.Quote(k)
		}
	}
	return k
}

func removedBetween(in, out *markupCounts) string {
	var names []string
	total := 0
	in.tags.each(func(k string, n int) {
		if d := n - out.tags.get(k); d > 0 {
			names = append(names, "<"+markupName(k)+">")
			total += d
		}
	})
	in.attrs.each(func(k string, n int) {
		if d := n - out.attrs.get(k); d > 0 {
			names = append(names, markupName(k)+"=")
			total += d
		}
	})
	if total == 0 {
		return ""
	}
	sort.Sort(sort.StringSlice(names))
	const shown = 6
	list := names
	if len(list) > shown {
		list = list[:shown]
	}
	s := strings.Join(list, ", ")
	if len(names) > shown {
		s += ", …"
	}
	if total > 1 {
		s += " (" + FormatCount(int64(total)) + " in all)"
	}
	return s
}
