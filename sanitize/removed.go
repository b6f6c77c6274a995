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
	in, out := tagCounts(before), tagCounts(after)
	var names []string
	total := 0
	for k, c := range in {
		if d := c - out[k]; d > 0 {
			names = append(names, k)
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

// tagCounts counts "<tag>" for each start tag and "attr=" for each attribute in markup.
func tagCounts(markup string) map[string]int {
	counts := map[string]int{}
	z := nethtml.NewTokenizer(strings.NewReader(markup))
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return counts
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			name, more := z.TagName()
			counts["<"+string(name)+">"]++
			for more {
				var k []byte
				k, _, more = z.TagAttr()
				if a := string(k); a != "rel" && a != "target" {
					counts[a+"="]++
				}
			}
		}
	}
}
