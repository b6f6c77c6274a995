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
	return &markupCounts{tags: counter{}, attrs: counter{}}
}

// counter counts names. A name already counted costs no allocation: the map holds pointers,
// and a lookup by string(bytes) does not copy the bytes.
type counter map[string]*int

func (c counter) add(name []byte) {
	if n := c[string(name)]; n != nil {
		*n++
		return
	}
	c[string(name)] = new(1)
}

func (c counter) addString(name string) {
	if n := c[name]; n != nil {
		*n++
		return
	}
	c[name] = new(1)
}

func (c counter) get(name string) int {
	if n := c[name]; n != nil {
		return *n
	}
	return 0
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

// countMarkup tokenizes markup and counts its start tags and attributes, reading each tag's
// name and attributes from its raw bytes (rawTagNames) so that counting allocates nothing for
// names already seen.
func countMarkup(markup string) *markupCounts {
	c := newMarkupCounts()
	var names rawTagNames
	z := nethtml.NewTokenizer(strings.NewReader(markup))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return c
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			names.read(z.Raw(), c)
		}
	}
}

// rawTagNames reads the tag name and attribute names of a start tag's raw bytes ("<a href=x>")
// as x/net/html's tokenizer does (the WHATWG tag states): names in ASCII lower case with NUL as
// U+FFFD, an attribute whose name repeats an earlier one in the tag ignored. Its buffers are
// reused from tag to tag.
type rawTagNames struct {
	name []byte   // the name being counted
	seen [][]byte // the tag's attribute names so far, in keys
	keys []byte
}

func isTagSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// normalName appends b to dst in ASCII lower case, NUL as U+FFFD when nul is set.
func normalName(dst, b []byte, nul bool) []byte {
	for _, c := range b {
		switch {
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

// read counts the tag in raw, which starts with "<" and ends with ">".
func (t *rawTagNames) read(raw []byte, c *markupCounts) {
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
	c.tags.add(t.name)
	t.seen, t.keys = t.seen[:0], t.keys[:0]
	for skipSpace(); i < n && raw[i] != '>'; skipSpace() {
		start := i
		for i < n && (i == start && raw[i] == '=' || !isTagSpace(raw[i]) && raw[i] != '=' && raw[i] != '/' && raw[i] != '>') {
			i++
		}
		key := raw[start:i]
		i = skipAttrValue(raw, i)
		if len(key) == 0 {
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
			t.name = normalName(t.name[:0], key, true)
			k = t.name
		}
		c.attr(k)
	}
}

// skipAttrValue returns the index in raw after the value that may follow an attribute name
// ending at i: nothing, "/", or "=" and a quoted or unquoted value.
func skipAttrValue(raw []byte, i int) int {
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
		if j := bytes.IndexByte(raw[i+1:], q); j >= 0 {
			return i + 1 + j + 1
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
	for k, n := range in.tags {
		if d := *n - out.tags.get(k); d > 0 {
			names = append(names, "<"+markupName(k)+">")
			total += d
		}
	}
	for k, n := range in.attrs {
		if d := *n - out.attrs.get(k); d > 0 {
			names = append(names, markupName(k)+"=")
			total += d
		}
	}
	if total == 0 {
		return ""
	}
	sort.Strings(names)
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
