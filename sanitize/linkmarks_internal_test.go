package sanitize

import (
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// marksByBluemonday is the policy of rules as it was before the bridge wrote the link marks
// itself: bluemonday writes them (RequireNoFollowOnLinks, RequireNoReferrerOnLinks,
// AddTargetBlankToFullyQualifiedLinks). The bridge's output must be the same, byte for byte.
func marksByBluemonday(r HTMLRules) *bluemonday.Policy {
	p := newHTMLPolicy(r.normalized())
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// linkMarkRules are the rules the link-mark tests try: the default ones, links of schemes with
// and without a host, and no links at all.
var linkMarkRules = []HTMLRules{
	DefaultHTMLRules(),
	{Links: URLRules{Schemes: []string{"https", "mailto", "tel", "ftp"}, MaxLength: 60}},
	{},
}

// linkMarkSeeds are links in the shapes that decide their marks: to a host or not, several
// hrefs, self-closing, a value that reads like another attribute, the page's own rel and target.
var linkMarkSeeds = []string{
	`<a href="https://e.test/a" title="t">x</a><a href="mailto:a@e.test">m</a><a href="tel:+1">t</a>`,
	`<a href="https://e.test/" href="mailto:a@e.test">two</a><a href="mailto:a@e.test" href="https://e.test/">two</a>`,
	`<a href="https://e.test/x"/><a title='a href="https://e.test/"' href="mailto:a@e.test">v</a>`,
	`<a href="HTTPS://E.test/?a=1&amp;b=2" rel=opener target=_self>x</a><a href="ftp://e.test/f">f</a>`,
	`<a title="x">no href</a><abbr title="a">a</abbr><address>ad</address><a href="javascript:1">j</a>`,
	`<p><a href="https://a@b.test">c</a> <a href=" https://e.test/ ">s</a><a href="//e.test/">rel</a></p>`,
	`<a href="mailto://e.test/x">m</a><a href="https://e.test/` + strings.Repeat("a", 70) + `">long</a>`,
	fixtures.Article(4 << 10),
}

// TestLinkMarksAsBluemondayWritesThem: the marks the bridge writes on links as the markup is
// written give the markup bluemonday's own link settings gave, byte for byte, under several
// rules, through HTML and HTMLAndText.
func TestLinkMarksAsBluemondayWritesThem(t *testing.T) {
	for i, r := range linkMarkRules {
		want := marksByBluemonday(r)
		for _, in := range linkMarkSeeds {
			w := want.Sanitize(in)
			if got := HTML(in, r); got != w {
				t.Fatalf("rules %d, HTML(%q):\n got %q\nwant %q", i, in, got, w)
			}
			if got := HTMLAndText(in, r).HTML; got != w {
				t.Fatalf("rules %d, HTMLAndText(%q):\n got %q\nwant %q", i, in, got, w)
			}
		}
	}
	assertMarkLinks(t, `<p>a</p><a href="https://e.test/" title="x">l</a><a href="mailto:a@e.test"/>`)
}

// assertMarkLinks checks markLinks, the fallback for output not written token by token, on
// markup sanitized without marks.
func assertMarkLinks(t *testing.T, in string) {
	t.Helper()
	bare := policyFor(DefaultHTMLRules()).Sanitize(in)
	if got, want := markLinks(bare), marksByBluemonday(DefaultHTMLRules()).Sanitize(in); got != want {
		t.Fatalf("markLinks(%q) = %q, want %q", bare, got, want)
	}
}

// FuzzLinkMarks is TestLinkMarksAsBluemondayWritesThem on any input.
func FuzzLinkMarks(f *testing.F) {
	for i, s := range linkMarkSeeds {
		f.Add(s, uint8(i))
	}
	policies := make([]*bluemonday.Policy, len(linkMarkRules))
	for i, r := range linkMarkRules {
		policies[i] = marksByBluemonday(r)
	}
	f.Fuzz(func(t *testing.T, in string, pick uint8) {
		i := int(pick) % len(linkMarkRules)
		want := policies[i].Sanitize(in)
		if got := HTML(in, linkMarkRules[i]); got != want {
			t.Fatalf("rules %d, HTML(%q):\n got %q\nwant %q", i, in, got, want)
		}
		if got := HTMLAndText(in, linkMarkRules[i]).HTML; got != want {
			t.Fatalf("rules %d, HTMLAndText(%q):\n got %q\nwant %q", i, in, got, want)
		}
	})
}
