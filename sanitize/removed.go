package sanitize

import (
	"sort"
	"strings"

	nethtml "golang.org/x/net/html"
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
	tags, attrs map[string]int
}

func newMarkupCounts() *markupCounts {
	return &markupCounts{tags: map[string]int{}, attrs: map[string]int{}}
}

// attr counts an attribute unless it is one of linkAttrs, which the policy writes itself.
func (c *markupCounts) attr(k []byte) {
	a := string(k)
	for _, l := range linkAttrs {
		if l.Name == a {
			return
		}
	}
	c.attrs[a]++
}

// countMarkup tokenizes markup and counts its start tags and attributes.
func countMarkup(markup string) *markupCounts {
	c := newMarkupCounts()
	z := nethtml.NewTokenizer(strings.NewReader(markup))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return c
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			name, more := z.TagName()
			c.tags[string(name)]++
			for more {
				var k []byte
				k, _, more = z.TagAttr()
				c.attr(k)
			}
		}
	}
}

func removedBetween(in, out *markupCounts) string {
	var names []string
	total := 0
	for k, n := range in.tags {
		if d := n - out.tags[k]; d > 0 {
			names = append(names, "<"+k+">")
			total += d
		}
	}
	for k, n := range in.attrs {
		if d := n - out.attrs[k]; d > 0 {
			names = append(names, k+"=")
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
