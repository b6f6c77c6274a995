package sanitize_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
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
func structureProblems(sanitized string, rules sanitize.HTMLRules) []string {
	var probs []string
	z := nethtml.NewTokenizer(strings.NewReader(sanitized))
	for tt := z.Next(); tt != nethtml.ErrorToken; tt = z.Next() {
		tok := z.Token()
		switch tt {
		case nethtml.CommentToken, nethtml.DoctypeToken:
			probs = append(probs, fmt.Sprintf("%v token %q", tt, tok.Data))
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken, nethtml.EndTagToken:
			probs = append(probs, elementProblems(tok.Data, tok.Attr, rules)...)
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
			probs = append(probs, nodeProblems(d, rules)...)
		}
		probs = append(probs, nodeProblems(n, rules)...)
	}
	return probs
}

// nodeProblems checks one node of the parsed tree.
func nodeProblems(n *nethtml.Node, rules sanitize.HTMLRules) []string {
	switch n.Type {
	case nethtml.CommentNode, nethtml.DoctypeNode:
		return []string{fmt.Sprintf("parsed tree holds a comment or doctype %q", n.Data)}
	case nethtml.ElementNode:
		if n.Namespace != "" {
			return []string{fmt.Sprintf("parsed tree holds <%s:%s>", n.Namespace, n.Data)}
		}
		return elementProblems(n.Data, n.Attr, rules)
	}
	return nil
}

// elementProblems checks an element's name and attributes against the tables.
func elementProblems(name string, attrs []nethtml.Attribute, rules sanitize.HTMLRules) []string {
	if !slices.Contains(sanitize.HTMLElements, name) {
		return []string{fmt.Sprintf("<%s> is not on the allowlist", name)}
	}
	var probs []string
	for _, a := range attrs {
		if p := attrProblem(name, a, rules); p != "" {
			probs = append(probs, fmt.Sprintf("<%s %s=%q>: %s", name, a.Key, a.Val, p))
		}
	}
	return probs
}

