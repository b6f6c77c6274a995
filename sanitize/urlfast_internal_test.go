package sanitize

import (
	"net/url"
	"strings"
	"testing"
)

// fastPathCorpus is every combination of schemes, authorities and tails that a plain URL and
// its near misses are made of.
func fastPathCorpus() []string {
	schemes := []string{"https", "http", "HTTPS", "Http", "ftp", "mailto", "javascript", "data"}
	hosts := []string{"example.com", "Example.com", "a.b-c.org", "example.com.", "127.0.0.1", "0x7f.1", "2130706433",
		"example.de", "cafe.fa", "xn--r8jz45g.jp", "a.xn--p1ai", "ex_ample.com", "例え.jp", "host.io:8080", "host.io:",
		"host.io:80a", "u@host.io", "u:p@host.io", "[::1]", "", ".", "a..io", "%65xample.com", "EXAMPLE.COM:443"}
	tails := []string{"", "/", "/a/b?c=d&e=f#g", "/%41", "/%zz", "/%4", "?q", "?", "#", "#f!()*?", "#a b", "/a'b",
		`/"<>`, "?x=%", "?a=<b>&c='d'", "#%20", "/é", "/a;b=c@d:e", "/x#y#z", "?a#b?c", "/~u/$x+y,z", "/%2F..%2f",
		"/&#106;avascript:", "?u=javascript:alert(1)", "#javascript:x", "/a\\b"}
	var out []string
	for _, s := range schemes {
		for _, h := range hosts {
			for _, t := range tails {
				out = append(out, s+"://"+h+t)
			}
		}
	}
	out = append(out, "https:example.com", "https:/example.com", "https:///example.com")
	for _, s := range []string{"mailto", "MAILTO", "tel", "javascript", "data", "https", "ftp", "sms"} {
		for _, opaque := range []string{"a@b.io", "editor1@example.org", "+1-555-0100", "A.B_c@D-e.IO", "", "@",
			"a%40b.io", "a@b.io?subject=hi", "a@b.io?", "a@b.io#f", "&#106;avascript:x", "javascript:alert(1)",
			"a b@c.io", "a/b", "x:y", "é@b.io", "a'b@c.io", strings.Repeat("a", 40) + "@b.io"} {
			out = append(out, s+":"+opaque)
		}
	}
	return out
}

// TestURLFastPathAgrees: URL with its fast path answers every URL of the corpus exactly as the
// whole rule does, under rules with and without the web schemes and with a tight length limit.
func TestURLFastPathAgrees(t *testing.T) {
	for _, rules := range []URLRules{
		{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048},
		{Schemes: []string{"https"}, MaxLength: 2048},
		{Schemes: []string{"mailto"}},
		{Schemes: []string{"http", "https"}, MaxLength: 24},
	} {
		for _, s := range fastPathCorpus() {
			got, gotErr := URL(s, rules)
			want, wantErr := slowURL(s, rules)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("URL(%q, %v) = %q, %v; the whole rule says %q, %v", s, rules, got, gotErr, want, wantErr)
			}
		}
	}
}

// slowURL is URL without its fast path.
func slowURL(raw string, rules URLRules) (string, error) {
	s, err := trimURL(raw, rules)
	if err != nil {
		return s, err
	}
	return checkURL(s, rules)
}

// TestMarkupURLFastPathAgrees: the policy's URL check with its fast paths accepts and writes
// every URL of the corpus that url.Parse reads exactly as the whole rule does, under rules with
// and without the schemes and with a tight length limit.
func TestMarkupURLFastPathAgrees(t *testing.T) {
	for _, rules := range []URLRules{
		{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048},
		{Schemes: []string{"mailto", "tel", "ftp", "javascript"}, MaxLength: 24},
		{Schemes: []string{"https"}},
	} {
		for _, s := range fastPathCorpus() {
			u1, err := url.Parse(s)
			if err != nil {
				continue // bluemonday drops what does not parse before any check runs
			}
			u2 := *u1
			ok1, ok2 := rewriteToURLForm(u1, rules), rewriteChecked(&u2, rules)
			if ok1 != ok2 || ok1 && (u1.String() != u2.String() || *u1 != u2) {
				t.Errorf("%q under %v: fast path %v %q, whole rule %v %q", s, rules, ok1, u1.String(), ok2, u2.String())
			}
		}
	}
}

// TestURLFastPathAllocates: a plain https URL or mailto: address in markup, or a plain https URL
// in a link block, is checked without an allocation (before the fast paths, each check parsed and
// wrote the URL twice).
func TestURLFastPathAllocates(t *testing.T) {
	rules := URLRules{Schemes: []string{"https", "http", "mailto"}, MaxLength: 2048}
	const href = "https://en.example.org/wiki/Item_1234?id=7&ref=list#top"
	for _, s := range []string{href, "mailto:editor1234@example.org"} {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			if !rewriteToURLForm(u, rules) {
				t.Fatal("refused")
			}
		}); n != 0 {
			t.Errorf("checking %s in markup: %v allocations", s, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := URL(href, rules); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("URL(%s): %v allocations", href, n)
	}
}
