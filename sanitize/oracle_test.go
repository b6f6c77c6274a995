package sanitize_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// The structural oracle: sanitized markup, read by golang.org/x/net/html the way a browser
// reads it, may hold only what the policy's tables (sanitize.HTMLElements, HTMLAttrs and
// LinkAttrs — the same tables the policy is built from) allow, and no URL-bearing attribute may
// name a scheme the policy refuses.

// urlBearing are attribute names whose value a browser loads or navigates to. Any of them the
// tables allow must be declared as a URL attribute, so that its schemes are checked.
var urlBearing = []string{
	"href", "src", "srcset", "cite", "action", "formaction", "background", "poster", "longdesc",
	"data", "codebase", "classid", "archive", "usemap", "ping", "manifest", "lowsrc", "dynsrc",
	"icon", "profile", "itemtype", "itemid", "xlink:href", "xml:base",
}

// structureProblems returns what in sanitized breaks the allowlist, seen twice: token by token,
// and as the tree an HTML parser builds from it in a div (which may add implied elements, e.g.
// tbody, that must be allowed too, and puts foreign content in a namespace).
func structureProblems(sanitized string) []string {
	var probs []string
	z := nethtml.NewTokenizer(strings.NewReader(sanitized))
	for tt := z.Next(); tt != nethtml.ErrorToken; tt = z.Next() {
		tok := z.Token()
		switch tt {
		case nethtml.CommentToken, nethtml.DoctypeToken:
			probs = append(probs, fmt.Sprintf("%v token %q", tt, tok.Data))
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			probs = append(probs, elementProblems(tok.Data, tok.Attr)...)
		}
	}
	ctx := &nethtml.Node{Type: nethtml.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := nethtml.ParseFragment(strings.NewReader(sanitized), ctx)
	if err != nil {
		// The parser refuses to nest more than 512 elements deep; the token pass above has
		// still checked every tag.
		return probs
	}
	for _, n := range nodes {
		for d := range n.Descendants() {
			probs = append(probs, nodeProblems(d)...)
		}
		probs = append(probs, nodeProblems(n)...)
	}
	return probs
}

// nodeProblems checks one node of the parsed tree.
func nodeProblems(n *nethtml.Node) []string {
	switch n.Type {
	case nethtml.CommentNode, nethtml.DoctypeNode:
		return []string{fmt.Sprintf("parsed tree holds a comment or doctype %q", n.Data)}
	case nethtml.ElementNode:
		if n.Namespace != "" {
			return []string{fmt.Sprintf("parsed tree holds <%s:%s>", n.Namespace, n.Data)}
		}
		return elementProblems(n.Data, n.Attr)
	}
	return nil
}

// elementProblems checks an element's name and attributes against the tables.
func elementProblems(name string, attrs []nethtml.Attribute) []string {
	if !slices.Contains(sanitize.HTMLElements, name) {
		return []string{fmt.Sprintf("<%s> is not on the allowlist", name)}
	}
	var probs []string
	for _, a := range attrs {
		if p := attrProblem(name, a); p != "" {
			probs = append(probs, fmt.Sprintf("<%s %s=%q>: %s", name, a.Key, a.Val, p))
		}
	}
	return probs
}

// attrProblem says why attribute a on element el breaks the tables, or "" when one of the rules
// for it accepts it. a.Val is already entity-decoded, as a browser reads it.
func attrProblem(el string, a nethtml.Attribute) string {
	if a.Namespace != "" {
		return "namespaced attribute"
	}
	problem := "not on the allowlist"
	for _, r := range append(slices.Clone(sanitize.HTMLAttrs), sanitize.LinkAttrs...) {
		if r.Name != a.Key || len(r.On) > 0 && !slices.Contains(r.On, el) {
			continue
		}
		switch {
		case r.URL != nil:
			problem = urlProblem(*r.URL, a.Val)
		case slices.Contains(urlBearing, a.Key):
			problem = "a URL-bearing attribute the tables do not declare as a URL"
		case r.Value != nil && !r.Value.MatchString(a.Val):
			problem = "value does not match " + r.Value.String()
		default:
			problem = ""
		}
		if problem == "" {
			return ""
		}
	}
	return problem
}

// urlProblem reads v as a browser's URL parser does — leading and trailing C0 controls and
// spaces trimmed, tabs and newlines removed, the scheme case-folded — and says why the policy
// should have refused it, or "". Outside inline images, URL must accept v as well. (v is already entity-decoded. Decoding it again cannot change
// its scheme: a scheme holds no "&".)
func urlProblem(rule sanitize.URLAttr, v string) string {
	u := browserURL(v)
	scheme, ok := schemeOf(u)
	switch {
	case !ok:
		return "relative URL (the policy allows none)"
	case scheme == "data" && rule.InlineImages && inlineImage(u):
		return ""
	case sanitize.NeverAllowedScheme(scheme):
		return "never-allowed scheme " + scheme
	case !slices.Contains(rule.Schemes, scheme):
		return "scheme " + scheme + " is not allowed here"
	}
	if _, err := sanitize.URL(v, sanitize.URLRules{Schemes: rule.Schemes}); err != nil {
		return "URL refuses it: " + err.Error()
	}
	return ""
}

// browserURL is what the WHATWG URL parser starts from: no leading or trailing C0 control or
// space, no ASCII tab or newline anywhere.
func browserURL(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= 0x20 })
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
}