// attrProblem says why attribute a on element el breaks the tables under rules, or "" when one of
// the table's rows for it accepts it. a.Val is already entity-decoded, as a browser reads it.
func attrProblem(el string, a nethtml.Attribute, rules sanitize.HTMLRules) string {
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
			problem = urlProblem(*r.URL, rules, a.Val)
		case slices.Contains(urlBearing, a.Key):
			problem = "a URL-bearing attribute the tables do not declare as a URL"
		case r.Value != nil && !r.Value.Regexp().MatchString(a.Val):
			problem = "value does not match " + r.Value.Regexp().String()
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
// should have refused it under rules, or "". Outside inline images, URL must accept v as well,
// with the attribute's rules (length included). (v is already entity-decoded. Decoding it again
// cannot change its scheme: a scheme holds no "&".)
func urlProblem(attr sanitize.URLAttr, rules sanitize.HTMLRules, v string) string {
	u := browserURL(v)
	scheme, ok := schemeOf(u)
	urlRules, inlineTypes := attr.Rules(rules)
	switch {
	case !ok:
		return "relative URL (the policy allows none)"
	case scheme == "data" && len(inlineTypes) > 0:
		if p := inlineImageProblem(u, inlineTypes, rules.InlineImages); p != "" {
			return "inline image: " + p
		}
		return ""
	case sanitize.NeverAllowedScheme(scheme):
		return "never-allowed scheme " + scheme
	case !slices.Contains(urlRules.Schemes, scheme):
		return "scheme " + scheme + " is not allowed here"
	}
	if _, err := sanitize.URL(v, urlRules); err != nil {
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

// inlineImageProblem says why a data: URL is not base64 of an image of one of types (each one
// of sanitize.InlineImageTypes) that CheckImage accepts with lim as the type the URL declares,
// or "".
func inlineImageProblem(u string, types []string, lim sanitize.ImageLimits) string {
	low := strings.ToLower(u)
	for _, t := range types {
		prefix := "data:" + t + ";base64,"
		if !slices.Contains(sanitize.InlineImageTypes, t) || !strings.HasPrefix(low, prefix) {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(u[len(prefix):])
		if err != nil {
			return "not base64"
		}
		info, err := sanitize.CheckImage(data, t, lim)
		switch {
		case err != nil:
			return "CheckImage refuses it: " + err.Error()
		case info.DeclaredType != "":
			return "declared as " + t + " but the bytes are " + info.MIMEType
		}
		return ""
	}
	return "not a base64 data: URL of an allowed image type"
}

// TestOracleCatches shows the oracle is not vacuous: each markup here breaks the allowlist in
// one way under the rules (DefaultHTMLRules when nil; none of it is HTML's output), and the
// oracle says so.
func TestOracleCatches(t *testing.T) {
	httpsOnly := sanitize.DefaultHTMLRules()
	httpsOnly.Links = sanitize.URLRules{Schemes: []string{"https"}, MaxLength: 100}
	pngOnly := sanitize.DefaultHTMLRules()
	pngOnly.InlineImages.Types = []string{"image/png"}
	tests := []struct {
		name, markup, want string
		rules              *sanitize.HTMLRules
	}{
		{"element", `<script>1</script>`, "<script> is not on the allowlist", nil},
		{"foreign element", `<svg></svg>`, "<svg> is not on the allowlist", nil},
		{"attribute", `<p onclick="x">a</p>`, "not on the allowlist", nil},
		{"attribute on the wrong element", `<p colspan="2">a</p>`, "not on the allowlist", nil},
		{"value", `<td colspan="x">a</td>`, "value does not match", nil},
		{"script scheme", `<a href="javascript:alert(1)">x</a>`, "never-allowed scheme javascript", nil},
		{"script scheme, entity-encoded", `<a href="&#x6A;ava&#9;script:alert(1)">x</a>`, "never-allowed scheme javascript",
			nil},
		{"script scheme, upper case after controls", "<a href=\"\x01 JAVASCRIPT:1\">x</a>", "never-allowed scheme javascript",
			nil},
		{"entity-encoded scheme, once more", `<a href="&amp;#106;avascript:1">x</a>`, "relative URL", nil},
		{"scheme allowed elsewhere", `<img src="http://e.test/a.png">`, "scheme http is not allowed here", nil},
		{"scheme the rules do not allow", `<a href="http://e.test/">x</a>`, "scheme http is not allowed here", &httpsOnly},
		{"URL over the rules' length", `<a href="https://e.test/` + strings.Repeat("a", 100) + `">x</a>`,
			"URL refuses it: the URL is 115 bytes, over the 100-byte limit", &httpsOnly},
		{"data outside img", `<a href="data:image/png;base64,AA==">x</a>`, "never-allowed scheme data", nil},
		{"data of a markup type", `<img src="data:image/svg+xml;base64,AA==">`,
			"inline image: not a base64 data: URL of an allowed image type", nil},
		{"inline image of a type the rules do not allow", `<img src="` + dataURL("image/gif", fixtures.GIF(1, 1)) + `">`,
			"not a base64 data: URL of an allowed image type", &pngOnly},
		{"inline image, truncated", `<img src="data:image/png;base64,iVBORw0KGgo=">`,
			"CheckImage refuses it: the PNG is truncated", nil},
		{"inline image, mislabelled", `<img src="` + dataURL("image/gif", fixtures.PNG(1, 1, false)) + `">`,
			"declared as image/gif but the bytes are image/png", nil},
		{"inline image, not base64", `<img src="data:image/png;base64,a">`, "inline image: not base64", nil},
		{"relative", `<a href="/x">x</a>`, "relative URL", nil},
		{"credentials", `<a href="https://u:p@e.test/">x</a>`, "URL refuses it", nil},
		{"added attribute, other value", `<a href="https://e.test" target="_self">x</a>`, "value does not match", nil},
		{"comment", `<!-- x -->`, "Comment token", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := sanitize.DefaultHTMLRules()
			if tt.rules != nil {
				rules = *tt.rules
			}
			assert.Contains(t, strings.Join(structureProblems(tt.markup, rules), "\n"), tt.want)
		})
	}
	assert.Empty(t, structureProblems(`<a href="https://e.test" rel="nofollow noreferrer noopener" target="_blank">x</a>`+
		`<img src="`+dataURL("image/png", fixtures.PNG(2, 2, false))+`" alt="a">`+
		`<table><tr><td colspan="2">x</td></tr></table>`, defaultRules))
}

// TestAllowlistTables: the tables are consistent with themselves and with URL's rules, whatever
// the HTMLRules list.
func TestAllowlistTables(t *testing.T) {
	hostile := sanitize.HTMLRules{
		Links:        sanitize.URLRules{Schemes: []string{"https", "JavaScript", " data ", "blob", "bad scheme", "", "1x"}},
		Images:       sanitize.URLRules{Schemes: []string{"https", "data", "file", "vbscript"}},
		InlineImages: sanitize.ImageLimits{Types: []string{"image/png", "image/svg+xml", "text/html", "image/bmp"}},
	}
	for _, r := range append(slices.Clone(sanitize.HTMLAttrs), sanitize.LinkAttrs...) {
		for _, el := range r.On {
			assert.Contains(t, sanitize.HTMLElements, el, "attribute %s", r.Name)
		}
		if slices.Contains(urlBearing, r.Name) {
			assert.NotNil(t, r.URL, "%s carries a URL: it needs a URL rule", r.Name)
		}
		if r.URL != nil {
			assert.Nil(t, r.Value, "%s: a URL attribute's values are its URL rule", r.Name)
			for _, rules := range []sanitize.HTMLRules{sanitize.DefaultHTMLRules(), hostile} {
				urlRules, inline := r.URL.Rules(rules)
				for _, s := range urlRules.Schemes {
					assert.False(t, sanitize.NeverAllowedScheme(s), "%s allows the never-allowed %s:", r.Name, s)
					_, ok := schemeOf(s + ":")
					assert.True(t, ok, "%s allows %q, not a scheme", r.Name, s)
				}
				for _, typ := range inline {
					assert.Contains(t, sanitize.InlineImageTypes, typ, "%s allows inline %s", r.Name, typ)
				}
			}
		}
	}
}

// dataURL is a base64 data: URL of data, declared as typ.
func dataURL(typ string, data []byte) string {
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data)
}
