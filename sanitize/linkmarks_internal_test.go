package sanitize

import (
	"net/url"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"

	"github.com/webmcp-bridge/webmcp-bridge/internal/testing/fixtures"
)

// marksByBluemonday is the policy of rules as it was before the bridge wrote the link marks
// itself: bluemonday writes them (RequireNoFollowOnLinks, RequireNoReferrerOnLinks,
// AddTargetBlankToFullyQualifiedLinks). The bridge's output must be the same, byte for byte.
// (The allowlist alone: for markup without hidden elements it writes what HTML writes.)
func marksByBluemonday(r HTMLRules) *bluemonday.Policy {
	p := allowlistPolicy(r.normalized())
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

// assertMarkLinks checks rereadUnread, the fallback for output not written token by token, on
// markup sanitized without marks: it gives the links the marks bluemonday would.
func assertMarkLinks(t *testing.T, in string) {
	t.Helper()
	bare := policyFor(DefaultHTMLRules()).Sanitize(in)
	w := &renderingWriter{unread: true}
	w.html.WriteString(bare)
	w.rereadUnread()
	if got, want := w.html.String(), marksByBluemonday(DefaultHTMLRules()).Sanitize(in); got != want {
		t.Fatalf("rereading %q = %q, want %q", bare, got, want)
	}
}

// hostCorpus are hrefs in the shapes hasHost tells apart without url.Parse, and their near misses.
var hostCorpus = []string{
	"https://e.test/a", "http://e.test", "https://e.test?q#f", "https://e.test#f", "https://a-b.c0.test/x//y",
	"https://", "http://", "https:///x", "https://E.test/", "HTTPS://e.test/", "https://e.test:8080/", "https://u@e.test/",
	"https://@/x", "https://e_t.test/", "https://e.test/%zz", "https://e.test/%41", "https://e.test/a\x01b",
	"https://e.test/#%zz", "https://e.test/?%zz", "https://[::1]/", "https://e.test/\x7f", "mailto:a@e.test",
	"mailto://e.test/x", "//e.test/x", "///x", "/a//b", "ftp://e.test/", "x:y//z", "a b://c", "https:e.test//x",
	"https://e.test\x00/", "https://é.test/", "",
}

// TestHasHostAgreesWithURLParse: whether a link gets the mark of a link to another host is what
// url.Parse says, with or without the shortcut.
func TestHasHostAgreesWithURLParse(t *testing.T) {
	for _, href := range hostCorpus {
		u, err := url.Parse(href)
		if want := err == nil && u.Host != ""; hasHost(href) != want {
			t.Errorf("hasHost(%q) = %v, url.Parse says %v", href, !want, want)
		}
	}
}

// TestLinkMarkOfPlainLinksAllocates: the mark of a link to a web address with a plain host, or of
// a link without "//", is found without an allocation (before, each link was parsed again).
func TestLinkMarkOfPlainLinksAllocates(t *testing.T) {
	for href, want := range map[string]linkMark{
		"https://en.example.org/wiki/Item_1?id=7&ref=list#top": externalMark,
		"mailto:editor1@example.org":                           localMarks,
	} {
		var got linkMark
		if n := testing.AllocsPerRun(100, func() { got = markFor(href, noMark) }); n != 0 || got != want {
			t.Errorf("markFor(%q) = %v with %v allocations, want %v with none", href, got, n, want)
		}
	}
}

// FuzzHasHost is TestHasHostAgreesWithURLParse on any href.
func FuzzHasHost(f *testing.F) {
	for _, s := range hostCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		u, err := url.Parse(href)
		if want := err == nil && u.Host != ""; hasHost(href) != want {
			t.Errorf("hasHost(%q) = %v, url.Parse says %v", href, !want, want)
		}
	})
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
		if strings.Contains(HTMLAndText(in, linkMarkRules[i]).Removed, "hidden element") {
			return // what a person would not see is left out, as bluemonday alone does not
		}
		want := policies[i].Sanitize(in)
		if got := HTML(in, linkMarkRules[i]); got != want {
			t.Fatalf("rules %d, HTML(%q):\n got %q\nwant %q", i, in, got, want)
		}
		if got := HTMLAndText(in, linkMarkRules[i]).HTML; got != want {
			t.Fatalf("rules %d, HTMLAndText(%q):\n got %q\nwant %q", i, in, got, want)
		}
	})
}