// schemeOf returns the lower-cased scheme of an absolute URL: an ASCII letter, then letters,
// digits, "+", "-" or ".", then ":".
func schemeOf(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i < 1 {
		return "", false
	}
	for j, c := range []byte(s[:i]) {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return strings.ToLower(s[:i]), true
}

// inlineImage reports whether a data: URL is base64 of one of sanitize.InlineImageTypes.
func inlineImage(u string) bool {
	low := strings.ToLower(u)
	for _, t := range sanitize.InlineImageTypes {
		if strings.HasPrefix(low, "data:"+t+";base64,") {
			return true
		}
	}
	return false
}

// TestOracleCatches shows the oracle is not vacuous: each markup here breaks the allowlist in
// one way (none of it is HTML's output), and the oracle says so.
func TestOracleCatches(t *testing.T) {
	tests := []struct{ name, markup, want string }{
		{"element", `<script>1</script>`, "<script> is not on the allowlist"},
		{"foreign element", `<svg></svg>`, "<svg> is not on the allowlist"},
		{"attribute", `<p onclick="x">a</p>`, "not on the allowlist"},
		{"attribute on the wrong element", `<p colspan="2">a</p>`, "not on the allowlist"},
		{"value", `<td colspan="x">a</td>`, "value does not match"},
		{"script scheme", `<a href="javascript:alert(1)">x</a>`, "never-allowed scheme javascript"},
		{"script scheme, entity-encoded", `<a href="&#x6A;ava&#9;script:alert(1)">x</a>`, "never-allowed scheme javascript"},
		{"script scheme, upper case after controls", "<a href=\"\x01 JAVASCRIPT:1\">x</a>", "never-allowed scheme javascript"},
		{"entity-encoded scheme, once more", `<a href="&amp;#106;avascript:1">x</a>`, "relative URL"},
		{"scheme allowed elsewhere", `<img src="http://e.test/a.png">`, "scheme http is not allowed here"},
		{"data outside img", `<a href="data:image/png;base64,AA==">x</a>`, "never-allowed scheme data"},
		{"data of a markup type", `<img src="data:image/svg+xml;base64,AA==">`, "never-allowed scheme data"},
		{"relative", `<a href="/x">x</a>`, "relative URL"},
		{"credentials", `<a href="https://u:p@e.test/">x</a>`, "URL refuses it"},
		{"added attribute, other value", `<a href="https://e.test" target="_self">x</a>`, "value does not match"},
		{"comment", `<!-- x -->`, "Comment token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Contains(t, strings.Join(structureProblems(tt.markup), "\n"), tt.want)
		})
	}
	assert.Empty(t, structureProblems(`<a href="https://e.test" rel="nofollow noreferrer noopener" target="_blank">x</a>`+
		`<img src="data:image/png;base64,iVBORw0KGgo=" alt="a"><table><tr><td colspan="2">x</td></tr></table>`))
}

// TestAllowlistTables: the tables are consistent with themselves and with URL's rules.
func TestAllowlistTables(t *testing.T) {
	for _, r := range append(slices.Clone(sanitize.HTMLAttrs), sanitize.LinkAttrs...) {
		for _, el := range r.On {
			assert.Contains(t, sanitize.HTMLElements, el, "attribute %s", r.Name)
		}
		if slices.Contains(urlBearing, r.Name) {
			assert.NotNil(t, r.URL, "%s carries a URL: it needs a URL rule", r.Name)
		}
		if r.URL != nil {
			assert.Nil(t, r.Value, "%s: a URL attribute's values are its URL rule", r.Name)
			for _, s := range r.URL.Schemes {
				assert.False(t, sanitize.NeverAllowedScheme(s), "%s allows the never-allowed %s:", r.Name, s)
			}
		}
	}
}
